package statusline

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

// dumbView is the example of the package doc: 142k of a 200k window, dumb zone.
func dumbView() View {
	return View{
		Zone: zones.Dumb, Tokens: 142_000, Window: 200_000,
		Compact:    zones.Compact{Enabled: true, Point: 167_000, Source: "default", Estimate: true},
		Thresholds: zones.Thresholds{Warn: 80_000, Dumb: 120_000},
		Model:      "Opus 5.5", Dir: "project", Branch: "main", Compactions: 2,
	}
}

var allProfiles = []struct {
	name string
	p    termcolor.Profile
}{{"none", termcolor.Ascii}, {"16", termcolor.ANSI}, {"256", termcolor.ANSI256}, {"truecolor", termcolor.TrueColor}}

var allGlyphs = []string{"unicode", "ascii", "nerd"}

// checkLine checks the invariants of one rendered line: width within limit (when > 0), every
// escape sequence a complete SGR, a reset at the end when coloured, valid UTF-8, no control
// character other than ESC.
func checkLine(t *testing.T, line string, limit int, eastAsian bool) {
	t.Helper()
	if limit > 0 {
		if w := Width(line, eastAsian); w > limit {
			t.Errorf("width %d > %d: %q", w, limit, line)
		}
	}
	if !utf8.ValidString(line) {
		t.Errorf("invalid UTF-8: %q", line)
	}
	if err := checkEscapes(line); err != "" {
		t.Errorf("%s: %q", err, line)
	}
	if strings.Contains(line, "\x1b") && !strings.HasSuffix(line, sgrReset) {
		t.Errorf("coloured line does not end with a reset: %q", line)
	}
}

// checkEscapes returns "" when every ESC in s starts a complete SGR sequence "ESC [ digits;… m"
// and s holds no other control character.
func checkEscapes(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0x1b {
			if i+1 >= len(s) || s[i+1] != '[' {
				return "ESC not followed by ["
			}
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				return "escape sequence not completed by m"
			}
			i = j
			continue
		}
		if c < 0x20 || c == 0x7f {
			return "control character in line"
		}
	}
	return ""
}

// checkZone checks the first line of a default-layout render at width: it starts with the
// whole zone ("● DUMB") whenever that fits, and is the zone's dot alone (the ASCII dot in a
// one-cell East-Asian pane) when it does not: the zone word is never cut, the line never blank.
func checkZone(t *testing.T, out string, z zones.Zone, g string, width int, ea bool) {
	t.Helper()
	if z < zones.Unknown || z > zones.Dumb {
		z = zones.Unknown
	}
	line, _, _ := strings.Cut(termcolor.Strip(out), "\n")
	whole := glyphSet(g).zoneText[z]
	dot, _, _ := strings.Cut(whole, " ")
	switch {
	case width <= 0 || Width(whole, ea) <= width:
		if !strings.HasPrefix(line, whole) {
			t.Errorf("width %d (%s, east-asian %v): %q lacks the whole zone %q", width, g, ea, line, whole)
		}
	case Width(dot, ea) <= width:
		if line != dot {
			t.Errorf("width %d (%s, east-asian %v): %q, want the zone's dot %q alone", width, g, ea, line, dot)
		}
	default:
		if line != asciiDot(dot) {
			t.Errorf("width %d (%s, east-asian %v): %q, want %q", width, g, ea, line, asciiDot(dot))
		}
	}
}
