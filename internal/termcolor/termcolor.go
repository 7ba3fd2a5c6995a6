// Package termcolor decides the colour profile once, at the edge, and paints text with SGR
// escape codes for it. It replaces termenv on zoneline's paths: termenv imports text/template,
// and through it net/url and net/netip, whose package inits ran in every zoneline process and
// cost the statusline about a tenth of its time (bench/, BenchmarkStartup). termenv stays the
// oracle: the tests check that Paint writes what termenv writes.
package termcolor

import "strings"

// Profile is a colour profile, from none to 24-bit colour.
type Profile uint8

// The profiles.
const (
	Ascii     Profile = iota // no escape codes at all
	ANSI                     // the 16 basic colours
	ANSI256                  // the xterm 256-colour palette
	TrueColor                // 24-bit colour
)

var profileNames = [...]string{"none", "16", "256", "truecolor"}

// String returns the profile's config name: none, 16, 256 or truecolor.
func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return "none"
}

// For returns the colour profile for the config's color setting: "none" (Ascii, no escape
// codes), "16" (ANSI), "256" (ANSI256), "truecolor" (or "24bit"), or "auto" (also "" and
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
func For(setting string, getenv func(string) string) Profile {
	switch strings.ToLower(strings.TrimSpace(setting)) {
	case "none", "off", "no", "false":
		return Ascii
	case "16", "ansi":
		return ANSI
	case "256", "ansi256":
		return ANSI256
	case "truecolor", "24bit":
		return TrueColor
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if getenv("NO_COLOR") != "" {
		return Ascii
	}
	switch strings.ToLower(strings.TrimSpace(getenv("FORCE_COLOR"))) {
	case "":
	case "0", "false":
		return Ascii
	case "2":
		return ANSI256
	case "3":
		return TrueColor
	default: // "1", "true", anything else
		return ANSI
	}
	switch strings.ToLower(strings.TrimSpace(getenv("COLORTERM"))) {
	case "truecolor", "24bit":
		return TrueColor
	}
	term := strings.ToLower(strings.TrimSpace(getenv("TERM")))
	switch {
	case strings.HasSuffix(term, "-direct"), strings.Contains(term, "truecolor"), strings.Contains(term, "24bit"):
		return TrueColor
	case strings.Contains(term, "256color"):
		return ANSI256
	}
	switch term {
	case "xterm-kitty", "kitty", "wezterm", "alacritty", "xterm-ghostty", "ghostty", "foot", "foot-extra", "contour", "rio":
		return TrueColor
	case "", "dumb", "linux", "vt100", "vt220", "ansi":
		return ANSI
	}
	return ANSI256
}

// SGR parameters for Paint: attributes and the basic foreground colours, which every colour
// profile shows as they are.
const (
	Bold    = "1"
	Faint   = "2"
	Red     = "31"
	Green   = "32"
	Yellow  = "33"
	Magenta = "35"
)

// Paint returns s between the SGR sequence of params (joined by ';') and a reset, or s
// unchanged when p is Ascii or there are no params.
func (p Profile) Paint(s string, params ...string) string {
	if p == Ascii || len(params) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8 + 4*len(params))
	b.WriteString("\x1b[")
	for i, c := range params {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(c)
	}
	b.WriteByte('m')
	b.WriteString(s)
	b.WriteString("\x1b[0m")
	return b.String()
}
