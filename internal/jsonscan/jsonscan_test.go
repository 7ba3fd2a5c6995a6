package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func encodingJSONString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `a"b\c`, "\n\r\t\x00\x1f", "é€😀", "\xff\xfe", "\u2028\u2029", "<&>"} {
		if got, want := string(AppendString(nil, s)), encodingJSONString(s); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"b\\\n\xff\u2028é")
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		if want := encodingJSONString(s); string(got) != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		var back string
		if err := Decode([]byte(`{"k":`+string(got)+`}`), func(sc *Scanner, k []byte) error { return sc.String("k", &back) }); err != nil {
			t.Fatalf("round trip of %q: %v", s, err)
		}
		var ref string
		json.Unmarshal(got, &ref)
		if back != ref {
			t.Fatalf("round trip of %q: %q, encoding/json %q", s, back, ref)
		}
	})
}

func TestReaders(t *testing.T) {
	var (
		n      int64
		tm     time.Time
		str    string
		b      *bool
		sp     *string
		raw    []byte
		visits int
	)
	in := `{"n": 12.9, "t": "2026-11-29T22:12:49.5Z", "s": "x", "b": true, "sp": null, "raw": [1, {"a": "b"}], "skip": {"deep": [[[]]]}, "N2": "not a number"}`
	err := Decode([]byte(in), func(s *Scanner, k []byte) error {
		visits++
		switch {
		case KeyIs(k, "n"):
			return s.Int("n", &n)
		case KeyIs(k, "t"):
			return s.Time("t", &tm)
		case KeyIs(k, "s"):
			return s.String("s", &str)
		case KeyIs(k, "b"):
			return s.BoolPtr("b", &b)
		case KeyIs(k, "sp"):
			return s.StringPtr("sp", &sp)
		case KeyIs(k, "raw"):
			var err error
			raw, err = s.Raw()
			return err
		case KeyIs(k, "n2"):
			return s.Int("n2", &n)
		}
		return s.Skip()
	})
	te, ok := err.(*TypeError)
	if !ok || te.Field != "n2" {
		t.Fatalf("err = %v, want a TypeError for n2", err)
	}
	if n != 12 || tm.Nanosecond() != 5e8 || str != "x" || b == nil || !*b || sp != nil || string(raw) != `[1, {"a": "b"}]` || visits != 8 {
		t.Fatalf("n %d t %v s %q b %v sp %v raw %s visits %d", n, tm, str, b, sp, raw, visits)
	}
}

func TestSyntax(t *testing.T) {
	for _, in := range []string{"{}\x00", "{\"a\":1}\x00 ", `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1} x`, `{"a":[1,]}`, `{"a":"\q"}`, `{"a":nul}`, `{"a":-}`, `{"a":1e+}`} {
		err := Decode([]byte(in), func(s *Scanner, k []byte) error { return s.Skip() })
		if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("%s: err = %v, want a SyntaxError", in, err)
		}
		if json.Valid([]byte(in)) {
			t.Errorf("%s is valid for encoding/json", in)
		}
	}
}
