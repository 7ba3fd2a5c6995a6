package checkpoint

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to the checkpoint parser and verifier. Neither may panic; every
// line number they report lies inside the text; sections come in line order; Verify's problems
// are sorted by line; and a text Parse returns unchanged is kept word for word.
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile("testdata/good.md"); err == nil {
		f.Add(string(b), 0)
		f.Add(strings.ReplaceAll(string(b), "\n", "\r\n"), 50)
		f.Add(string(b[:len(b)/2]), 100)
	}
	f.Add(Template(Header{Session: goodSession, Model: "m", Cwd: "/x", Compactions: 1}), 10)
	f.Add("# zoneline checkpoint\nsession: ../../etc\ncompactions: -99999999999999999999\ntime: yesterday\n## External state\n| a | b |\n|---|\n| `x | y` | \\| |\n", 1)
	f.Add("```\n## Goal\n```\n## Goal\n## Goal\n", -1)
	f.Add("\x00\xff\xfe## \n|\n| | | | | | | | |", 3)
	f.Fuzz(func(t *testing.T, text string, budget int) {
		c := Parse(text)
		if c.Text != text {
			t.Fatal("Text changed")
		}
		lines := strings.Count(text, "\n") + 1
		in := func(what string, n int, zeroOK bool) {
			if n < 0 || n > lines || (n == 0 && !zeroOK) {
				t.Fatalf("%s at line %d of %d", what, n, lines)
			}
		}
		in("title", c.TitleLine, true)
		in("table", c.TableLine, true)
		prev := 0
		for _, s := range c.Sections {
			in("section "+s.Name, s.Line, false)
			in("section body "+s.Name, s.BodyLine, false)
			if s.Line <= prev || s.BodyLine < s.Line {
				t.Fatalf("section %q at %d (body %d) after %d", s.Name, s.Line, s.BodyLine, prev)
			}
			prev = s.Line
		}
		for _, r := range c.External {
			in("row", r.Line, false)
		}
		for k, n := range c.Header.Line {
			in("header "+k, n, false)
		}
		ps := Verify(c, VerifyOptions{Budget: budget % 20000, Session: goodSession})
		for i, p := range ps {
			in("problem "+p.Msg, p.Line, true)
			if i > 0 && ps[i-1].Line > p.Line {
				t.Fatalf("problems out of order: %v", ps)
			}
		}
	})
}
