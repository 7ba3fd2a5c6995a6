package statusline

import "github.com/zoneline/zoneline/zones"

// glyphs is one glyph set: every fixed string a segment or the renderer prints.
type glyphs struct {
	zone, unknown string // zone glyph before the zone word; the glyph before "--" (no zone yet)
	noZone        string // the word shown for zones.Unknown
	full, empty   string // one gauge cell, filled and empty
	fullRun       string // full repeated MaxBarWidth times: the bar is a slice of it
	emptyRun      string
	branch        string // prefix of the branch name
	compactions   string // prefix of the compaction count
	problem       string // prefix of the problems segment
	problemSep    string // between problems
	hint          string // prefix of the checkpoint hint after the zone word
	approx        string // prefix of an estimated distance to compact
	sep           string // default separator between segments
	ellipsis      string // tail of truncated text

	// Derived from the fields above (written out, so rendering them allocates nothing).
	zoneText  [4]string // by zones.Zone: "○ --", "● SMART", "● WARN", "● DUMB"
	hintText  string    // "⚑ /compact-prep"
	readyText string    // "⚑ /compact": the checkpoint is written, compact now
}

// The glyph sets by name (Options.Glyphs), every field a constant, so that nothing is built at
// run time (TestGlyphSetsBuilt checks the derived fields against the fields they come from).
// The unicode set is the default. Every non-ASCII rune used here has its width in glyphWidth,
// so the hot path never asks uniseg.
const (
	setUnicode = iota
	setASCII
	setNerd
	numSets
)

// Ten gauge cells; runs of MaxBarWidth (40) are four of them.
const (
	fullCellsU  = "▰▰▰▰▰▰▰▰▰▰"
	emptyCellsU = "▱▱▱▱▱▱▱▱▱▱"
	fullCellsA  = "##########"
	emptyCellsA = "----------"
)

var glyphSets = [numSets]glyphs{
	setUnicode: {
		zone: "●", unknown: "○", noZone: "--",
		full: "▰", empty: "▱",
		fullRun:  fullCellsU + fullCellsU + fullCellsU + fullCellsU,
		emptyRun: emptyCellsU + emptyCellsU + emptyCellsU + emptyCellsU,
		branch:   "⎇ ", compactions: "↻", problem: "⚠ ", problemSep: "; ",
		hint: "⚑ ", approx: "~", sep: " · ", ellipsis: "…",
		zoneText: [4]string{zones.Unknown: "○ --", zones.Smart: "● SMART", zones.Warn: "● WARN", zones.Dumb: "● DUMB"},
		hintText: "⚑ /compact-prep", readyText: "⚑ /compact",
	},
	setASCII: {
		zone: "*", unknown: "o", noZone: "--",
		full: "#", empty: "-",
		fullRun:  fullCellsA + fullCellsA + fullCellsA + fullCellsA,
		emptyRun: emptyCellsA + emptyCellsA + emptyCellsA + emptyCellsA,
		branch:   "git:", compactions: "c", problem: "! ", problemSep: "; ",
		hint: "> ", approx: "~", sep: " | ", ellipsis: "...",
		zoneText: [4]string{zones.Unknown: "o --", zones.Smart: "* SMART", zones.Warn: "* WARN", zones.Dumb: "* DUMB"},
		hintText: "> /compact-prep", readyText: "> /compact",
	},
	setNerd: {
		zone: "●", unknown: "○", noZone: "--",
		full: "▰", empty: "▱",
		fullRun:  fullCellsU + fullCellsU + fullCellsU + fullCellsU,
		emptyRun: emptyCellsU + emptyCellsU + emptyCellsU + emptyCellsU,
		branch:   "\ue0a0 ", compactions: "\uf021 ", problem: "\uf071 ", problemSep: "; ",
		hint: "\uf024 ", approx: "~", sep: " · ", ellipsis: "…",
		zoneText: [4]string{zones.Unknown: "○ --", zones.Smart: "● SMART", zones.Warn: "● WARN", zones.Dumb: "● DUMB"},
		hintText: "\uf024 /compact-prep", readyText: "\uf024 /compact",
	},
}

// glyphSet returns the glyph set named name: "ascii", "nerd", or else unicode.
func glyphSet(name string) *glyphs {
	switch name {
	case "ascii":
		return &glyphSets[setASCII]
	case "nerd":
		return &glyphSets[setNerd]
	}
	return &glyphSets[setUnicode]
}

// separatorGlyphs are common separator runes (Options.Separator) that glyphWidth also knows,
// so a custom separator like " │ " keeps the render off uniseg too.
const separatorGlyphs = "│┃❯›»•—◆"

// extraGlyphs are the non-ASCII marks the extra segments print (seg_place.go, seg_session.go).
const extraGlyphs = "↑↓−"

// glyphWidth returns the display width of one of the fixed glyphs or separatorGlyphs, as
// rivo/uniseg measures it (TestGlyphWidthsMatchUniseg keeps them equal), without a lookup in
// its tables. ok is false for any other rune.
func glyphWidth(r rune, eastAsian bool) (w int, ok bool) {
	switch r {
	case '●', '○', '…', '·', '│', '┃', '•', '—', '◆', // East-Asian ambiguous
		'↑', '↓', // the git segment's marks (extraGlyphs)
		'\ue0a0', '\uf021', '\uf071', '\uf024': // private use (nerd font): ambiguous
		if eastAsian {
			return 2, true
		}
		return 1, true
	case '▰', '▱', '⎇', '↻', '⚠', '⚑', '❯', '›', '»', '−':
		return 1, true
	}
	return 0, false
}

// DefaultSeparator returns the separator of the glyph set named name (Options.Separator "").
func DefaultSeparator(name string) string { return glyphSet(name).sep }
