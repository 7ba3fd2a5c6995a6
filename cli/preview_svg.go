package cli

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
)

// The SVG terminal's geometry and colours. The picture is deterministic: the same render gives
// the same bytes.
const (
	svgFontSize   = 14
	svgCellW      = 8.4 // px per terminal cell at svgFontSize (0.6 em, a typical monospace advance)
	svgLineH      = 20
	svgPadX       = 16
	svgPadTop     = 44 // title bar included
	svgPadBottom  = 16
	svgLabelCells = 29 // the preview's label column
	svgBackground = "#1e1f24"
	svgTitleBar   = "#2b2d34"
	svgLabelFg    = "#c8ccd4"
	// svgLineFg is the dim grey (SGR 38;5;246) Claude Code draws around the status line, so
	// unstyled text looks as it does under the prompt box.
	svgLineFg = "#949494"
	svgFont   = `ui-monospace, "SF Mono", "DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace`
)

// ansi16 is the 16-colour palette of the picture (a dark terminal theme).
var ansi16 = [16]string{
	"#2e3138", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#abb2bf",
	"#5c6370", "#ef7b84", "#b5e08f", "#f0d08f", "#7cc0ff", "#d98fea", "#6fd0dc", "#ffffff",
}

// svgRow is one row of the picture: a label and a rendered line with its SGR codes.
type svgRow struct {
	label string
	line  string
}

// writePreviewSVG renders the samples again in truecolor, whatever the terminal's profile,
// unless the config names a profile, and writes them as an SVG picture of a dark terminal.
func (e *Env) writePreviewSVG(path string, pe Env, cfg *config.Config, cfgErr error, width int) error {
	base := pe.Getenv
	pe.Getenv = func(k string) string {
		switch k {
		case "NO_COLOR":
			return ""
		case "FORCE_COLOR":
			return "3"
		}
		return base(k)
	}
	var rows []svgRow
	for _, s := range samples {
		r := s.render(&pe, cfg, cfgErr)
		for i, l := range strings.Split(r.Line, "\n") {
			label := s.label
			if i > 0 {
				label = ""
			}
			rows = append(rows, svgRow{label: label, line: l})
		}
	}
	if err := state.WritePublic(path, renderSVG(rows, width)); err != nil {
		return err // "zoneline: writing <path>: <reason>"
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", path)
	return nil
}

// svgRun is a run of text with one style.
type svgRun struct {
	text  string
	col   int // starting cell
	fg    string
	bg    string
	bold  bool
	dim   bool
	ital  bool
	under bool
}

// sgrState is the text style after the SGR codes read so far.
type sgrState struct {
	fg, bg                 string
	bold, dim, ital, under bool
}

// apply applies one SGR parameter list ("1;38;5;203") to s.
func (s *sgrState) apply(params string) {
	ps := strings.Split(params, ";")
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
		n := num(i)
		if ps[i] == "" {
			n = 0
		}
		switch {
		case n == 0:
			*s = sgrState{}
		case n == 1:
			s.bold = true
		case n == 2:
			s.dim = true
		case n == 22:
			s.bold, s.dim = false, false
		case n == 3:
			s.ital = true
		case n == 23:
			s.ital = false
		case n == 4:
			s.under = true
		case n == 24:
			s.under = false
		case n >= 30 && n <= 37:
			s.fg = ansi16[n-30]
		case n >= 90 && n <= 97:
			s.fg = ansi16[n-90+8]
		case n == 39:
			s.fg = ""
		case n >= 40 && n <= 47:
			s.bg = ansi16[n-40]
		case n >= 100 && n <= 107:
			s.bg = ansi16[n-100+8]
		case n == 49:
			s.bg = ""
		case n == 38 || n == 48:
			var c string
			switch num(i + 1) {
			case 5:
				c = color256(num(i + 2))
				i += 2
			case 2:
				r, g, b := num(i+2), num(i+3), num(i+4)
				if r >= 0 && g >= 0 && b >= 0 {
					c = fmt.Sprintf("#%02x%02x%02x", r&255, g&255, b&255)
				}
				i += 4
			}
			if n == 38 {
				s.fg = c
			} else {
				s.bg = c
			}
		}
	}
}

// color256 returns the hex colour of xterm 256-colour index n.
func color256(n int) string {
	switch {
	case n < 0 || n > 255:
		return ""
	case n < 16:
		return ansi16[n]
	case n < 232:
		levels := [6]int{0, 95, 135, 175, 215, 255}
		n -= 16
		return fmt.Sprintf("#%02x%02x%02x", levels[n/36], levels[n/6%6], levels[n%6])
	}
	g := 8 + 10*(n-232)
	return fmt.Sprintf("#%02x%02x%02x", g, g, g)
}

// parseSGR splits a line with SGR escape codes into styled runs placed on terminal cells.
// Escape sequences other than SGR are dropped.
func parseSGR(line string, startCol int) (runs []svgRun, cols int) {
	var st sgrState
	col := startCol
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			runs = append(runs, svgRun{text: cur.String(), col: col, fg: st.fg, bg: st.bg, bold: st.bold, dim: st.dim, ital: st.ital, under: st.under})
			col += statusline.Width(cur.String(), false)
			cur.Reset()
		}
	}
	for i := 0; i < len(line); {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if j < len(line) {
				flush()
				if line[j] == 'm' {
					st.apply(line[i+2 : j])
				}
				i = j + 1
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		cur.WriteRune(r)
		i += size
	}
	flush()
	return runs, col
}

// renderSVG draws the rows as a dark terminal window: the label column in light grey, the
// status line in Claude Code's grey with its own colours on top.
func renderSVG(rows []svgRow, width int) []byte {
	type placed struct {
		label string
		runs  []svgRun
	}
	var ps []placed
	cols := svgLabelCells + max(width, 0)
	for _, r := range rows {
		runs, end := parseSGR(r.line, svgLabelCells)
		cols = max(cols, end)
		ps = append(ps, placed{r.label, runs})
	}
	w := int(float64(cols)*svgCellW) + 2*svgPadX
	h := svgPadTop + len(rows)*svgLineH + svgPadBottom
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="zoneline preview: the status line in each zone">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" rx="8" fill="%s"/>`+"\n", w, h, svgBackground)
	fmt.Fprintf(&b, `<rect width="%d" height="28" rx="8" fill="%s"/><rect y="20" width="%d" height="8" fill="%s"/>`+"\n", w, svgTitleBar, w, svgTitleBar)
	for i, c := range []string{"#ff5f57", "#febc2e", "#28c840"} {
		fmt.Fprintf(&b, `<circle cx="%d" cy="14" r="6" fill="%s"/>`+"\n", 18+i*20, c)
	}
	fmt.Fprintf(&b, `<text x="%d" y="18" fill="#9da3ad" font-family='%s' font-size="12" text-anchor="middle">zoneline preview</text>`+"\n", w/2, svgFont)
	fmt.Fprintf(&b, `<g font-family='%s' font-size="%d" xml:space="preserve">`+"\n", svgFont, svgFontSize)
	for i, p := range ps {
		y := svgPadTop + i*svgLineH + svgFontSize
		if p.label != "" {
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", svgPadX, y, svgLabelFg, xmlEscape(p.label))
		}
		for _, r := range p.runs {
			x := float64(svgPadX) + float64(r.col)*svgCellW
			cells := statusline.Width(r.text, false)
			if r.bg != "" {
				fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", x, y-svgFontSize+1, float64(cells)*svgCellW, svgLineH-2, r.bg)
			}
			if strings.TrimSpace(r.text) == "" {
				continue
			}
			fg := r.fg
			if fg == "" {
				fg = svgLineFg
			}
			attrs := fmt.Sprintf(`x="%.1f" y="%d" fill="%s"`, x, y, fg)
			if r.bold {
				attrs += ` font-weight="bold"`
			}
			if r.dim {
				attrs += ` fill-opacity="0.55"`
			}
			if r.ital {
				attrs += ` font-style="italic"`
			}
			if r.under {
				attrs += ` text-decoration="underline"`
			}
			fmt.Fprintf(&b, `<text %s textLength="%.1f" lengthAdjust="spacingAndGlyphs">%s</text>`+"\n", attrs, float64(cells)*svgCellW, xmlEscape(r.text))
		}
	}
	b.WriteString("</g>\n</svg>\n")
	return []byte(b.String())
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
