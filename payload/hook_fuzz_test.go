package payload

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecodeHook decodes arbitrary bytes as a hook payload, seeded with the recorded hook
// payloads and the hostile corpus (testdata/hostile). It never panics and never returns nil; it
// accepts only a valid JSON object; and on an accepted object whose hook_event_name is a string,
// Event is that string, as encoding/json reads it into a map (the reference).
func FuzzDecodeHook(f *testing.F) {
	for _, pat := range []string{"../testdata/claude-code/*/hook-*.json", "../testdata/hostile/*"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := DecodeHook(data)
		if h == nil {
			t.Fatal("nil hook")
		}
		if err != nil {
			return
		}
		trimmed := bytes.TrimSpace(data)
		if !json.Valid(trimmed) || trimmed[0] != '{' {
			t.Fatalf("accepted %q, which is not a JSON object", data)
		}
		var ref map[string]json.RawMessage
		if json.Unmarshal(trimmed, &ref) != nil {
			return
		}
		raw, ok := ref["hook_event_name"]
		if !ok || hasFold(ref, "hook_event_name") {
			return // a case variant of the key may win in encoding/json's struct decoding
		}
		var ev string
		if json.Unmarshal(raw, &ev) == nil && h.Event != ev {
			t.Fatalf("Event = %q, encoding/json says %q", h.Event, ev)
		}
	})
}

// hasFold reports whether m holds a key other than key that equals it case-insensitively.
func hasFold(m map[string]json.RawMessage, key string) bool {
	for k := range m {
		if k != key && bytes.EqualFold([]byte(k), []byte(key)) {
			return true
		}
	}
	return false
}
