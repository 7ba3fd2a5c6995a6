package statusline

import (
	"strings"
	"sync"

	"github.com/zoneline/zoneline/zones"
)

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

	// Built by newGlyphs from the fields above, so rendering them allocates nothing.
	zoneText  [4]string // by zones.Zone: "○ --", "● SMART", "● WARN", "● DUMB"
	hintText  string    // "⚑ /compact-prep"
	readyText string    // "⚑ /compact": the checkpoint is written, compact now
}

func newGlyphs(g glyphs) *glyphs {
	g.fullRun = strings.Repeat(g.full, MaxBarWidth)
	g.emptyRun = strings.Repeat(g.empty, MaxBarWidth)
	g.zoneText = [4]string{
		zones.Unknown: g.unknown + " " + g.noZone,
		zones.Smart:   g.zone + " SMART",
		zones.Warn:    g.zone + " WARN",
		zones.Dumb:    g.zone + " DUMB",
	}
	g.hintText = g.hint + "/compact-prep"
	g.readyText = g.hint + "/compact"
	return &g
}

// The glyph sets by name (Options.Glyphs), as written: glyphSet builds the one a render uses on
// first use (building all three at init cost every process, whichever command it ran). The
// unicode set is the default. Every non-ASCII rune used here has its width in glyphWidth, so
// the hot path never asks go-runewidth.
const (
	setUnicode = iota
	setASCII
	setNerd
	numSets
)

var (
	glyphSpecs = [numSets]glyphs{
		setUnicode: {
			zone: "●", unknown: "○", noZone: "--",
			full: "▰", empty: "▱",
			branch: "⎇ ", compactions: "↻", problem: "⚠ ", problemSep: "; ",
			hint: "⚑ ", approx: "~", sep: " · ", ellipsis: "…",
		},
		setASCII: {
			zone: "*", unknown: "o", noZone: "--",
			full: "#", empty: "-",
			branch: "git:", compactions: "c", problem: "! ", problemSep: "; ",
			hint: "> ", approx: "~", sep: " | ", ellipsis: "...",
		},
		setNerd: {
			zone: "●", unknown: "○", noZone: "--",
			full: "▰", empty: "▱",
			branch: "\ue0a0 ", compactions: "\uf021 ", problem: "\uf071 ", problemSep: "; ",
			hint: "\uf024 ", approx: "~", sep: " · ", ellipsis: "…",
		},
	}
	glyphOnce  [numSets]sync.Once
	glyphBuilt [numSets]*glyphs
)

// glyphSet returns the glyph set named name: "ascii", "nerd", or else unicode.
func glyphSet(name string) *glyphs {
	i := setUnicode
	switch name {
	case "ascii":
		i = setASCII
	case "nerd":
		i = setNerd
	}
	glyphOnce[i].Do(func() { glyphBuilt[i] = newGlyphs(glyphSpecs[i]) })
	return glyphBuilt[i]
}

// separatorGlyphs are common separator runes (Options.Separator) that glyphWidth also knows,
// so a custom separator like " │ " keeps the render off go-runewidth too.
const separatorGlyphs = "│┃❯›»•—◆"

// glyphWidth returns the display width of one of the fixed glyphs or separatorGlyphs, as
// go-runewidth v0.0.31 measures it (TestGlyphWidthsMatchRunewidth keeps them equal), without
// touching go-runewidth: its first lookup of a rune ≥ U+0300 builds a 2.2 MB table (+1.4 ms
// per process). ok is false for any other rune.
func glyphWidth(r rune, eastAsian bool) (w int, ok bool) {
	switch r {
	case '●', '○', '…', '·', '│', '┃', '•', '—', '◆', // East-Asian ambiguous
		'\ue0a0', '\uf021', '\uf071', '\uf024': // private use (nerd font): ambiguous
		if eastAsian {
			return 2, true
		}
		return 1, true
	case '▰', '▱', '⎇', '↻', '⚠', '⚑', '❯', '›', '»':
		return 1, true
	}
	return 0, false
}
