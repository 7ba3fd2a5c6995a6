package tune

import (
	"fmt"
	"io"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
)

// Chart layout.
const (
	maxBuckets = 24 // most histogram rows per model
	barWidth   = 40 // cells of the longest bar
	maxListed  = 10 // compactions listed per model (the latest)
)

// histSteps are the bucket sizes a histogram may use, smallest first.
var histSteps = []int64{5_000, 10_000, 20_000, 25_000, 50_000, 100_000, 200_000, 250_000, 500_000}

// histogram counts ctx in buckets of the smallest step that covers 0..top in at most
// maxBuckets buckets.
func histogram(ctx []int64, top int64) (step int64, counts []int) {
	step = histSteps[len(histSteps)-1]
	for _, s := range histSteps {
		if (top+s)/s <= maxBuckets {
			step = s
			break
		}
	}
	counts = make([]int, top/step+1)
	for _, c := range ctx {
		i := min(int(c/step), len(counts)-1)
		counts[i]++
	}
	return step, counts
}

// ChartOptions says how to draw.
type ChartOptions struct {
	Profile termcolor.Profile // termcolor.Ascii for no colour
	ASCII   bool              // ASCII glyphs only
}

type glyphs struct{ full, marker, dot, arrow string }

var (
	unicodeGlyphs = glyphs{full: "█", marker: "◀", dot: "·", arrow: "→"}
	asciiGlyphs   = glyphs{full: "#", marker: "<", dot: "-", arrow: "->"}
)

// eighths are the partial blocks for the end of a unicode bar, 1/8 to 7/8.
var eighths = []string{"▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// Render writes the human report: totals, problems, then per model a histogram of context
// size per turn with the thresholds and the auto-compact point marked, the compactions, the
// lead of each threshold, and the suggested block with its reasons.
func Render(w io.Writer, rep *Report, o ChartOptions) {
	g := unicodeGlyphs
	if o.ASCII {
		g = asciiGlyphs
	}
	p := o.Profile
	bold := func(s string) string { return p.Paint(s, termcolor.Bold) }
	dim := func(s string) string { return p.Paint(s, termcolor.Faint) }
	t := rep.Totals
	fmt.Fprintf(w, "%s %s, %s, %s, %s, %s\n", bold("scanned"), plural(t.Files, "file"), Bytes(t.Bytes), plural(t.Sessions, "session"), plural(t.Turns, "turn"), plural(t.Compactions, "compaction"))
	var skipped []string
	for _, s := range []struct {
		n    int64
		what string
	}{{int64(t.Duplicates), "duplicate record"}, {int64(t.Unreadable), "unreadable file"}, {int64(t.Vanished), "vanished file"},
		{t.BadLines, "unparsable line"}, {t.HugeLines, "line over " + Bytes(MaxLine)}, {int64(t.Unassigned), "compaction without a model"}} {
		if s.n > 0 {
			noun, rest, _ := strings.Cut(s.what, " over ")
			if rest != "" {
				rest = " over " + rest
			}
			skipped = append(skipped, plural(int(s.n), noun)+rest)
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "skipped: %s\n", strings.Join(skipped, ", "))
	}
	for _, pr := range rep.Problems {
		fmt.Fprintf(w, "  %s: %s\n", safetext.Line(pr.Path), safetext.Line(pr.Reason))
	}
	if len(rep.Models) == 0 {
		fmt.Fprintln(w, "no assistant responses with usage found; nothing to tune")
	}
	for i := range rep.Models {
		fmt.Fprintln(w)
		renderModel(w, &rep.Models[i], rep.Lead, g, p, bold, dim)
	}
}

func renderModel(w io.Writer, m *Model, leadN int, g glyphs, p termcolor.Profile, bold, dim func(string) string) {
	cur := m.Current
	fmt.Fprintf(w, "%s %s window %s (%s) %s %s %s %s\n", bold(safetext.Line(m.Model)), g.dot, Tokens(m.Window), WindowNote(m.WindowSource), g.dot, plural(m.Sessions, "session"), g.dot, plural(m.Turns, "turn"))
	d := m.Context
	fmt.Fprintf(w, "context per turn: median %s, p90 %s, p99 %s, max %s\n", Tokens(d.P50), Tokens(d.P90), Tokens(d.P99), Tokens(d.Max))
	peak := 0
	for _, c := range d.Hist {
		peak = max(peak, c)
	}
	labelW := 0
	for i := range d.Hist {
		labelW = max(labelW, len(bucketLabel(i, d.HistStep)))
	}
	countW := len(fmt.Sprint(peak))
	colour := map[string]string{"smart": termcolor.Green, "warn": termcolor.Yellow, "dumb": termcolor.Red, "auto": termcolor.Magenta}
	for i, n := range d.Hist {
		lo, hi := int64(i)*d.HistStep, int64(i+1)*d.HistStep
		zone := cur.zone(lo)
		bar := drawBar(n, peak, g)
		label := fmt.Sprintf("%*s", labelW, bucketLabel(i, d.HistStep))
		var marks []string
		for _, mk := range []struct {
			name string
			at   int64
		}{{"warn", cur.Warn}, {"dumb", cur.Dumb}, {"prep", cur.Prep}, {"auto-compact", cur.AutoCompact}} {
			if mk.at > 0 && mk.at >= lo && mk.at < hi {
				marks = append(marks, mk.name+" "+Tokens(mk.at))
			}
		}
		line := fmt.Sprintf("  %s %s%s %*d", label, p.Paint(bar, colour[zone]), pad("", barWidth-cells(bar)), countW, n)
		if len(marks) > 0 {
			c := colour[zone]
			if strings.HasPrefix(marks[len(marks)-1], "auto-compact") {
				c = colour["auto"]
			}
			line += "  " + p.Paint(g.marker+" "+strings.Join(marks, ", "), c, termcolor.Bold)
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	if m.Auto+m.Manual > 0 {
		fmt.Fprintf(w, "compactions: %d manual, %d auto", m.Manual, m.Auto)
		if m.ObservedAutoCompact > 0 {
			fmt.Fprintf(w, " (auto at a median %s)", Tokens(m.ObservedAutoCompact))
		}
		fmt.Fprintln(w)
		from := max(0, len(m.Compactions)-maxListed)
		if from > 0 {
			fmt.Fprintf(w, "  ... %d earlier (--json lists all)\n", from)
		}
		for _, c := range m.Compactions[from:] {
			ts := "unknown time"
			if !c.Time.IsZero() {
				ts = c.Time.UTC().Format("2006-01-02 15:04")
			}
			post := "?" // not recorded (1.0.x to early 2.1.x): unknown, not 0
			if c.PostTokens != nil {
				post = Tokens(*c.PostTokens)
			}
			// trigger and session come from the transcript: one safe line each
			fmt.Fprintf(w, "  %s  %-6s %s %s %s after %s  %s\n", ts, safetext.Line(c.Trigger), Tokens(c.PreTokens), g.arrow, post, plural(c.Turns, "turn"), dim(safetext.Line(short(c.Session))))
		}
	} else {
		fmt.Fprintln(w, "compactions: none")
	}
	if m.Auto > 0 {
		fmt.Fprintf(w, "first crossing before an auto-compact (responses after it, median / least; time):\n")
		for _, z := range m.Leads {
			if z.Crossed == 0 {
				fmt.Fprintf(w, "  %-4s %-5s crossed before 0 of %d\n", z.Zone, Tokens(z.Threshold), z.Of)
				continue
			}
			fmt.Fprintf(w, "  %-4s %-5s crossed before %d of %d: %s / %d turns; %s\n", z.Zone, Tokens(z.Threshold), z.Crossed, z.Of, num(z.MedianTurns), z.MinTurns, duration(z.MedianSeconds))
		}
		fmt.Fprintf(w, "prep %s warned at least %d responses ahead: %d of %s\n", Tokens(cur.Prep), leadN, m.InTime.Warned, plural(m.InTime.Of, "auto-compaction"))
	}
	s := m.Suggested
	state := "same as now"
	if s.Changed {
		state = "differs from now"
	}
	fmt.Fprintf(w, "suggested (%s):\n", state)
	for _, l := range strings.Split(strings.TrimRight(Block(s), "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", l)
	}
	for _, why := range []string{s.WhyWarn, s.WhyDumb, s.WhyPrep} {
		fmt.Fprintf(w, "  %s %s\n", dim("#"), dim(why))
	}
}

// drawBar draws n of peak as a bar up to barWidth cells.
func drawBar(n, peak int, g glyphs) string {
	if n == 0 || peak == 0 {
		return ""
	}
	eighthsTotal := n * barWidth * 8 / peak
	if eighthsTotal == 0 {
		eighthsTotal = 1 // a bucket with turns always shows
	}
	if g.full != unicodeGlyphs.full {
		return strings.Repeat(g.full, max(1, (eighthsTotal+4)/8))
	}
	s := strings.Repeat(g.full, eighthsTotal/8)
	if r := eighthsTotal % 8; r > 0 {
		s += eighths[r-1]
	}
	return s
}

// pad right-pads s to n cells; every glyph used in bars is one cell wide.
func pad(s string, n int) string {
	if c := cells(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}

// cells is the width of a bar: every glyph in one is one cell wide.
func cells(s string) int { return len([]rune(s)) }

func bucketLabel(i int, step int64) string {
	return Tokens(int64(i)*step) + "-" + Tokens(int64(i+1)*step)
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func num(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprint(int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

// duration formats seconds for people: 45s, 12m, 3.5h.
func duration(s float64) string {
	switch {
	case s < 90:
		return fmt.Sprintf("%.0fs", s)
	case s < 90*60:
		return fmt.Sprintf("%.0fm", s/60)
	}
	return fmt.Sprintf("%.1fh", s/3600)
}

// Bytes formats a byte count: 512 B, 1.5 MB, 2.0 GB (binary units).
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Block returns the suggested [[model]] block as TOML.
func Block(s Suggestion) string {
	v := values(s)
	return fmt.Sprintf("[[model]]\nmatch = %q\nwarn = %s\ndumb = %s\nprep = %s\n", s.Match, v[0][1], v[1][1], v[2][1])
}

// underscore writes n with _ between thousands, as the config template does: 120_000.
func underscore(n int64) string { return Grouped(n, '_') }

// Grouped writes n with sep between thousands: 120_000 ('_'), 28,085 (',').
func Grouped(n int64, sep byte) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(sep)
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
