package statusline

import (
	"strconv"
	"strings"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

// Face is a view as the Claude Code mod draws it on its row above the prompt: the same words and
// colours as the line (one source of truth), in pieces the mod lays out with the CLI's own
// elements.
type Face struct {
	Zone    string // "● DUMB", "○ --": the zone segment's text
	Color   string // the zone's colour as #rrggbb (the truecolor table's); "" for the dim unknown zone
	Bold    bool   // the zone is drawn bold (dumb)
	Tokens  string // "140k/200k": the tokens segment, plain
	Compact string // "27k to compact", "compact due", "auto-compact off": the compact segment, plain
	Warn    bool   // the compact distance is drawn in the warn colour
	Urgent  bool   // the compact distance is drawn in the dumb colour
	Step    string // "⚑ /compact-prep", "⚑ /compact": the pending step; "" for none
}

// zoneHex returns style st's colour as the mod's Text takes it (#rrggbb): the truecolor
// table's (style.go), read from it so the row and the line cannot drift apart; "" for a style
// with no colour (dim, plain).
func zoneHex(st style) string { return hexOf(sgrTrueColor[st]) }

// HintHex returns the pending step's colour (drawn bold): the hint style's.
func HintHex() string { return zoneHex(styleHint) }

// hexOf returns the colour of a truecolor SGR opening ("\x1b[1;38;2;240;70;60m") as #rrggbb,
// or "" when it sets none.
func hexOf(sgr string) string {
	i := strings.Index(sgr, "38;2;")
	if i < 0 {
		return ""
	}
	rgb := strings.Split(strings.TrimSuffix(sgr[i+len("38;2;"):], "m"), ";")
	if len(rgb) != 3 {
		return ""
	}
	const digits = "0123456789abcdef"
	h := []byte{'#'}
	for _, c := range rgb {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n > 255 {
			return ""
		}
		h = append(h, digits[n>>4], digits[n&15])
	}
	return string(h)
}

// FaceOf returns view v's face with glyph set name (Options.Glyphs).
func FaceOf(v View, set string) Face {
	v.Problems = nil // the mod shows problems apart; here they would stand in for an empty segment
	z := v.Zone
	if z < zones.Unknown || z > zones.Dumb {
		z = zones.Unknown
	}
	st := zoneStyle(z)
	f := Face{Color: zoneHex(st), Bold: st == styleDumb}
	plain := Options{Profile: termcolor.Ascii, Glyphs: set}
	plain.Lines = [][]string{{"zone"}}
	f.Zone = Render(v, plain)
	plain.Lines = [][]string{{"tokens"}}
	f.Tokens = Render(v, plain)
	plain.Lines = [][]string{{"compact"}}
	f.Compact = Render(v, plain)
	if c := (&ctx{v: &v, g: glyphSet(set)}); (compactSegment{}).enabled(c) {
		if spans := (compactSegment{}).render(c, nil); len(spans) > 0 {
			f.Warn, f.Urgent = spans[0].style == styleWarn, spans[0].style == styleDumb
		}
	}
	if v.Tier != "" {
		plain.Lines = [][]string{{"nudge"}}
		f.Step = Render(v, plain)
	}
	return f
}

// RowSegments are the segments of the mod's row above the prompt: the status line's zone,
// tokens, distance to compact, pending step and problems.
var RowSegments = [...]string{"zone", "tokens", "compact", "nudge", "problems"}

// RowPiece is one run of the mod's row, in the colours the mod's Text takes.
type RowPiece struct {
	Text  string
	Color string // #rrggbb; "" for the default colour
	Bold  bool
	Dim   bool
}

// Row returns the mod's row for view v with glyph set name: RowSegments rendered and fitted to
// width cells exactly as the status line is (the ⚠ shortens first, the zone, the tokens and
// the distance to compact stay), as pieces in the line's colours. width <= 0: no fitting.
func Row(v View, set string, width int) []RowPiece {
	ps := RenderPieces(v, Options{Glyphs: set, Lines: [][]string{RowSegments[:]}, Width: width})
	row := make([]RowPiece, 0, len(ps))
	for _, p := range ps {
		st := styleOf(p.Style)
		row = append(row, RowPiece{Text: p.Text, Color: zoneHex(st), Bold: st == styleDumb || st == styleHint, Dim: st == styleDim})
	}
	return row
}

// styleOf returns the style named name (plain for an unknown name).
func styleOf(name string) style {
	for i, n := range styleNames {
		if n == name {
			return style(i)
		}
	}
	return stylePlain
}
