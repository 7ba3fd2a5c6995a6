package safetext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile holds every kind of unsafe rune, each between two letters.
var hostile = []struct{ name, in string }{
	{"csi", "a\x1b[2Jb"},
	{"osc title", "a\x1b]0;pwned\x07b"},
	{"osc 52 clipboard", "a\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07b"},
	{"cr overwrite", "safe\rEVIL"},
	{"backspace", "a\bb"},
	{"nul", "a\x00b"},
	{"del", "a\x7fb"},
	{"c1 csi", "a\u009b2Jb"},
	{"c1 nel", "a\u0085b"},
	{"c1 osc", "a\u009d0;x\u009cb"},
	{"rlo", "a\u202eb"},
	{"lre pdf", "a\u202ab\u202cc"},
	{"isolates", "a\u2066b\u2067c\u2068d\u2069e"},
	{"line separator", "a\u2028b\u2029c"},
	{"invalid utf-8", "a\xff\xfeb"},
	{"utf-8 encoded c1 split", "a\xc2\x9bb"},
	{"tag characters", "a\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065b"},
	{"zero width", "a\u200bb\u200cc\u200dd\u2060e\ufefff"},
	{"lrm rlm alm", "a\u200eb\u200fc\u061cd"},
	{"zwj after an emoji only", "\U0001F468\u200db"},
}

func TestUnsafe(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x2028 || r == 0x2029 ||
			(r >= 0x200b && r <= 0x200f) || r == 0x2060 || r == 0x061c
		if Unsafe(r) != want {
			t.Errorf("Unsafe(%U) = %v", r, !want)
		}
	}
}

// TestUnsafeInvisible: the tag block and the BOM, above the range TestUnsafe walks.
func TestUnsafeInvisible(t *testing.T) {
	for _, r := range []rune{0xe0000, 0xe0001, 0xe0041, 0xe007f, 0xfeff} {
		if !Unsafe(r) {
			t.Errorf("Unsafe(%U) = false", r)
		}
	}
	for _, r := range []rune{0xe0080, 0xfe0f, 0x1f468, 0x200a, 0x2061 - 1 + 2} {
		if Unsafe(r) {
			t.Errorf("Unsafe(%U) = true", r)
		}
	}
}

// TestEmojiZWJ: a zero-width joiner between two emoji is kept by Line, Text and Escape (the
// statusline measures the sequence as one cluster); a ZWJ anywhere else is unsafe.
func TestEmojiZWJ(t *testing.T) {
	for _, in := range []string{"\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F441\ufe0f\u200d\U0001F5E8\ufe0f", "fix-\U0001F9D1\u200d\U0001F4BB"} {
		for name, f := range map[string]func(string) string{"Line": Line, "Text": Text, "Escape": Escape} {
			if got := f(in); got != in {
				t.Errorf("%s(%q) = %q: the emoji sequence was broken", name, in, got)
			}
		}
	}
	for _, in := range []string{"pass\u200dword", "\u200da", "a\u200d", "\U0001F468\u200d", "\u200d\U0001F468"} {
		if got := Line(in); strings.ContainsRune(got, 0x200d) {
			t.Errorf("Line(%q) = %q keeps the ZWJ", in, got)
		}
	}
}

// noUnsafe fails when out holds an unsafe rune other than those allowed, or invalid UTF-8.
func noUnsafe(t *testing.T, what, in, out string, allow ...rune) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s(%q) = %q: invalid UTF-8", what, in, out)
	}
	for _, r := range out {
		if Unsafe(r) && !strings.ContainsRune(string(allow), r) {
			t.Errorf("%s(%q) = %q keeps %U", what, in, out, r)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"Ópus 日本 ⎇", "Ópus 日本 ⎇"},
		{"a\x1b[31mb", "a[31mb"},
		{"a\nb\tc\r", "a b c "},
		{"a\u0085b\u009bc", "abc"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"rtl\u202eevil", "rtlevil"},
		{"a\u2028b", "a b"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, h := range hostile {
		noUnsafe(t, "Line", h.in, Line(h.in))
	}
	if n := testing.AllocsPerRun(100, func() { _ = Line("Opus 5.5 ⎇ 日本") }); n != 0 {
		t.Errorf("Line of clean text allocates %v times", n)
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"two\n\tlines", "two\n\tlines"},
		{"key = \"\x1b[2J\"", "key = \"␛[2J\""},
		{"cr\r\nlf", "cr␍\nlf"},
		{"del\x7f", "del␡"},
		{"c1\u009b", "c1\uFFFD"},
		{"bidi\u202e\u2066", "bidi\uFFFD\uFFFD"},
		{"bad\xff", "bad\uFFFD"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, h := range hostile {
		out := Text(h.in)
		noUnsafe(t, "Text", h.in, out, '\n', '\t')
		// one stand-in per rune: columns stay where they were
		if utf8.RuneCountInString(out) != utf8.RuneCountInString(strings.ToValidUTF8(h.in, "\uFFFD")) {
			t.Errorf("Text(%q) = %q changes the rune count", h.in, out)
		}
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\tand\nlines", "plain\tand\nlines"},
		{"esc\x1b[31mred\r\x00", `esc\x1b[31mred\x0d\x00`},
		{"c1\u0085\u009b", `c1\u0085\u009b`},
		{"bidi\u202e\u2069", `bidi\u202e\u2069`},
		{"sep\u2028", `sep\u2028`},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"日本", "日本"},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, h := range hostile {
		noUnsafe(t, "Escape", h.in, Escape(h.in), '\n', '\t')
	}
}

func TestJSON(t *testing.T) {
	for _, h := range hostile {
		v := map[string]string{"project": h.in, "plain": "日本 ⎇"}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out := JSON(b)
		noUnsafe(t, "JSON", h.in, string(out))
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("JSON(%s) = %s: %v", b, out, err)
		}
		var want map[string]string
		json.Unmarshal(b, &want)
		if back["project"] != want["project"] || back["plain"] != want["plain"] {
			t.Errorf("JSON(%s) decodes to %q, want %q", b, back, want)
		}
	}
	clean := []byte(`{"a":"日本"}`)
	if got := JSON(clean); &got[0] != &clean[0] {
		t.Error("JSON copied clean input")
	}
}
