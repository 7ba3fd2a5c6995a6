package install

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseRoundTrip: whatever Parse accepts, Bytes writes back byte for byte (an unchanged
// settings.json is never rewritten in another style); and after a key is added to an object
// root, the document still parses, with the key set and every other member's value unchanged.
// Seeds: the settings corpus and hand-picked shapes (escapes, numbers, BOM, CRLF, nesting).
func FuzzParseRoundTrip(f *testing.F) {
	ents, _ := os.ReadDir("testdata/corpus")
	for _, e := range ents {
		if data, err := os.ReadFile(filepath.Join("testdata/corpus", e.Name())); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		``, ` `, `{}`, `[]`, `null`, `0`, `-1.5e+10`, `"x"`, "\ufeff{}", "{\r\n  \"a\": 1\r\n}\r\n",
		`{"a":"\u00e9\ud83d\ude00\n\"\\/"}`, `{"a": [1, 2.50, 1e3, true, false, null, {"b": {}}]}`,
		"{\n\t\"hooks\": {\n\t\t\"Stop\": []\n\t}\n}\n", `{"a":1,"a":2}`, `{ "a" : 1 , "b" : [ ] }`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("settings.json", data)
		if err != nil {
			return
		}
		if got := d.Bytes(); !bytes.Equal(got, data) {
			t.Fatalf("parse then print changed the bytes:\n%s", UnifiedDiff("in", "out", data, got))
		}
		if d.Root == nil || d.Root.Kind != Object {
			return
		}
		before := map[string]string{}
		for _, m := range d.Root.Members {
			before[m.Key] = m.Val.Canonical() // the last of a repeated key, as Get reads it
		}
		const key = "zoneline-fuzz-key"
		d.Root.Set(key, &Node{Kind: String, Str: "v\n\"é"})
		out := d.Bytes()
		d2, err := Parse("settings.json", out)
		if err != nil {
			t.Fatalf("the edited document does not parse: %v\n%s", err, out)
		}
		if v := d2.Root.Get(key); v == nil || v.Kind != String || v.Str != "v\n\"é" {
			t.Fatalf("the key set is not read back: %v\n%s", v, out)
		}
		for k, c := range before {
			if k == key {
				continue
			}
			if v := d2.Root.Get(k); v == nil || v.Canonical() != c {
				t.Fatalf("member %q changed: %v, was %s\n%s", k, v, c, out)
			}
		}
	})
}
