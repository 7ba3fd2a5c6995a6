package statusline

import "github.com/zoneline/zoneline/internal/termcolor"

// Options are decided once, at the edge (cli), from the config and the environment.
type Options struct {
	Profile   termcolor.Profile // colour profile: termcolor.TrueColor, ANSI256, ANSI or Ascii (none)
	Glyphs    string            // "unicode" (default), "ascii" or "nerd"
	Lines     [][]string        // segment names per output line; nil means DefaultLines
	Separator string            // between segments; "" means the glyph set's default (" · ")
	Width     int               // columns available (COLUMNS − Claude Code's indent); <= 0: no fitting
	EastAsian bool              // treat East-Asian ambiguous-width runes as wide
	BarWidth  int               // cells in the gauge bar; 0 means 10
}
