package sanitize

import "testing"

func TestLine(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"plain text", 0, "plain text"},
		{"a\x1b[31mred\x1b[0m", 0, "a [31mred [0m"},
		{"osc \x1b]0;title\x07 end", 0, "osc ]0;title end"},
		{"c1 \u009b31m", 0, "c1 31m"},
		{"bidi \u202egnp.exe\u202c", 0, "bidi gnp.exe"},
		{"line\nbreak\r\n\ttab", 0, "line break tab"},
		{"  trim  ", 0, "trim"},
		{"bad \xff utf8", 0, "bad \ufffd utf8"},
		{"abcdef", 3, "abc…"},
		{"ünïcödé", 4, "ünïc…"},
	}
	for _, tt := range tests {
		if got := Line(tt.in, tt.max); got != tt.want {
			t.Errorf("Line(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestID(t *testing.T) {
	for in, want := range map[string]string{
		"bzk3p9":           "bzk3p9",
		"toolu_01AbC":      "toolu_01AbC",
		"../../etc/passwd": `"../../etc/passwd"`,
		"..":               `".."`,
		"a\x1b[2Jb":        `"a [2Jb"`,
		`q"uote`:           `"q'uote"`,
		"":                 `""`,
	} {
		if got := ID(in); got != want {
			t.Errorf("ID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	if got := Text("one\x1b[1m\r\ntwo\rthree"); got != "one [1m\ntwo\nthree" {
		t.Errorf("Text = %q", got)
	}
}
