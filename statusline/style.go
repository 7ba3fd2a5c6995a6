package statusline

import (
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

// style is the name of a look; segments return text plus a style, and only the renderer turns
// a style into escape codes, through the profile's table below.
type style uint8

// The styles.
const (
	stylePlain style = iota // no escape codes
	styleDim                // secondary text: the unknown zone, the empty part of the gauge, "auto-compact off"
	styleSmart              // the smart zone (green)
	styleWarn               // the warn zone (yellow), a near auto-compact point, problems
	styleDumb               // the dumb zone (bold red), an imminent or due auto-compact
	styleHint               // the pending /compact-prep checkpoint hint (bold yellow)
	numStyles
)

var styleNames = [numStyles]string{"plain", "dim", "smart", "warn", "dumb", "hint"}

// String returns the style's name.
func (s style) String() string {
	if s < numStyles {
		return styleNames[s]
	}
	return "plain"
}

// sgrReset ends every styled run.
const sgrReset = "\x1b[0m"

// The SGR opening sequences per profile and style. With 16 colours the zones are exactly SGR
// 32/33/1;31 (green, yellow, bold red); 256 colours and truecolor use softer tones of the same
// hues. Ascii has no entry: it prints no escape code at all.
var (
	sgrANSI = [numStyles]string{
		styleDim:   "\x1b[2m",
		styleSmart: "\x1b[32m",
		styleWarn:  "\x1b[33m",
		styleDumb:  "\x1b[1;31m",
		styleHint:  "\x1b[1;33m",
	}
	sgrANSI256 = [numStyles]string{
		styleDim:   "\x1b[2m",
		styleSmart: "\x1b[38;5;114m",   // #87d787
		styleWarn:  "\x1b[38;5;221m",   // #ffd75f
		styleDumb:  "\x1b[1;38;5;203m", // #ff5f5f
		styleHint:  "\x1b[1;38;5;221m",
	}
	// The truecolor values are chosen so that Claude Code's re-rendering keeps each hue: in a
	// 256-colour pane it rounds each channel to the 6-level cube (round(c/255×5)), in a
	// 16-colour one it keeps the channels at level 3 or more (TestColoursSurviveClaudeCode).
	// #f0463c lands on 203 (#ff5f5f) and bright red, #7ed076 on 114 (#87d787) and green,
	// #f1c84a on 221 (#ffd75f) and bright yellow: the 256 table's own colours. (The first
	// values, #f0625a and #7ed383, came out salmon 210 and mint 115, cyan at 16 colours.)
	sgrTrueColor = [numStyles]string{
		styleDim:   "\x1b[2m",
		styleSmart: "\x1b[38;2;126;208;118m", // #7ed076
		styleWarn:  "\x1b[38;2;241;200;74m",  // #f1c84a
		styleDumb:  "\x1b[1;38;2;240;70;60m", // #f0463c
		styleHint:  "\x1b[1;38;2;241;200;74m",
	}
)

// sgrTable returns the opening sequences for profile p, or nil for Ascii (no colour).
func sgrTable(p termcolor.Profile) *[numStyles]string {
	switch p {
	case termcolor.TrueColor:
		return &sgrTrueColor
	case termcolor.ANSI256:
		return &sgrANSI256
	case termcolor.ANSI:
		return &sgrANSI
	}
	return nil
}

// PaintZone returns text in zone z's colour for profile p, exactly as the statusline colours
// the zone (the sessions table shows its zones with it): unchanged for Ascii.
func PaintZone(p termcolor.Profile, z zones.Zone, text string) string {
	t := sgrTable(p)
	if t == nil {
		return text
	}
	open := t[zoneStyle(z)]
	if open == "" {
		return text
	}
	return open + text + sgrReset
}
