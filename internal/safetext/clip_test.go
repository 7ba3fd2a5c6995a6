package safetext

import "testing"

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"plain text", 0, "plain text"},
		{"a\x1b[31mred\x1b[0m", 0, "a[31mred[0m"},
		{"osc \x1b]0;title\x07 end", 0, "osc ]0;title end"},
		{"bidi \u202egnp.exe\u202c", 0, "bidi gnp.exe"},
		{"line\nbreak\r\n\ttab", 0, "line break tab"},
		{"  trim  ", 0, "trim"},
		{"bad \xff utf8", 0, "bad \ufffd utf8"},
		{"abcdef", 3, "abc…"},
		{"ünïcödé", 4, "ünïc…"},
		{"abc", 3, "abc"},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestCut: Cut counts the ellipsis in its n runes and cleans nothing (pipeline's Truncate was
// the same).
func TestCut(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abcdef", 3, "ab…"},
		{"ünïcödé", 4, "ünï…"},
		{"abc", 3, "abc"},
		{"a\tb c d", 4, "a\tb…"},
		{"abc", 0, "abc"},
		{"abc", 1, "…"},
	}
	for _, tt := range tests {
		if got := Cut(tt.in, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestCutBytes(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"abc", 3, "abc", false},
		{"abc", 5, "abc", false},
		{"abcd", 3, "abc", true},
		{"ab€", 3, "ab", true}, // € is 3 bytes: never half a rune
		{"ab€", 4, "ab", true},
		{"ab€", 5, "ab€", false},
		{"€", 2, "", true},
		{"abc", 0, "", true},
		{"", 0, "", false},
		{"abc", -1, "", true},
	} {
		if got, cut := CutBytes(c.s, c.n); got != c.want || cut != c.cut {
			t.Errorf("CutBytes(%q, %d) = %q, %v; want %q, %v", c.s, c.n, got, cut, c.want, c.cut)
		}
	}
}
