package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file reads what tmux's `capture-pane -p -e` prints: text with SGR
// escape codes (ESC [ … m). It is pure, so it builds everywhere.

// ColorKind says how a foreground colour was given.
type ColorKind int

// The colour kinds.
const (
	ColorDefault ColorKind = iota // no colour, or SGR 39 / 0
	ColorBasic                    // 30–37, 90–97: N is 0–15
	Color256                      // 38;5;N
	ColorRGB                      // 38;2;R;G;B
)

// Color is a foreground colour as set by SGR codes.
type Color struct {
	Kind    ColorKind
	N       int    // ColorBasic: 0–15; Color256: 0–255
	R, G, B uint8  // ColorRGB
	Code    string // the SGR parameters that set it, e.g. "32", "38;5;114", "38;2;80;200;120"
}

// RGB returns the colour as RGB (xterm's palette for the 16 and 256 colours);
// ok is false for the default colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	switch c.Kind {
	case ColorRGB:
		return c.R, c.G, c.B, true
	case ColorBasic:
		return xterm16[c.N][0], xterm16[c.N][1], xterm16[c.N][2], true
	case Color256:
		n := c.N
		switch {
		case n < 16:
			return xterm16[n][0], xterm16[n][1], xterm16[n][2], true
		case n < 232:
			n -= 16
			lv := [6]uint8{0, 95, 135, 175, 215, 255}
			return lv[n/36], lv[(n/6)%6], lv[n%6], true
		default:
			v := uint8(8 + 10*(n-232))
			return v, v, v, true
		}
	}
	return 0, 0, 0, false
}

var xterm16 = [16][3]uint8{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// Hue names the colour family: "red", "yellow" (amber and orange included),
// "green", "blue", "magenta", "cyan", "grey" (unsaturated, e.g. Claude Code's
// own dim 38;5;246) or "default".
func (c Color) Hue() string {
	r, g, b, ok := c.RGB()
	if !ok {
		return "default"
	}
	rf, gf, bf := float64(r), float64(g), float64(b)
	mx, mn := max(rf, gf, bf), min(rf, gf, bf)
	if mx-mn < 40 {
		return "grey"
	}
	var h float64
	switch mx {
	case rf:
		h = 60 * (gf - bf) / (mx - mn)
	case gf:
		h = 60 * (2 + (bf-rf)/(mx-mn))
	default:
		h = 60 * (4 + (rf-gf)/(mx-mn))
	}
	if h < 0 {
		h += 360
	}
	switch {
	case h < 20 || h >= 340:
		return "red"
	case h < 75:
		return "yellow"
	case h < 165:
		return "green"
	case h < 200:
		return "cyan"
	case h < 270:
		return "blue"
	default:
		return "magenta"
	}
}

func (c Color) String() string {
	if c.Kind == ColorDefault {
		return "default"
	}
	return fmt.Sprintf("%s (SGR %s)", c.Hue(), c.Code)
}

// Cell is one printed rune and the style in force when it was printed.
type Cell struct {
	R    rune
	FG   Color
	Bold bool
}

var sgrRE = regexp.MustCompile(`^\x1b\[([0-9;:]*)m`)

// ParseSGR splits one line of `capture-pane -e` output into cells, tracking
// the foreground colour and bold through SGR codes; other escape sequences
// are dropped.
func ParseSGR(line string) []Cell {
	var cells []Cell
	var fg Color
	bold := false
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			if m := sgrRE.FindStringSubmatch(line[i:]); m != nil {
				fg, bold = applySGR(m[1], fg, bold)
				i += len(m[0])
				continue
			}
			i += skipEscape(line[i:])
			continue
		}
		r, size := decodeRune(line[i:])
		cells = append(cells, Cell{R: r, FG: fg, Bold: bold})
		i += size
	}
	return cells
}

func decodeRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 1
}

// skipEscape returns the length of a non-SGR escape sequence at s[0].
func skipEscape(s string) int {
	if len(s) < 2 {
		return 1
	}
	if s[1] == '[' {
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	}
	if s[1] == ']' { // OSC … BEL or ST
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

func applySGR(params string, fg Color, bold bool) (Color, bool) {
	if params == "" {
		return Color{}, false
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	num := func(i int) int {
		if i >= len(ps) {
			return -1
		}
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			return -1
		}
		return n
	}
	for i := 0; i < len(ps); i++ {
		p := num(i)
		switch {
		case p == 0:
			fg, bold = Color{}, false
		case p == 1:
			bold = true
		case p == 22:
			bold = false
		case p >= 30 && p <= 37:
			fg = Color{Kind: ColorBasic, N: p - 30, Code: ps[i]}
		case p >= 90 && p <= 97:
			fg = Color{Kind: ColorBasic, N: p - 90 + 8, Code: ps[i]}
		case p == 39:
			fg = Color{}
		case p == 38 && num(i+1) == 5 && num(i+2) >= 0:
			fg = Color{Kind: Color256, N: num(i + 2), Code: strings.Join(ps[i:i+3], ";")}
			i += 2
		case p == 38 && num(i+1) == 2 && i+4 < len(ps):
			fg = Color{Kind: ColorRGB, R: uint8(num(i + 2)), G: uint8(num(i + 3)), B: uint8(num(i + 4)),
				Code: strings.Join(ps[i:i+5], ";")}
			i += 4
		case p == 48 && num(i+1) == 5:
			i += 2
		case p == 48 && num(i+1) == 2:
			i += 4
		}
	}
	return fg, bold
}

// PlainText returns the text of cells.
func PlainText(cells []Cell) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteRune(c.R)
	}
	return b.String()
}

// ColorAt returns the foreground colour of the first cell of the first match
// of word in cells, and whether word was found.
func ColorAt(cells []Cell, word string) (Color, bool) {
	rs := []rune(word)
	for i := 0; i+len(rs) <= len(cells); i++ {
		match := true
		for j, r := range rs {
			if cells[i+j].R != r {
				match = false
				break
			}
		}
		if match {
			return cells[i].FG, true
		}
	}
	return Color{}, false
}

// StripSGR removes escape sequences from s.
func StripSGR(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		b.WriteString(PlainText(ParseSGR(line)))
	}
	return b.String()
}

var borderRE = regexp.MustCompile(`^\s*─{20,}\s*$`)

// modeLineRE matches Claude Code's own footer under the status line.
var modeLineRE = regexp.MustCompile(`(?i)^\s*(⏸|⏵|\? for shortcuts)|mode on\b`)

// StatusArea returns the lines below the prompt box (after its bottom
// border) of a screen, plain or ANSI, as printed, up to Claude Code's own
// mode/footer line. Claude Code renders the statusLine command's output
// there, one row per line, indented two columns. It returns nil when no
// prompt box is found, and an empty slice when the area is blank.
func StatusArea(screen string) []string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	last := -1
	for i, l := range lines {
		if borderRE.MatchString(StripSGR(l)) {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	out := []string{}
	for _, l := range lines[last+1:] {
		plain := StripSGR(l)
		if strings.TrimSpace(plain) == "" || modeLineRE.MatchString(plain) {
			break
		}
		out = append(out, l)
	}
	return out
}
