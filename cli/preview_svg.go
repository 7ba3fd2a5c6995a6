package cli

import (
	"fmt"
	"strings"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/termcolor"
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
var ansi16 = [16][3]uint8{
	{0x2e, 0x31, 0x38}, {0xe0, 0x6c, 0x75}, {0x98, 0xc3, 0x79}, {0xe5, 0xc0, 0x7b},
	{0x61, 0xaf, 0xef}, {0xc6, 0x78, 0xdd}, {0x56, 0xb6, 0xc2}, {0xab, 0xb2, 0xbf},
	{0x5c, 0x63, 0x70}, {0xef, 0x7b, 0x84}, {0xb5, 0xe0, 0x8f}, {0xf0, 0xd0, 0x8f},
	{0x7c, 0xc0, 0xff}, {0xd9, 0x8f, 0xea}, {0x6f, 0xd0, 0xdc}, {0xff, 0xff, 0xff},
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
	text string
	col  int // starting cell
	termcolor.Style
}

// parseSGR splits a line with SGR escape codes into styled runs placed on terminal cells: a run
// is the text between two escape sequences (termcolor.Scan).
func parseSGR(line string, startCol int) (runs []svgRun, cols int) {
	col := startCol
	termcolor.Scan(line, func(s string, st termcolor.Style) {
		var text strings.Builder
		for _, r := range s {
			text.WriteRune(r) // invalid UTF-8 drawn as U+FFFD
		}
		runs = append(runs, svgRun{text: text.String(), col: col, Style: st})
		col += statusline.Width(text.String(), false)
	})
	return runs, col
}

// svgColor is c's hex colour in the picture's palette; "" for the default colour.
func svgColor(c termcolor.Color) string {
	r, g, b, ok := c.RGB(&ansi16)
	if !ok {
		return ""
	}
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
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
			if bg := svgColor(r.BG); bg != "" {
				fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", x, y-svgFontSize+1, float64(cells)*svgCellW, svgLineH-2, bg)
			}
			if strings.TrimSpace(r.text) == "" {
				continue
			}
			fg := svgColor(r.FG)
			if fg == "" {
				fg = svgLineFg
			}
			attrs := fmt.Sprintf(`x="%.1f" y="%d" fill="%s"`, x, y, fg)
			if r.Bold {
				attrs += ` font-weight="bold"`
			}
			if r.Dim {
				attrs += ` fill-opacity="0.55"`
			}
			if r.Italic {
				attrs += ` font-style="italic"`
			}
			if r.Underline {
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
