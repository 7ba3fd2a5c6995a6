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
		if err := Decode([]byte(`{"k":`+string(got)+`}`), func(sc *Scanner, k []byte) error { return sc.String(&back) }); err != nil {
			t.Fatalf("round trip of %q: %v", s, err)
		}
		var ref string
		json.Unmarshal(got, &ref)
		if back != ref {
			t.Fatalf("round trip of %q: %q, encoding/json %q", s, back, ref)
		}
	})
}

// readers is a record of every reader's kind, with its key table.
type readers struct {
	n, n2 int64
	c     int
	tm    time.Time
	str   string
	b     *bool
	f     bool
	sp    *string
	raw   []byte
	inner *readers
	list  []readers
	drop  int
}

var readerFields = [...]Field[readers]{
	{Key: "n", Read: func(s *Scanner, v *readers) error { return s.Int(&v.n) }, Write: func(b []byte, v *readers) []byte { return AppendInt(b, v.n, false) }},
	{Key: "t", Read: func(s *Scanner, v *readers) error { return s.Time(&v.tm) }, Write: func(b []byte, v *readers) []byte { return AppendTime(b, v.tm) }},
	{Key: "s", Read: func(s *Scanner, v *readers) error { return s.String(&v.str) }, Write: func(b []byte, v *readers) []byte { return AppendString(b, v.str) }},
	{Key: "c", Read: func(s *Scanner, v *readers) error { return s.Count(&v.c, 9) }, Write: func(b []byte, v *readers) []byte { return AppendInt(b, int64(v.c), true) }},
	{Key: "b", Read: func(s *Scanner, v *readers) error { return s.BoolPtr(&v.b) }},
	{Key: "f", Read: func(s *Scanner, v *readers) error { return s.Bool(&v.f) }},
	{Key: "sp", Read: func(s *Scanner, v *readers) error { return s.StringPtr(&v.sp) }},
	{Key: "raw", Read: func(s *Scanner, v *readers) error {
		var err error
		v.raw, err = s.Raw()
		return err
	}},
	{Key: "inner", Read: func(s *Scanner, v *readers) error { return ReadPtr(s, &v.inner, innerFields[:]) }},
	{Key: "list", Read: func(s *Scanner, v *readers) error { return ReadList(s, &v.list, 2, &v.drop, innerFields[:]) }},
	{Key: "n2", Read: func(s *Scanner, v *readers) error { return s.Int(&v.n2) }},
}

// innerFields is the nested records' table (a table cannot name itself: an initialization cycle).
var innerFields = [...]Field[readers]{
	{Key: "n", Read: func(s *Scanner, v *readers) error { return s.Int(&v.n) }},
	{Key: "s", Read: func(s *Scanner, v *readers) error { return s.String(&v.str) }},
	{Key: "t", Read: func(s *Scanner, v *readers) error { return s.Time(&v.tm) }},
	{Key: "b", Read: func(s *Scanner, v *readers) error { return s.BoolPtr(&v.b) }},
}

func TestReaders(t *testing.T) {
	var v readers
	in := `{"n": 12.9, "t": "2026-11-29T22:12:49.5Z", "s": "x", "b": true, "f": true, "c": 12, "sp": null, "raw": [1, {"a": "b"}], "skip": {"deep": [[[]]]}, "inner": {"s": "y"}, "list": [{"n": 1}, {"n": 2}, {"n": 3}], "N2": "not a number"}`
	err := DecodeFields([]byte(in), &v, readerFields[:])
	te, ok := err.(*TypeError)
	if !ok || te.Field != "n2" {
		t.Fatalf("err = %v, want a TypeError for n2", err)
	}
	if v.n != 12 || v.tm.Nanosecond() != 5e8 || v.str != "x" || v.b == nil || !*v.b || !v.f || v.c != 9 || v.sp != nil || string(v.raw) != `[1, {"a": "b"}]` ||
		v.inner == nil || v.inner.str != "y" || len(v.list) != 2 || v.list[1].n != 2 || v.drop != 1 {
		t.Fatalf("decoded %+v", v)
	}
}

// TestTypeErrorPath: a type error is named by the table keys that led to it.
func TestTypeErrorPath(t *testing.T) {
	for in, want := range map[string]string{
		`{"inner": {"s": 1}}`:           "inner.s",
		`{"list": [{"t": "x"}]}`:        "list[].t",
		`{"list": [1]}`:                 "list[]",
		`{"inner": 5, "s": 1}`:          "inner",
		`{"inner": {"b": "x"}, "s": 1}`: "inner.b",
	} {
		var v readers
		if te, ok := DecodeFields([]byte(in), &v, readerFields[:]).(*TypeError); !ok || te.Field != want {
			t.Errorf("%s: %v, want a type error for %s", in, te, want)
		}
	}
}

// TestAppendObject: a record is written as encoding/json writes it (MarshalIndent when
// indented), a writer that appends nothing leaves its key out, and it reads back.
func TestAppendObject(t *testing.T) {
	v := readers{n: -3, tm: time.Date(2026, 11, 29, 22, 12, 49, 5e8, time.UTC), str: "a\"\n"}
	type ref struct {
		N int64     `json:"n"`
		T time.Time `json:"t"`
		S string    `json:"s"`
		C int       `json:"c,omitempty"`
	}
	r := ref{v.n, v.tm, v.str, 0}
	for _, indent := range []string{"", "  "} {
		want, _ := json.Marshal(r)
		if indent != "" {
			want, _ = json.MarshalIndent(r, "", indent)
		}
		got := AppendObject(nil, &v, readerFields[:], indent)
		if string(got) != string(want) {
			t.Errorf("indent %q:\n got %s\nwant %s", indent, got, want)
		}
		var back readers
		if err := DecodeFields(got, &back, readerFields[:]); err != nil || back.n != v.n || !back.tm.Equal(v.tm) || back.str != v.str {
			t.Errorf("read back %+v, %v", back, err)
		}
	}
	if got := string(AppendObject(nil, &readers{}, readerFields[3:4], "")); got != "{}" {
		t.Errorf("all left out: %s", got)
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

// FuzzStringValue: one string token decodes as encoding/json decodes it, and is refused where
// encoding/json refuses it.
func FuzzStringValue(f *testing.F) {
	for _, s := range []string{`"us\u0065r"`, `"a\"b"`, `"\ud83d\ude00\ud800"`, "\"\xff\"", `"\x"`, `"\u12"`, `"a" `, `"a"b"`, `x`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, tok []byte) {
		got, ok := StringValue(tok)
		var want string
		wantOK := len(tok) > 0 && tok[0] == '"' && bytes.Equal(tok, bytes.TrimSpace(tok)) && json.Unmarshal(tok, &want) == nil
		if ok != wantOK || got != want {
			t.Fatalf("StringValue(%q) = %q, %v; encoding/json %q, %v", tok, got, ok, want, wantOK)
		}
	})
}
