package statusline

import "testing"

// TestPassthrough: only colours (SGR) and OSC 8 hyperlinks of another program's line pass;
// every other escape sequence is dropped whole (DCS, SOS, PM, APC with their bodies), and a
// line leaving a link open or colours set ends with both closed.
func TestPassthrough(t *testing.T) {
	const close = "\x1b]8;;\x1b\\"
	for _, tt := range []struct{ name, in, want string }{
		{"plain", "plain", "plain"},
		{"sgr reset", "\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m"},
		{"sgr short reset", "\x1b[1;38;5;208mb\x1b[m", "\x1b[1;38;5;208mb\x1b[m"},
		{"sgr colon", "\x1b[38:2::1:2:3mx\x1b[0m", "\x1b[38:2::1:2:3mx\x1b[0m"},
		{"link closed", "\x1b]8;;http://x\x1b\\l\x1b]8;;\x07", "\x1b]8;;http://x\x1b\\l\x1b]8;;\x07"},
		{"link with id", "\x1b]8;id=1;http://x\x07l\x1b]8;;\x07", "\x1b]8;id=1;http://x\x07l\x1b]8;;\x07"},
		{"clear screen", "a\x1b[2Jb", "ab"},
		{"cursor home", "a\x1b[Hb", "ab"},
		{"cursor up", "a\x1b[5Ab", "ab"},
		{"device status", "a\x1b[6nb", "ab"},
		{"alt screen", "a\x1b[?1049hb", "ab"},
		{"private sgr-like", "a\x1b[?1mb", "ab"},
		{"intermediate sgr-like", "a\x1b[1 mb", "ab"},
		{"reset terminal", "a\x1bcb", "ab"},
		{"save cursor", "a\x1b7b", "ab"},
		{"charset", "a\x1b(0qqqb", "aqqqb"},
		{"charset G1", "a\x1b)Bb", "ab"},
		{"osc 52 clipboard", "a\x1b]52;c;ZXZpbA==\x07b", "ab"},
		{"osc 0 title", "a\x1b]0;pwned title\x07b", "ab"},
		{"osc 2 title st", "a\x1b]2;pwned\x1b\\b", "ab"},
		{"osc 8 malformed", "a\x1b]8;http://x\x07b", "ab"},
		{"dcs", "a\x1bP+q544e\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"sos", "a\x1bXhidden\x1b\\b", "ab"},
		{"pm", "a\x1b^hidden\x1b\\b", "ab"},
		{"dcs unterminated", "a\x1bPhidden to the end", "a"},
		{"reviewer probe", "\x1b[2J\x1b[H\x1bc\x1b(0qqq\x1b[6n\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned title\x07\x1b[?1049h\x1b[5A\x1bP+q544e\x1b\\ \x1b_Gf=100;AAAA\x1b\\ end", "qqq  end"},
		{"controls", "a\x00b\x07c\rd\x08e", "abcde"},
		{"tab", "tab\there", "tab here"},
		{"cut csi", "cut \x1b[3", "cut "},
		{"cut osc", "cut \x1b]8;;http", "cut "},
		{"lone esc", "lone \x1b", "lone "},
		{"bad utf-8", "bad \xff utf", "bad \uFFFD utf"},
		{"bidi", "bidi \u202e x", "bidi  x"},
		{"csi broken by nul", "\x1b[1;\x00m", "m"},
		// What is left open at the line's end is closed there.
		{"unreset sgr", "\x1b[41;1mred", "\x1b[41;1mred\x1b[0m"},
		{"sgr reset then set", "\x1b[0m\x1b[31mx", "\x1b[0m\x1b[31mx\x1b[0m"},
		{"open link", "\x1b]8;;https://example.com\x1b\\open link never closed", "\x1b]8;;https://example.com\x1b\\open link never closed" + close},
		{"open link and colour", "\x1b[31m\x1b]8;;https://e\x07x", "\x1b[31m\x1b]8;;https://e\x07x" + close + "\x1b[0m"},
		// A kept link's parameters and URI are printable ASCII: C1 controls (as UTF-8 or raw),
		// bidi overrides and spaces drop the link, never its text (issue 22, item 3).
		{"c1 osc 52 in uri", "\x1b]8;;https://z/ \u009d52;c;ZXZpbA==\u009c\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"c1 osc in uri, no space", "\x1b]8;;https://z/\u009d52;c;ZXZpbA==\u009c\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"c1 csi in uri", "\x1b]8;;https://z/\u009b2J\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"raw st in uri", "\x1b]8;;https://z/\x9c\x1b]52;c;ZXZpbA==\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"raw csi in uri", "\x1b]8;;https://z/\x9b2J\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"bidi in uri", "\x1b]8;;https://z/\u202egnp.exe\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"c1 in params", "\x1b]8;id=\u009d1;https://z/\x07link\x1b]8;;\x07", "link\x1b]8;;\x07"},
		{"space in params", "\x1b]8;id=a b;https://z/\x1b\\link\x1b]8;;\x1b\\", "link\x1b]8;;\x1b\\"},
		{"ascii uri kept", "\x1b]8;id=x:y=1;https://z/a?b=c&d=%E2%82%AC#f\x07link\x1b]8;;\x07", "\x1b]8;id=x:y=1;https://z/a?b=c&d=%E2%82%AC#f\x07link\x1b]8;;\x07"},
		{"open link dropped junk", "\x1b]8;;https://e\x07x\x1b[2J", "\x1b]8;;https://e\x07x" + close},
	} {
		if got := Passthrough(tt.in); got != tt.want {
			t.Errorf("%s: Passthrough(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
		if got := Passthrough(Passthrough(tt.in)); got != Passthrough(tt.in) {
			t.Errorf("%s: not idempotent: %q", tt.name, got)
		}
	}
}
