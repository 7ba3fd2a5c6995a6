package tune

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// SVG layout, in pixels.
const (
	svgWidth    = 760
	svgPanel    = 350 // height of one model's panel
	svgLeft     = 56
	svgRight    = 24
	svgLabelTop = 58  // baseline of the first threshold label, in a band above the plot
	svgLabelDy  = 13  // vertical step between stacked threshold labels
	svgTop      = 114 // top of the plot: below the four labels, so no label is drawn over a bar
	svgPlot     = 180 // plot height
)

// Zone colours, shared by every chart in the SVG.
func svgColour(name string) string {
	switch name {
	case "smart":
		return "#2da44e"
	case "warn":
		return "#bf8700"
	case "dumb":
		return "#cf222e"
	case "auto":
		return "#8250df"
	case "prep":
		return "#0969da"
	}
	return ""
}

// SVG writes the report's charts as one standalone SVG: per model, the histogram of context
// size per turn coloured by zone, with the warn, dumb and prep thresholds and the auto-compact
// point as labelled vertical lines. The output depends only on the report (no clock, no map
// order), so the same report gives the same bytes.
func SVG(out io.Writer, rep *Report) error {
	w := bufio.NewWriter(out)
	height := svgPanel * max(1, len(rep.Models))
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, sans-serif" font-size="12">`+"\n", svgWidth, height, svgWidth, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", svgWidth, height)
	if len(rep.Models) == 0 {
		fmt.Fprintf(w, `<text x="%d" y="%d">no assistant responses with usage found</text>`+"\n", svgLeft, svgTop)
	}
	for i := range rep.Models {
		svgModel(w, &rep.Models[i], i*svgPanel)
	}
	fmt.Fprintln(w, "</svg>")
	return w.Flush()
}

func svgModel(w *bufio.Writer, m *Model, y0 int) {
	d := m.Context
	cur := m.Current
	plotW := float64(svgWidth - svgLeft - svgRight)
	base := float64(y0 + svgTop + svgPlot)
	fmt.Fprintf(w, `<g id="%s">`+"\n", esc("model-"+m.Model))
	fmt.Fprintf(w, `<text x="%d" y="%d" font-size="15" font-weight="bold">%s</text>`+"\n", svgLeft, y0+22, esc(m.Model))
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#57606a">window %s (%s) · %s · %s · compactions: %d manual, %d auto · median %s, p90 %s</text>`+"\n",
		svgLeft, y0+40, Tokens(m.Window), esc(WindowNote(m.WindowSource)), plural(m.Sessions, "session"), plural(m.Turns, "turn"), m.Manual, m.Auto, Tokens(d.P50), Tokens(d.P90))
	n := len(d.Hist)
	if n == 0 || d.HistStep == 0 {
		fmt.Fprintln(w, "</g>")
		return
	}
	top := float64(int64(n) * d.HistStep)
	peak := 0
	for _, c := range d.Hist {
		peak = max(peak, c)
	}
	xOf := func(tokens int64) float64 { return float64(svgLeft) + float64(tokens)/top*plotW }
	bw := plotW / float64(n)
	for i, c := range d.Hist {
		if c == 0 {
			continue
		}
		lo := int64(i) * d.HistStep
		zone := cur.zone(lo)
		h := float64(c) / float64(peak) * svgPlot
		fmt.Fprintf(w, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s–%s: %d turns</title></rect>`+"\n",
			f1(xOf(lo)+0.5), f1(base-h), f1(max(bw-1, 0.5)), f1(h), svgColour(zone), Tokens(lo), Tokens(lo+d.HistStep), c)
	}
	// Axes and ticks.
	fmt.Fprintf(w, `<line x1="%d" y1="%s" x2="%s" y2="%s" stroke="#57606a"/>`+"\n", svgLeft, f1(base), f1(float64(svgLeft)+plotW), f1(base))
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%s" stroke="#57606a"/>`+"\n", svgLeft, y0+svgTop, svgLeft, f1(base))
	every := max(1, (n+7)/8)
	for i := 0; i <= n; i += every {
		x := xOf(int64(i) * d.HistStep)
		fmt.Fprintf(w, `<text x="%s" y="%s" text-anchor="middle" fill="#57606a">%s</text>`+"\n", f1(x), f1(base+16), Tokens(int64(i)*d.HistStep))
	}
	fmt.Fprintf(w, `<text x="%d" y="%s" text-anchor="end" fill="#57606a">%d</text>`+"\n", svgLeft-6, f1(base-svgPlot+4), peak)
	fmt.Fprintf(w, `<text x="%d" y="%s" text-anchor="end" fill="#57606a">0</text>`+"\n", svgLeft-6, f1(base+4))
	fmt.Fprintf(w, `<text x="%s" y="%s" text-anchor="middle" fill="#57606a">context tokens per turn</text>`+"\n", f1(float64(svgLeft)+plotW/2), f1(base+34))
	// Threshold lines, labels stacked so they never overlap.
	marks := []struct {
		name, colour string
		at           int64
	}{{"warn", svgColour("warn"), cur.Warn}, {"dumb", svgColour("dumb"), cur.Dumb}, {"prep", svgColour("prep"), cur.Prep}, {"auto-compact", svgColour("auto"), cur.AutoCompact}}
	row := 0
	for _, mk := range marks {
		if mk.at <= 0 || float64(mk.at) > top {
			continue
		}
		x := f1(xOf(mk.at))
		labelY := y0 + svgLabelTop + row*svgLabelDy
		fmt.Fprintf(w, `<line x1="%s" y1="%d" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="4 3"/>`+"\n", x, labelY+3, x, f1(base), mk.colour)
		anchor := "start"
		dx := 4.0
		if xOf(mk.at) > float64(svgLeft)+plotW*0.8 {
			anchor, dx = "end", -4
		}
		fmt.Fprintf(w, `<text x="%s" y="%d" text-anchor="%s" fill="%s" font-weight="bold" stroke="#ffffff" stroke-width="3" paint-order="stroke">%s %s</text>`+"\n", f1(xOf(mk.at)+dx), labelY, anchor, mk.colour, mk.name, Tokens(mk.at))
		row++
	}
	fmt.Fprintln(w, "</g>")
}

// f1 formats a coordinate with at most one decimal, the same way every time.
func f1(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	return strings.TrimSuffix(s, ".0")
}

// esc escapes text for SVG: & < > " ' as entities. (encoding/xml would do, but it is linked
// into every zoneline process then; a strings.Replacer built at init cost every process too.)
func esc(s string) string {
	if !strings.ContainsAny(s, "&<>\"'") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&#34;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
