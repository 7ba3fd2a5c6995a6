package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/tune"
)

// RenderOptions is how the terminal summary is drawn.
type RenderOptions struct {
	Profile termcolor.Profile // colour; termcolor.Ascii for none
	Verbose bool              // every compaction, loop and band
}

// Render writes the report for people: one screen, details with Verbose. Every string that
// came from a transcript passes safetext.Field.
func Render(w io.Writer, rep *Report, o RenderOptions) {
	p := o.Profile
	bold := func(s string) string { return p.Paint(s, termcolor.Bold) }
	dim := func(s string) string { return p.Paint(s, termcolor.Faint) }
	red := func(s string) string { return p.Paint(s, termcolor.Red) }
	t := rep.Totals
	since := "the whole history"
	if rep.Since != nil {
		since = "since " + rep.Since.Format("2006-01-02 15:04 UTC")
	}
	fmt.Fprintf(w, "%s %s, %s, %s, %s (%s)\n", bold("read"), plural(t.Files-t.Skipped, "transcript"), tune.Bytes(t.Bytes),
		plural(t.Sessions, "session"), plural(int(t.Turns), "turn"), since)
	if rep.Model != "" {
		fmt.Fprintf(w, "models matching %q only\n", safetext.Field(rep.Model, 60))
	}
	if t.Unreadable > 0 || t.BadLines > 0 || t.HugeLines > 0 {
		fmt.Fprintf(w, "%s %d unreadable, %d unparsable lines, %d lines over %s\n", dim("skipped:"), t.Unreadable, t.BadLines, t.HugeLines, tune.Bytes(tune.MaxLine))
	}
	for _, pr := range rep.Problems {
		fmt.Fprintf(w, "  %s: %s\n", safetext.Field(pr.Path, 200), safetext.Field(pr.Reason, 200))
	}
	renderCompactions(w, rep, o, bold, dim, red)
	renderLost(w, rep, o, bold, dim)
	renderZones(w, rep, o, bold, dim, red)
}

func renderCompactions(w io.Writer, rep *Report, o RenderOptions, bold, dim, red func(string) string) {
	c := rep.Compactions
	fmt.Fprintf(w, "\n%s %d (%d auto, %d manual", bold("Compactions"), c.Total, c.Auto, c.Manual)
	if c.Unknown > 0 {
		fmt.Fprintf(w, ", %d marked only by a summary", c.Unknown)
	}
	fmt.Fprint(w, ")")
	if c.ReclaimedOf > 0 {
		fmt.Fprintf(w, " · reclaimed %s tokens (the %s that recorded both counts)", tune.Tokens(c.Reclaimed), plural(c.ReclaimedOf, "compaction"))
	}
	fmt.Fprintln(w)
	if c.Total == 0 {
		fmt.Fprintln(w, "  none in the transcripts read")
		return
	}
	for _, m := range c.PerModel {
		fmt.Fprintf(w, "  %-28s %3d auto %3d manual", safetext.Field(m.Model, 28), m.Auto, m.Manual)
		if m.Unknown > 0 {
			fmt.Fprintf(w, " %3d unknown", m.Unknown)
		}
		fmt.Fprintln(w)
	}
	if c.Prepared.Unknown == c.Total && c.Restored.Unknown == c.Total && c.Resume.Unknown == c.Total {
		fmt.Fprintf(w, "  prepared, restored, resumed on plan: unknown %s\n", dim("(zoneline's state holds none of these sessions)"))
	} else {
		fmt.Fprintf(w, "  prepared (a fresh checkpoint) %s · restored %s · resume on plan %d, off plan %d, unknown %d\n",
			tallyText(c.Prepared), tallyText(c.Restored), c.Resume.On, c.Resume.Off, c.Resume.Unknown)
	}
	if len(c.Loops) == 0 {
		fmt.Fprintf(w, "  loops: none (%d+ compactions each within %d turns, or one reclaiming under %d %%)\n", LoopRun, LoopTurns, int(LittleShare*100))
	}
	for _, l := range c.Loops {
		fmt.Fprintf(w, "  %s session %s, %s: %s\n", red("loop"), safetext.Field(l.Session, 40), when(l.Start), safetext.Field(l.Reason, 120))
	}
	if o.Verbose {
		for _, x := range c.List {
			post := "?"
			if x.PostTokens != nil {
				post = tune.Tokens(*x.PostTokens)
			}
			trig := x.Trigger
			if trig == "" {
				trig = "unknown"
			}
			fmt.Fprintf(w, "    %s %s %-6s %s → %s after %s · %s · prepared %s, restored %s, resume %s\n", when(x.Time), safetext.Field(x.Session, 40),
				trig, tune.Tokens(x.PreTokens), post, plural(x.TurnsSince, "turn"), safetext.Field(x.Model, 40), x.Prepared, x.Restored, x.Resume)
		}
	}
}

func tallyText(t Tally) string {
	return fmt.Sprintf("%d yes, %d no, %d unknown", t.Yes, t.No, t.Unknown)
}

func renderLost(w io.Writer, rep *Report, o RenderOptions, bold, dim func(string) string) {
	l := rep.Lost
	fmt.Fprintf(w, "\n%s (%s in the transcripts)\n", bold("What the summaries lost"), plural(l.Summaries, "summary"))
	if l.Summaries == 0 {
		fmt.Fprintln(w, "  no compaction summary found")
		return
	}
	fmt.Fprintf(w, "  %s\n", l.Line)
	if l.SkillLoads == 0 {
		fmt.Fprintf(w, "  %s\n", dim("no skill was loaded before a compaction"))
	}
	if l.NoText > 0 {
		fmt.Fprintf(w, "  %s\n", dim(plural(l.NoText, "skill load")+" whose text the transcript does not hold (named only)"))
	}
	if l.NoID > 0 {
		fmt.Fprintf(w, "  %s\n", dim(plural(l.NoID, "external action")+" without an id to keep"))
	}
	if !o.Verbose {
		return
	}
	for _, c := range rep.Compactions.List {
		if !c.Summary || len(c.Skills)+len(c.Actions) == 0 {
			continue
		}
		fmt.Fprintf(w, "    %s %s:\n", when(c.Time), safetext.Field(c.Session, 40))
		for _, s := range c.Skills {
			named := "not named"
			if s.Named {
				named = "named"
			}
			fmt.Fprintf(w, "      skill %s: %s of %s phrases kept, %s\n", safetext.Field(s.Name, 60), Count(int64(s.Kept)), Count(int64(s.Phrases)), named)
		}
		for _, a := range c.Actions {
			kept := "lost"
			if a.Kept {
				kept = "kept"
			}
			fmt.Fprintf(w, "      %s %s: %s\n", safetext.Field(a.Kind, 12), safetext.Field(a.ID, 80), kept)
		}
	}
}

func renderZones(w io.Writer, rep *Report, o RenderOptions, bold, dim, red func(string) string) {
	fmt.Fprintf(w, "\n%s (your thresholds; per 100 tool calls, counts beside)\n", bold("The zones as lived"))
	if len(rep.Zones) == 0 {
		fmt.Fprintln(w, "  no assistant responses with usage found")
	}
	for _, m := range rep.Zones {
		fmt.Fprintf(w, "  %s · window %s (%s) · warn %s, dumb %s · %s\n", bold(safetext.Field(m.Model, 60)), tune.Tokens(m.Window),
			tune.WindowNote(m.WindowSource), tune.Tokens(m.Warn), tune.Tokens(m.Dumb), plural(m.Sessions, "session"))
		fmt.Fprintf(w, "    %-6s %8s %10s  %-22s %s\n", "zone", "turns", "tool calls", "errors", "interruptions")
		for _, z := range m.Zones {
			fmt.Fprintf(w, "    %-6s %8s %10s  ", z.Zone, Count(z.Turns), Count(z.Calls))
			if !z.Enough {
				fmt.Fprintf(w, "%s\n", dim(fmt.Sprintf("too little data (%s errors, %s interruptions in %s calls; %d needed)", Count(z.Errors), Count(z.Interrupts), Count(z.Calls), MinCalls)))
				continue
			}
			fmt.Fprintf(w, "%-22s %s\n", rateText(z.Errors, z.ErrorRate), rateText(z.Interrupts, z.IntRate))
		}
		note := m.RiseNote
		if m.RiseAt > 0 {
			note = red(note)
		}
		fmt.Fprintf(w, "    %s\n", note)
		if o.Verbose {
			for _, b := range m.Bands {
				if b.Turns == 0 && b.Calls == 0 {
					continue
				}
				fmt.Fprintf(w, "      %7s  %6s turns %7s calls %6s errors %5s interruptions\n", tune.Tokens(b.From)+"+", Count(b.Turns), Count(b.Calls), Count(b.Errors), Count(b.Interrupts))
			}
		}
	}
}

func rateText(n int64, r *float64) string {
	if r == nil {
		return Count(n)
	}
	return fmt.Sprintf("%.1f (%s)", *r, Count(n))
}

func when(t time.Time) string {
	if t.IsZero() {
		return "(no time)"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return Count(int64(n)) + " " + strings.TrimSuffix(noun, "y") + "ies"
	}
	return Count(int64(n)) + " " + noun + "s"
}
