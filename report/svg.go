package report

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/tune"
)

// SVG layout, in pixels.
const (
	svgW      = 760
	svgLeft   = 56
	svgRight  = 56
	svgPanelH = 250 // one model's panel
	svgPlotT  = 48  // the plot's top within a panel
	svgPlotH  = 160
	svgTimeH  = 150 // the compactions' timeline
	svgMinArg = 10  // calls a band needs before its rates are drawn
)

// svgColours of the zones, the triggers and the rates (tune's palette).
var svgZone = [...]string{"#2da44e", "#bf8700", "#cf222e"}

const (
	svgAuto    = "#8250df"
	svgManual  = "#0969da"
	svgUnknown = "#6e7781"
	svgErr     = "#cf222e"
	svgInt     = "#8250df"
)

// SVG writes the report's charts as one standalone SVG: per model, the turns per 10k band of
// context over the smart, warn and dumb zones, with the tool errors and interruptions per 100
// tool calls of each band that has at least svgMinArg calls; then every compaction on a
// timeline (auto, manual, unknown), loops marked. The same report gives the same bytes.
func SVG(out io.Writer, rep *Report) error {
	w := bufio.NewWriter(out)
	h := svgPanelH*max(1, len(rep.Zones)) + svgTimeH
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, sans-serif" font-size="12">`+"\n", svgW, h, svgW, h)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", svgW, h)
	if len(rep.Zones) == 0 {
		fmt.Fprintf(w, `<text x="%d" y="%d">no assistant responses with usage found</text>`+"\n", svgLeft, svgPlotT)
	}
	for i := range rep.Zones {
		svgModel(w, &rep.Zones[i], i*svgPanelH)
	}
	svgTimeline(w, rep, svgPanelH*max(1, len(rep.Zones)))
	fmt.Fprintln(w, "</svg>")
	return w.Flush()
}

func svgModel(w *bufio.Writer, m *ModelZones, y0 int) {
	fmt.Fprintf(w, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", svgLeft, y0+20, esc(m.Model))
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#57606a">warn %s, dumb %s · %s turns · bars: turns per 10k of context; dots: per 100 tool calls, `+
		`<tspan fill="%s">errors</tspan> and <tspan fill="%s">interruptions</tspan></text>`+"\n",
		svgLeft, y0+36, tune.Tokens(m.Warn), tune.Tokens(m.Dumb), Count(m.Turns), svgErr, svgInt)
	top, bottom := y0+svgPlotT, y0+svgPlotT+svgPlotH
	width := svgW - svgLeft - svgRight
	end := max(int64(len(m.Bands))*BandStep, m.Dumb+BandStep)
	x := func(tokens int64) float64 { return svgLeft + float64(width)*float64(min(tokens, end))/float64(end) }
	for i, z := range m.Zones {
		to := z.To
		if to == 0 || to > end {
			to = end
		}
		if z.From >= to {
			continue
		}
		fmt.Fprintf(w, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" fill-opacity="0.08"/>`+"\n", x(z.From), top, x(to)-x(z.From), svgPlotH, svgZone[i])
	}
	var peakTurns int64
	peakRate := 1.0
	for _, b := range m.Bands {
		peakTurns = max(peakTurns, b.Turns)
		if b.Calls >= svgMinArg {
			peakRate = max(peakRate, 100*float64(b.Errors)/float64(b.Calls), 100*float64(b.Interrupts)/float64(b.Calls))
		}
	}
	for _, b := range m.Bands {
		if b.Turns == 0 {
			continue
		}
		bh := float64(svgPlotH) * float64(b.Turns) / float64(max(1, peakTurns))
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#afb8c1"/>`+"\n", x(b.From)+1, float64(bottom)-bh, x(b.From+BandStep)-x(b.From)-2, bh)
	}
	for _, b := range m.Bands {
		if b.Calls < svgMinArg {
			continue
		}
		cx := (x(b.From) + x(b.From+BandStep)) / 2
		for _, r := range []struct {
			n      int64
			colour string
		}{{b.Errors, svgErr}, {b.Interrupts, svgInt}} {
			rate := 100 * float64(r.n) / float64(b.Calls)
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s+: %s of %s calls</title></circle>`+"\n",
				cx, float64(bottom)-float64(svgPlotH)*rate/peakRate, r.colour, tune.Tokens(b.From), Count(r.n), Count(b.Calls))
		}
	}
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#57606a"/>`+"\n", svgLeft, bottom, svgW-svgRight, bottom)
	for _, t := range []int64{0, m.Warn, m.Dumb, end} {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle" fill="#57606a">%s</text>`+"\n", x(t), bottom+16, tune.Tokens(t))
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="end" fill="#57606a">%.0f</text>`+"\n", svgW-svgRight+30, top+10, peakRate)
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="end" fill="#57606a">0</text>`+"\n", svgW-svgRight+30, bottom)
	if m.RiseAt > 0 {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-dasharray="4 3"/>`+"\n", x(m.RiseAt), top, x(m.RiseAt), bottom, svgErr)
	}
}

func svgTimeline(w *bufio.Writer, rep *Report, y0 int) {
	list := rep.Compactions.List
	fmt.Fprintf(w, `<text x="%d" y="%d" font-weight="bold">%s compactions</text>`+"\n", svgLeft, y0+20, Count(int64(len(list))))
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#57606a"><tspan fill="%s">auto</tspan>, <tspan fill="%s">manual</tspan>, <tspan fill="%s">unknown</tspan>; loops underlined in red</text>`+"\n",
		svgLeft, y0+36, svgAuto, svgManual, svgUnknown)
	var first, last time.Time
	for _, c := range list {
		if c.Time.IsZero() {
			continue
		}
		if first.IsZero() || c.Time.Before(first) {
			first = c.Time
		}
		if c.Time.After(last) {
			last = c.Time
		}
	}
	if first.IsZero() {
		fmt.Fprintf(w, `<text x="%d" y="%d">none with a time</text>`+"\n", svgLeft, y0+80)
		return
	}
	span := max(last.Sub(first), time.Hour)
	width := float64(svgW - svgLeft - svgRight)
	x := func(t time.Time) float64 { return svgLeft + width*float64(t.Sub(first))/float64(span) }
	base := y0 + 100
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#57606a"/>`+"\n", svgLeft, base, svgW-svgRight, base)
	for _, c := range list {
		if c.Time.IsZero() {
			continue
		}
		colour := svgUnknown
		switch c.Trigger {
		case "auto":
			colour = svgAuto
		case "manual":
			colour = svgManual
		}
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"><title>%s %s %s</title></line>`+"\n",
			x(c.Time), base-40, x(c.Time), base, colour, when(c.Time), esc(c.Session), esc(c.Trigger))
	}
	for _, l := range rep.Compactions.Loops {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="4"><title>%s</title></line>`+"\n",
			x(l.Start)-2, base+6, x(l.End)+2, base+6, svgErr, esc(l.Reason))
	}
	fmt.Fprintf(w, `<text x="%d" y="%d" fill="#57606a">%s</text>`+"\n", svgLeft, base+24, first.UTC().Format("2006-01-02"))
	fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="end" fill="#57606a">%s</text>`+"\n", svgW-svgRight, base+24, last.UTC().Format("2006-01-02"))
}

// esc makes outside text safe inside an SVG's text: sanitized, one line, cut, then escaped.
func esc(s string) string { return html.EscapeString(safetext.Field(s, 120)) }
