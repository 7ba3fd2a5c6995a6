package statusline

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Claude Code re-renders the status line's colours for its pane. The conversion, as its
// 2.1.332 bundle has it (chalk's, `function R(e,n,t,i,r)`): truecolor → 256 rounds each channel
// to the 6-level cube, 16+36·round(r/255·5)+6·round(g/255·5)+round(b/255·5), a grey (r=g=b)
// going to the 24-step ramp instead; 256 → 16 sets a channel's bit when its cube level is 3 or
// more and makes the colour bright when any level is 5. Observed in a 256-colour pane:
// 38;2;240;98;90 became 38;5;210 (CLAUDE-CODE.md section 6).

var cubeLevels = [6]int{0, 95, 135, 175, 215, 255}

func round5(c int) int { return int(math.Round(float64(c) / 255 * 5)) }

// to256 is Claude Code's truecolor → 256 conversion.
func to256(r, g, b int) int {
	if r == g && g == b {
		switch {
		case r < 8:
			return 16
		case r > 248:
			return 231
		}
		return 232 + int(math.Round(float64(r-8)*24/247))
	}
	return 16 + 36*round5(r) + 6*round5(g) + round5(b)
}

// rgb256 is the colour xterm draws for a 256-palette index ≥ 16.
func rgb256(c int) (r, g, b int) {
	if c >= 232 {
		v := (c-232)*10 + 8
		return v, v, v
	}
	c -= 16
	return cubeLevels[c/36], cubeLevels[c/6%6], cubeLevels[c%6]
}

// to16 is Claude Code's 256 → 16 conversion: the foreground SGR code (30-37, 90-97).
func to16(c int) int {
	if c >= 232 {
		u := int(math.Round(float64((c-232)*10+8) / 255))
		return 30 + (u | u<<1 | u<<2)
	}
	f, bright := 30, false
	for u := 0; u < 3; u++ {
		h := (c - 16) / int(math.Pow(6, float64(2-u))) % 6
		if h >= 3 {
			f += 1 << u
		}
		bright = bright || h == 5
	}
	if bright {
		return f + 60
	}
	return f
}

// hue is the colour class a person would name.
type hue string

func hueOf(r, g, b int) hue {
	switch {
	case r > g+60 && r > b+60 && g <= 110 && b <= 110:
		return "red"
	case g > r+40 && g > b+40:
		return "green"
	case r >= 200 && g >= 170 && b <= 110:
		return "yellow"
	}
	return "other(" + hue(strconv.Itoa(r)+","+strconv.Itoa(g)+","+strconv.Itoa(b)) + ")"
}

func hue16(code int) hue {
	switch code % 10 {
	case 1:
		return "red"
	case 2:
		return "green"
	case 3:
		return "yellow"
	}
	return "other(" + hue(strconv.Itoa(code)) + ")"
}

// truecolorRGB returns the r, g, b of a "…38;2;r;g;bm" opening sequence.
func truecolorRGB(t *testing.T, sgr string) (r, g, b int) {
	t.Helper()
	i := strings.Index(sgr, "38;2;")
	if i < 0 {
		t.Fatalf("%q is no truecolor sequence", sgr)
	}
	parts := strings.Split(strings.TrimSuffix(sgr[i+5:], "m"), ";")
	if len(parts) != 3 {
		t.Fatalf("%q: want r;g;b", sgr)
	}
	var v [3]int
	for k, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 {
			t.Fatalf("%q: bad channel %q", sgr, p)
		}
		v[k] = n
	}
	return v[0], v[1], v[2]
}

func TestConversionMatchesObserved(t *testing.T) {
	// The pane's observation, and chalk's own examples.
	for _, tt := range []struct{ r, g, b, want int }{{240, 98, 90, 210}, {255, 0, 0, 196}, {0, 0, 0, 16}, {255, 255, 255, 231}, {128, 128, 128, 244}} {
		if got := to256(tt.r, tt.g, tt.b); got != tt.want {
			t.Errorf("to256(%d,%d,%d) = %d, want %d", tt.r, tt.g, tt.b, got, tt.want)
		}
	}
	for c, want := range map[int]int{196: 91, 210: 91, 114: 32, 221: 93, 16: 30, 231: 97, 244: 37} {
		if got := to16(c); got != want {
			t.Errorf("to16(%d) = %d, want %d", c, got, want)
		}
	}
	// The first truecolor dumb red was salmon in the pane; the first smart green was cyan at 16.
	if r, g, b := rgb256(to256(240, 98, 90)); hueOf(r, g, b) == "red" {
		t.Errorf("#f0625a should not pass as red (it drew #%02x%02x%02x)", r, g, b)
	}
	if hue16(to16(to256(126, 211, 131))) == "green" {
		t.Error("#7ed383 should not pass as green at 16 colours")
	}
}

// TestColoursSurviveClaudeCode: every zone colour keeps its hue after Claude Code converts the
// truecolor value to 256 and to 16 colours, and the 256 table's values keep theirs at 16.
func TestColoursSurviveClaudeCode(t *testing.T) {
	tests := []struct {
		st   style
		want hue
	}{{styleSmart, "green"}, {styleWarn, "yellow"}, {styleDumb, "red"}, {styleHint, "yellow"}}
	for _, tt := range tests {
		t.Run(tt.st.String(), func(t *testing.T) {
			r, g, b := truecolorRGB(t, sgrTrueColor[tt.st])
			if h := hueOf(r, g, b); h != tt.want {
				t.Errorf("truecolor #%02x%02x%02x is %s, want %s", r, g, b, h, tt.want)
			}
			c := to256(r, g, b)
			cr, cg, cb := rgb256(c)
			if h := hueOf(cr, cg, cb); h != tt.want {
				t.Errorf("in a 256-colour pane #%02x%02x%02x becomes %d (#%02x%02x%02x): %s, want %s", r, g, b, c, cr, cg, cb, h, tt.want)
			}
			if h := hue16(to16(c)); h != tt.want {
				t.Errorf("at 16 colours #%02x%02x%02x becomes SGR %d: %s, want %s", r, g, b, to16(c), h, tt.want)
			}
			// The 256 table names the same cube colour, so both profiles look alike.
			if want := "38;5;" + strconv.Itoa(c) + "m"; !strings.HasSuffix(sgrANSI256[tt.st], want) {
				t.Errorf("256 table %q, truecolor lands on %s", sgrANSI256[tt.st], want)
			}
			if tt.st == styleDumb && (cr <= cg || cr <= cb || cg > 110 || cb > 110) {
				t.Errorf("dumb red in the pane #%02x%02x%02x: want red dominant, green and blue ≤ 110", cr, cg, cb)
			}
		})
	}
}
