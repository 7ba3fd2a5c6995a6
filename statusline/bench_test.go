package statusline

import (
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// BenchmarkRender renders the default line of a dumb 200k view as the statusline does: pane
// width 198 (COLUMNS 200 minus Claude Code's indent), 256 colours. Allocations (go1.26,
// linux/amd64): 6 per render (3.2 kB): the render state, the four formatted numbers (tokens,
// percent, distance to compact, compactions) and the output buffer; the same with or without
// fitting. About 3–6 µs, noise against a process start of ~1 ms.
func BenchmarkRender(b *testing.B) {
	v := fitView()
	cases := []struct {
		name string
		o    Options
	}{
		{"unicode", Options{Profile: termcolor.ANSI256, Width: 198}},
		{"ascii", Options{Profile: termcolor.Ascii, Glyphs: "ascii", Width: 198}},
		{"unicode-nofit", Options{Profile: termcolor.ANSI256}},
		{"unicode-fit60", Options{Profile: termcolor.ANSI256, Width: 60}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Render(v, c.o)
			}
		})
	}
}

// BenchmarkWidth measures a coloured default line: fixed glyphs and ASCII, no uniseg.
func BenchmarkWidth(b *testing.B) {
	line := Render(fitView(), Options{Profile: termcolor.TrueColor})
	b.ReportAllocs()
	for b.Loop() {
		Width(line, false)
	}
}
