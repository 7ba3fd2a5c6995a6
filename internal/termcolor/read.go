package termcolor

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Reading text painted with SGR codes (ESC [ … m): the one interpreter, for the preview's SVG
// picture (cli) and the screens the e2e harness captures (tmux capture-pane -e), and for tests
// that compare a line's text.

// ColorKind says how a colour was given.
type ColorKind uint8

// The colour kinds.
const (
	ColorDefault ColorKind = iota // no colour, or SGR 39 / 49 / 0
	ColorBasic                    // 30–37, 90–97 (40–47, 100–107): N is 0–15
	Color256                      // 38;5;N: N is 0–255
	ColorRGB                      // 38;2;R;G;B
)

// Color is a colour as SGR codes set it.
type Color struct {
	Kind    ColorKind
	N       int    // ColorBasic: 0–15; Color256: 0–255
	R, G, B uint8  // ColorRGB
	Code    string // the SGR parameters that set it, e.g. "32", "38;5;114", "38;2;80;200;120"
}

// Style is the text style after the SGR codes read so far.
type Style struct {
	FG, BG                       Color
	Bold, Dim, Italic, Underline bool
}

// Scan reads a line painted with SGR codes: it calls text with each stretch of text between
// escape sequences and the style in force there. Escape sequences other than SGR (CSI, OSC, …)
// are dropped.
func Scan(line string, text func(s string, st Style)) {
	var st Style
	start := 0
	for i := 0; i < len(line); {
		if line[i] != 0x1b {
			i++
			continue
		}
		if i > start {
			text(line[start:i], st)
		}
		n := escapeLen(line[i:])
		if seq := line[i : i+n]; strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m") {
			st.apply(seq[2 : n-1])
		}
		i += n
		start = i
	}
	if start < len(line) {
		text(line[start:], st)
	}
}

// Cell is one printed rune and the style it was printed in.
type Cell struct {
	R rune
	Style
}

// Cells splits a painted line into its runes, each with its style.
func Cells(line string) []Cell {
	var cells []Cell
	Scan(line, func(s string, st Style) {
		for _, r := range s {
			cells = append(cells, Cell{R: r, Style: st})
		}
	})
	return cells
}

// Strip returns s without its escape sequences.
func Strip(s string) string {
	var b strings.Builder
	Scan(s, func(s string, _ Style) { b.WriteString(s) })
	return b.String()
}

// escapeLen returns the length of the escape sequence at s[0] (an ESC): a CSI up to its final
// byte, an OSC up to BEL or ST, else ESC and the byte after it.
func escapeLen(s string) int {
	switch {
	case len(s) < 2:
		return 1
	case s[1] == '[':
		if j := strings.IndexFunc(s[2:], func(r rune) bool { return r >= 0x40 && r <= 0x7e }); j >= 0 {
			return j + 3
		}
		return len(s)
	case s[1] == ']':
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
	_, n := utf8.DecodeRuneInString(s[1:])
	return 1 + n
}

// apply applies one SGR parameter list ("1;38;5;203"; an empty parameter is 0) to s.
func (s *Style) apply(params string) {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		sub := strings.Split(ps[i], ":")
		n := number(sub[0])
		switch {
		case n == 0:
			*s = Style{}
		case n == 1:
			s.Bold = true
		case n == 2:
			s.Dim = true
		case n == 22:
			s.Bold, s.Dim = false, false
		case n == 3:
			s.Italic = true
		case n == 23:
			s.Italic = false
		case n == 4:
			s.Underline = true
		case n == 24:
			s.Underline = false
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			s.FG = Color{Kind: ColorBasic, N: n%10 + n/90*8, Code: sub[0]}
		case n == 39:
			s.FG = Color{}
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			s.BG = Color{Kind: ColorBasic, N: n%10 + n/100*8, Code: sub[0]}
		case n == 49:
			s.BG = Color{}
		case n == 38, n == 48, n == 58:
			var c Color
			if len(sub) > 1 { // the colon form: 38:5:N, 38:2:R:G:B or 38:2::R:G:B
				if args := sub[1:]; len(args) == 5 && args[0] == "2" {
					c, _ = extended(sub[0], append(args[:1:1], args[2:]...))
				} else {
					c, _ = extended(sub[0], args)
				}
			} else {
				var used int
				c, used = extended(sub[0], ps[i+1:])
				i += used
			}
			if n == 38 {
				s.FG = c
			} else if n == 48 {
				s.BG = c
			}
		}
	}
}

// extended reads the colour after 38, 48 or 58 from args ("5;N" or "2;R;G;B") and returns it
// with the number of args it used; a colour it cannot read is the default.
func extended(code string, args []string) (Color, int) {
	at := func(i int) int {
		if i < len(args) {
			return number(args[i])
		}
		return -1
	}
	params := func(k int) string { return strings.Join(append([]string{code}, args[:min(k, len(args))]...), ";") }
	switch at(0) {
	case 5:
		if v := at(1); v >= 0 && v <= 255 {
			return Color{Kind: Color256, N: v, Code: params(2)}, 2
		}
		return Color{}, 2
	case 2:
		if r, g, b := at(1), at(2), at(3); r >= 0 && g >= 0 && b >= 0 {
			return Color{Kind: ColorRGB, R: uint8(r), G: uint8(g), B: uint8(b), Code: params(4)}, 4
		}
		return Color{}, 4
	}
	return Color{}, 0
}

// number reads one SGR parameter: "" is 0, anything not a number -1.
func number(p string) int {
	if p == "" {
		return 0
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return -1
	}
	return n
}

// XTerm16 is xterm's palette of the 16 basic colours.
var XTerm16 = [16][3]uint8{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// RGB returns the colour as RGB, the 16 basic colours (also as 256-colour indexes 0–15) from
// palette, the others from xterm's 256-colour cube and grey ramp; ok is false for the default
// colour.
func (c Color) RGB(palette *[16][3]uint8) (r, g, b uint8, ok bool) {
	switch {
	case c.Kind == ColorRGB:
		return c.R, c.G, c.B, true
	case c.Kind == ColorDefault:
		return 0, 0, 0, false
	case c.N < 16:
		return palette[c.N][0], palette[c.N][1], palette[c.N][2], true
	case c.N < 232:
		n := c.N - 16
		lv := [6]uint8{0, 95, 135, 175, 215, 255}
		return lv[n/36], lv[(n/6)%6], lv[n%6], true
	}
	v := uint8(8 + 10*(c.N-232))
	return v, v, v, true
}

// Hue names the colour family (in xterm's palette): "red", "yellow" (amber and orange
// included), "green", "blue", "magenta", "cyan", "grey" (unsaturated, e.g. Claude Code's own
// dim 38;5;246) or "default".
func (c Color) Hue() string {
	r, g, b, ok := c.RGB(&XTerm16)
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

// String names the colour for a test's message: its hue and the code that set it.
func (c Color) String() string {
	if c.Kind == ColorDefault {
		return "default"
	}
	return fmt.Sprintf("%s (SGR %s)", c.Hue(), c.Code)
}
