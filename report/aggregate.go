package report

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/tune"
	"github.com/zoneline/zoneline/zones"
)

// Run reads the transcripts and builds the report.
func Run(o Options) (*Report, error) {
	start := time.Now()
	if o.Config == nil {
		o.Config = config.Default()
	}
	files, sizes, problems, err := tune.Find(o.Paths)
	if err != nil {
		return nil, err
	}
	results, workers := scanFiles(files, sizes, o)
	rep := &Report{Model: o.Model, Problems: []Problem{}, Zones: []ModelZones{}}
	if !o.Since.IsZero() {
		t := o.Since.UTC()
		rep.Since = &t
	}
	rep.Totals.Files = len(files)
	rep.Totals.Unreadable = len(problems)
	var comps []Compaction
	seen := map[string]bool{}
	for i := range results {
		r := &results[i]
		t := &rep.Totals
		t.Bytes += r.read
		t.Lines += r.lines
		t.BadLines += r.bad
		t.HugeLines += r.huge
		switch {
		case r.skipped:
			t.Skipped++
			continue
		case r.vanished:
			continue
		case r.err != nil:
			t.Unreadable++
			rep.Problems = append(rep.Problems, Problem{Path: r.path, Reason: r.err.Error()})
		}
		if r.turns {
			t.Sessions++
		}
		for _, c := range r.comps {
			// A resumed session's file repeats the history it continues: count each once.
			key := fmt.Sprintf("%s|%s|%s|%d|%d", c.Session, c.UUID, c.Trigger, c.PreTokens, c.Time.UnixNano())
			if seen[key] || !o.match(c.Model) {
				continue
			}
			seen[key] = true
			comps = append(comps, c)
		}
	}
	slices.SortStableFunc(comps, func(a, b Compaction) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.File, b.File))
	})
	o.enrich(comps)
	rep.Compactions = compactions(comps)
	rep.Lost = lost(comps)
	rep.Zones = o.zonesLived(workers, comps)
	for _, z := range rep.Zones {
		rep.Totals.Turns += z.Turns
		for _, s := range z.Zones {
			rep.Totals.ToolCalls += s.Calls
		}
	}
	rep.Totals.ElapsedMS = time.Since(start).Milliseconds()
	return rep, nil
}

// match reports whether a model passes the -model filter.
func (o Options) match(model string) bool {
	return o.Model == "" || strings.Contains(strings.ToLower(model), strings.ToLower(o.Model))
}

// enrich sets each compaction's prepared, restored and resume figures from zoneline's state.
func (o Options) enrich(comps []Compaction) {
	bySession := map[string][]int{}
	for i := range comps {
		c := &comps[i]
		c.Prepared, c.Restored, c.Resume = "unknown", "unknown", "unknown"
		if c.Skills == nil {
			c.Skills = []Skill{}
		}
		if c.Actions == nil {
			c.Actions = []ActionKept{}
		}
		bySession[c.Session] = append(bySession[c.Session], i)
	}
	if o.State == nil {
		return
	}
	for session, idx := range bySession {
		st, ok := o.State(session)
		if !ok || session == "" {
			continue
		}
		used := map[int]bool{}
		for _, i := range idx {
			c := &comps[i]
			rec, found := nearest(st.Records, c.Time, used)
			if !found {
				continue
			}
			used[rec.N] = true
			c.StateN = rec.N
			c.Restored = "no"
			if rec.Restore != "" {
				c.Restored = "yes"
			}
			if v := st.Verdicts[rec.N]; v == "on" || v == "off" {
				c.Resume = v
			}
			c.Prepared = prepared(st, rec, c.Resume != "unknown")
		}
	}
}

// nearest returns the state record closest in time to a compaction (within stateSlack) not
// yet matched to another.
func nearest(recs []StateRecord, at time.Time, used map[int]bool) (StateRecord, bool) {
	var best StateRecord
	found := false
	if at.IsZero() {
		return best, false
	}
	for _, r := range recs {
		d := r.Time.Sub(at).Abs()
		if used[r.N] || d > stateSlack {
			continue
		}
		if !found || d < best.Time.Sub(at).Abs() {
			best, found = r, true
		}
	}
	return best, found
}

// prepared judges whether a fresh checkpoint existed for the compaction rec. The state keeps
// only the last checkpoint: written after rec, an older one may have been fresh for it, and
// only a resume verdict (armed by a restore that carried a fresh checkpoint) says so.
func prepared(st SessionState, rec StateRecord, verdict bool) string {
	if verdict {
		return "yes"
	}
	if st.Checkpoint.IsZero() {
		return "no"
	}
	var prev checkpoint.Compaction
	for _, r := range st.Records {
		if r.N < rec.N && r.N > prev.N {
			prev = checkpoint.Compaction{N: r.N, Time: r.Time}
		}
	}
	switch {
	case checkpoint.Judge(st.Checkpoint, prev, rec.Time, st.Limit):
		return "yes"
	case st.Checkpoint.After(rec.Time):
		return "unknown"
	}
	return "no"
}

// compactions builds section 1.
func compactions(comps []Compaction) CompactionPart {
	p := CompactionPart{Total: len(comps), PerModel: []ModelCompacts{}, Loops: []Loop{}, List: comps}
	per := map[string]*ModelCompacts{}
	for i := range comps {
		c := &comps[i]
		m := per[c.Model]
		if m == nil {
			m = &ModelCompacts{Model: c.Model}
			per[c.Model] = m
		}
		switch c.Trigger {
		case "auto":
			p.Auto++
			m.Auto++
		case "manual":
			p.Manual++
			m.Manual++
		default:
			p.Unknown++
			m.Unknown++
		}
		tally(&p.Prepared, c.Prepared)
		tally(&p.Restored, c.Restored)
		switch c.Resume {
		case "on":
			p.Resume.On++
		case "off":
			p.Resume.Off++
		default:
			p.Resume.Unknown++
		}
		if c.Reclaimed != nil {
			p.Reclaimed += max(0, *c.Reclaimed)
			p.ReclaimedOf++
		}
	}
	for _, m := range per {
		p.PerModel = append(p.PerModel, *m)
	}
	slices.SortFunc(p.PerModel, func(a, b ModelCompacts) int {
		return cmp.Or(cmp.Compare(b.Auto+b.Manual+b.Unknown, a.Auto+a.Manual+a.Unknown), cmp.Compare(a.Model, b.Model))
	})
	p.Loops = loops(comps)
	return p
}

func tally(t *Tally, v string) {
	switch v {
	case "yes":
		t.Yes++
	case "no":
		t.No++
	default:
		t.Unknown++
	}
}

// loops finds, per session file, runs of LoopRun or more compactions each at most LoopTurns
// turns after the one before, and compactions that reclaimed less than LittleShare of their
// context outside such runs.
func loops(comps []Compaction) []Loop {
	byFile := map[string][]Compaction{}
	var files []string
	for _, c := range comps {
		if _, ok := byFile[c.File]; !ok {
			files = append(files, c.File)
		}
		byFile[c.File] = append(byFile[c.File], c)
	}
	sort.Strings(files)
	out := []Loop{}
	for _, f := range files {
		cs := byFile[f]
		for i := 0; i < len(cs); {
			j := i + 1
			for j < len(cs) && cs[j].TurnsSince <= LoopTurns {
				j++
			}
			if j-i >= LoopRun {
				out = append(out, loopOf(cs[i:j], fmt.Sprintf("%d compactions, each within %d turns of the one before", j-i, LoopTurns)))
			} else {
				for _, c := range cs[i:j] {
					if little(c) {
						out = append(out, loopOf([]Compaction{c}, fmt.Sprintf("reclaimed %s of %s (under %d %%)", tune.Tokens(*c.Reclaimed), tune.Tokens(c.PreTokens), int(LittleShare*100))))
					}
				}
			}
			i = j
		}
	}
	return out
}

// little reports whether a compaction reclaimed less than LittleShare of its context.
func little(c Compaction) bool {
	return c.Reclaimed != nil && c.PreTokens > 0 && float64(*c.Reclaimed) < LittleShare*float64(c.PreTokens)
}

func loopOf(run []Compaction, reason string) Loop {
	l := Loop{Session: run[0].Session, File: run[0].File, Start: run[0].Time, End: run[len(run)-1].Time,
		Compactions: len(run), Reason: reason}
	for k, c := range run {
		if k > 0 {
			l.Turns += c.TurnsSince
		}
		if c.Reclaimed != nil {
			l.Reclaimed += max(0, *c.Reclaimed)
		}
	}
	return l
}

// lost builds section 2 from the compactions whose summary is in the transcript.
func lost(comps []Compaction) LostPart {
	p := LostPart{Actions: []KindKept{}}
	kinds := map[string]*KindKept{}
	for _, c := range comps {
		if !c.Summary {
			continue
		}
		p.Summaries++
		for _, s := range c.Skills {
			p.SkillLoads++
			p.Phrases += s.Phrases
			p.PhrasesKept += s.Kept
			switch {
			case s.Phrases == 0:
				p.NoText++
			case s.Kept == 0:
				p.NoPhraseKept++
			}
			if s.Named {
				p.SkillsNamed++
			}
		}
		for _, a := range c.Actions {
			if strings.TrimSpace(a.ID) == "" {
				p.NoID++
				continue
			}
			k := kinds[a.Kind]
			if k == nil {
				k = &KindKept{Kind: a.Kind}
				kinds[a.Kind] = k
			}
			k.Of++
			if a.Kept {
				k.Kept++
			}
		}
	}
	for _, k := range kinds {
		p.Actions = append(p.Actions, *k)
	}
	slices.SortFunc(p.Actions, func(a, b KindKept) int { return cmp.Compare(kindOrder(a.Kind), kindOrder(b.Kind)) })
	p.Line = lostLine(p)
	return p
}

// kindOrder sorts action kinds as the seeds list them; unknown kinds last, by name.
func kindOrder(kind string) string {
	for i, k := range []string{"pr", "push", "tag", "release", "publish", "deploy", "issue"} {
		if k == kind {
			return fmt.Sprint(i)
		}
	}
	return "9" + kind
}

// kindNoun is how the totals line names an action kind's ids.
func kindNoun(kind string) string {
	switch kind {
	case "pr":
		return "PR numbers"
	case "push":
		return "pushed branches"
	case "tag":
		return "tags"
	case "release":
		return "releases"
	case "publish":
		return "published versions"
	case "deploy":
		return "deploys"
	case "issue":
		return "issue numbers"
	}
	return kind + " ids"
}

// lostLine is the totals in the seeds' form: "phrases kept 39 of 28,085 (0.14 %); skill loads
// with no phrase kept 21 of 28; skill named 5 of 28; PR numbers kept 3 of 4".
func lostLine(p LostPart) string {
	parts := []string{
		fmt.Sprintf("phrases kept %s of %s (%s)", Count(int64(p.PhrasesKept)), Count(int64(p.Phrases)), percent(p.PhrasesKept, p.Phrases)),
		fmt.Sprintf("skill loads with no phrase kept %s of %s", Count(int64(p.NoPhraseKept)), Count(int64(p.SkillLoads-p.NoText))),
		fmt.Sprintf("skill named %s of %s", Count(int64(p.SkillsNamed)), Count(int64(p.SkillLoads))),
	}
	for _, k := range p.Actions {
		parts = append(parts, fmt.Sprintf("%s kept %s of %s", kindNoun(k.Kind), Count(int64(k.Kept)), Count(int64(k.Of))))
	}
	return strings.Join(parts, "; ")
}

// percent is kept/of as "0.14 %", or "no phrases" when of is 0.
func percent(kept, of int) string {
	if of == 0 {
		return "none to keep"
	}
	return fmt.Sprintf("%.2f %%", 100*float64(kept)/float64(of))
}

// Count formats n with thousands separators: 28,085.
func Count(n int64) string { return tune.Grouped(n, ',') }

// zonesLived builds section 3 from the workers' histograms.
func (o Options) zonesLived(ws []*worker, comps []Compaction) []ModelZones {
	merged := map[string]*modelStats{}
	for _, w := range ws {
		for name, m := range w.models {
			if !o.match(name) {
				continue
			}
			t := merged[name]
			if t == nil {
				t = &modelStats{}
				merged[name] = t
			}
			t.sessions += m.sessions
			t.ids = append(t.ids, m.ids...)
			t.maxSeen = max(t.maxSeen, m.maxSeen)
			for i, b := range m.buckets {
				if i >= len(t.buckets) {
					t.buckets = append(t.buckets, make([]bucket, i+1-len(t.buckets))...)
				}
				x := &t.buckets[i]
				x.turns += b.turns
				x.calls += b.calls
				x.errors += b.errors
				x.interrupts += b.interrupts
			}
		}
	}
	autoPre := map[string][]int64{}
	for _, c := range comps {
		if c.Trigger == "auto" {
			autoPre[c.Model] = append(autoPre[c.Model], c.PreTokens)
		}
	}
	out := []ModelZones{}
	topt := tune.Options{Config: o.Config, Windows: o.Windows}
	for name, m := range merged {
		window, source := topt.ModelWindow(name, m.maxSeen, medianOf(autoPre[name]))
		th, _ := zones.Resolve(o.Config.Rules(), name, window)
		out = append(out, modelZones(name, window, source, th, m))
	}
	slices.SortFunc(out, func(a, b ModelZones) int { return cmp.Or(cmp.Compare(b.Turns, a.Turns), cmp.Compare(a.Model, b.Model)) })
	return out
}

func medianOf(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
