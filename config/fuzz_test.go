package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the config parser. It must never panic; problems come as a
// non-empty Errors in line order whose every entry names the file and a line inside it (or 0),
// with no raw control character; and whatever was kept, from a valid or a broken file, is a valid
// config that survives Show → Parse unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(Template))
	f.Add([]byte("color = \"auto\"\ncolour = \"none\"\n"))
	f.Add([]byte("[statusline]\nlines = [[\"zone\", \"nope\"]]\n"))
	f.Add([]byte("[[model]]\nmatch = \"[\"\n"))
	f.Add([]byte("[[model]]\nmatch = \"x*\"\nwarn = 200\ndumb = 100\n"))
	f.Add([]byte("[warning]\nprep = \"soon\"\n"))
	f.Add([]byte("[state]\ngc_days = -1\n"))
	f.Add([]byte("\x00\x01\xff\xfe"))
	f.Add([]byte("a = 1e308\nb = -9223372036854775808\n[statusline]\nbar_width = 99999999999999999999\n"))
	f.Add([]byte("x = \"\\ud800\"\n[a.b.c.d.e.f]\n"))
	f.Add([]byte("[notify]\nurgency = \"low\"\n[warning\ntiers = [\"dumb\"]\n"))
	f.Add([]byte("statusline = { bar_width = 7 }\nmodel = [{match = \"x*\", warn = 5}]\ncolor = 256\ncolor = \"none\"\n"))
	f.Add([]byte("[t1]\nx=1\n[t2]\nx=1\n[[model]]\nmatch = \"a\"\n[model]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("config.toml", data)
		if c == nil {
			t.Fatal("nil config")
		}
		lines := strings.Count(string(data), "\n") + 1
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error is not a non-empty Errors: %T %v", err, err)
			}
			for i, e := range es {
				if e.File != "config.toml" || e.Line < 0 || e.Line > lines || e.Col < 0 {
					t.Fatalf("error %q: file %q line %d col %d of %d lines", e.Msg, e.File, e.Line, e.Col, lines)
				}
				if i > 0 && (e.Line < es[i-1].Line || e.Line == es[i-1].Line && e.Col < es[i-1].Col) {
					t.Fatalf("problems out of line order: %v before %v", es[i-1], e)
				}
				if strings.ContainsAny(e.Msg, "\x1b\n\r") {
					t.Fatalf("raw control character in %q", e.Msg)
				}
				_ = e.Short()
			}
		}
		// Whatever was kept, valid or not, is a valid config: it survives encode -> Parse unchanged.
		out := every(c)
		back, err := Parse("shown.toml", out)
		if err != nil {
			t.Fatalf("the encoder's output does not parse: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("Show -> Parse differs:\n%#v\n%#v\n%s", back, c, out)
		}
	})
}
