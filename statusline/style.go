package statusline

import (
	"strings"

	"github.com/muesli/termenv"
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
	sgrTrueColor = [numStyles]string{
		styleDim:   "\x1b[2m",
		styleSmart: "\x1b[38;2;126;211;131m", // #7ed383
		styleWarn:  "\x1b[38;2;241;200;90m",  // #f1c85a
		styleDumb:  "\x1b[1;38;2;240;98;90m", // #f0625a
		styleHint:  "\x1b[1;38;2;241;200;90m",
	}
)

// sgrTable returns the opening sequences for profile p, or nil for Ascii (no colour).
func sgrTable(p termenv.Profile) *[numStyles]string {
	switch p {
	case termenv.TrueColor:
		return &sgrTrueColor
	case termenv.ANSI256:
		return &sgrANSI256
	case termenv.ANSI:
		return &sgrANSI
	}
	return nil
}

// ProfileFor returns the colour profile for the config's color setting: "none" (Ascii, no
// escape codes), "16" (ANSI), "256" (ANSI256), "truecolor" (or "24bit"), or "auto" (also "" and
// anything else), which reads the environment through getenv as if stdout were a terminal (it
// never is under Claude Code, which renders the colours itself), in this order:
//
//   - NO_COLOR non-empty: Ascii.
//   - FORCE_COLOR non-empty: "0"/"false" Ascii, "2" ANSI256, "3" TrueColor, else ANSI.
//   - COLORTERM "truecolor" or "24bit": TrueColor.
//   - TERM: "*-direct", "*truecolor*", "*24bit*" and the truecolor terminals (kitty, wezterm,
//     alacritty, ghostty, foot, contour, rio) TrueColor; "*256color*" ANSI256; empty, "dumb",
//     "linux", "vt100", "vt220", "ansi" ANSI; any other ANSI256.
//
// It never queries the terminal.
func ProfileFor(setting string, getenv func(string) string) termenv.Profile {
	switch strings.ToLower(strings.TrimSpace(setting)) {
	case "none", "off", "no", "false":
		return termenv.Ascii
	case "16", "ansi":
		return termenv.ANSI
	case "256", "ansi256":
		return termenv.ANSI256
	case "truecolor", "24bit":
		return termenv.TrueColor
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if getenv("NO_COLOR") != "" {
		return termenv.Ascii
	}
	switch strings.ToLower(strings.TrimSpace(getenv("FORCE_COLOR"))) {
	case "":
	case "0", "false":
		return termenv.Ascii
	case "2":
		return termenv.ANSI256
	case "3":
		return termenv.TrueColor
	default: // "1", "true", anything else
		return termenv.ANSI
	}
	switch strings.ToLower(strings.TrimSpace(getenv("COLORTERM"))) {
	case "truecolor", "24bit":
		return termenv.TrueColor
	}
	term := strings.ToLower(strings.TrimSpace(getenv("TERM")))
	switch {
	case strings.HasSuffix(term, "-direct"), strings.Contains(term, "truecolor"), strings.Contains(term, "24bit"):
		return termenv.TrueColor
	case strings.Contains(term, "256color"):
		return termenv.ANSI256
	}
	switch term {
	case "xterm-kitty", "kitty", "wezterm", "alacritty", "xterm-ghostty", "ghostty", "foot", "foot-extra", "contour", "rio":
		return termenv.TrueColor
	case "", "dumb", "linux", "vt100", "vt220", "ansi":
		return termenv.ANSI
	}
	return termenv.ANSI256
}
