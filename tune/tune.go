// Package tune suggests per-model zone thresholds from the user's own Claude Code transcripts:
// the `zoneline tune` command.
//
// Run scans transcripts (streaming, one worker per core, one bounded line buffer each) and
// reports per model the sessions and turns seen, the distribution of context size per turn,
// every compaction, how far ahead of each auto-compaction the warn, dumb and prep thresholds
// were crossed, and a suggested [[model]] block. Chart and SVG draw the distribution with the
// thresholds marked; Edit adds or updates the suggested blocks in the config's text.
//
// A turn is one main-chain assistant response with usage: sidechain (subagent) records are
// skipped and the records Claude Code writes per content block of one response, which repeat
// the same usage, count once (deduplicated by message.id across all files, in path order).
package tune

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/zones"
)

// Options is what Run needs. The caller (cli) resolves paths, config and environment.
type Options struct {
	Paths   []string       // transcript files or folders searched for *.jsonl
	Config  *config.Config // thresholds in force; nil = the defaults
	Lead    int            // responses of warning that count as "in time"; <= 0 = DefaultLead
	Workers int            // <= 0 = one per core
	// Compact returns the auto-compact point for a model and window (environment, Claude
	// Code's settings and config applied); nil = Claude Code's arithmetic alone.
	Compact func(model string, window int64) zones.Compact
	// Windows holds the windows the statusline has seen per model id (from the state dir's
	// session registry); transcripts do not record the window.
	Windows map[string]int64
	// Progress, when not nil, is called from the scan's workers with the bytes read so far and
	// the total to read.
	Progress func(read, total int64)
}

// Report is the result of a scan. It is what `zoneline tune --json` prints.
type Report struct {
	Lead     int       `json:"lead"` // responses of warning counted as "in time"
	Totals   Totals    `json:"totals"`
	Problems []Problem `json:"problems"` // files that could not be read
	Models   []Model   `json:"models"`   // by turns, most first
}

// Totals counts what the scan read.
type Totals struct {
	Files       int   `json:"files"`       // transcript files found
	Bytes       int64 `json:"bytes"`       // bytes read
	Lines       int64 `json:"lines"`       // lines read
	Sessions    int   `json:"sessions"`    // files with at least one turn
	Turns       int   `json:"turns"`       // deduplicated main-chain responses with usage
	Duplicates  int   `json:"duplicates"`  // records skipped as repeats of a message.id already counted
	Compactions int   `json:"compactions"` // compact_boundary records (main chain, deduplicated)
	BadLines    int64 `json:"bad_lines"`   // candidate records that did not parse (half-written lines)
	HugeLines   int64 `json:"huge_lines"`  // lines longer than MaxLine, skipped
	Unreadable  int   `json:"unreadable"`  // files that could not be opened or read
	Vanished    int   `json:"vanished"`    // files deleted between listing and reading
	Unassigned  int   `json:"unassigned"`  // compactions in files with no turns to name a model
	ElapsedMS   int64 `json:"-"`           // wall time of the scan
}

// Problem is a file that could not be read.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Model is everything found for one model id.
type Model struct {
	Model        string `json:"model"`
	Window       int64  `json:"window"`
	WindowSource string `json:"window_source"` // "statusline" (seen by zoneline), "observed" (a turn above 200k), "model id", "config", "model default" or "default" (a guess)
	WindowGuess  bool   `json:"window_guess"`  // nothing was known of the window: WindowSource "default"
	Sessions     int    `json:"sessions"`
	Turns        int    `json:"turns"`
	Context      Dist   `json:"context"` // context tokens per turn

	Compactions []Compaction `json:"compactions"`
	Manual      int          `json:"manual"`
	Auto        int          `json:"auto"`
	// ObservedAutoCompact is the median preTokens of the auto-compactions; 0 when none.
	ObservedAutoCompact int64 `json:"observed_auto_compact"`

	Current   Thresholds `json:"current"`
	Leads     []ZoneLead `json:"leads"`        // per threshold: how far ahead of auto-compactions it was crossed
	InTime    InTime     `json:"prep_in_time"` // how often the current prep threshold warned in time
	Suggested Suggestion `json:"suggested"`
}

// Dist is a distribution of token counts.
type Dist struct {
	Min int64 `json:"min"`
	P10 int64 `json:"p10"`
	P25 int64 `json:"p25"`
	P50 int64 `json:"p50"`
	P75 int64 `json:"p75"`
	P90 int64 `json:"p90"`
	P99 int64 `json:"p99"`
	Max int64 `json:"max"`
	// Hist counts turns per bucket of HistStep tokens, from 0.
	HistStep int64 `json:"hist_step"`
	Hist     []int `json:"hist"`
}

// Compaction is one compact_boundary record.
type Compaction struct {
	Session    string    `json:"session"`
	Trigger    string    `json:"trigger"` // "auto" or "manual"
	PreTokens  int64     `json:"pre_tokens"`
	PostTokens *int64    `json:"post_tokens"` // null when the boundary did not record it (1.0.x to early 2.1.x): unknown, not 0
	Time       time.Time `json:"time"`
	Turns      int       `json:"turns"` // turns since the previous compaction (or the session start)
	// InTimeAt is, for an auto-compaction, the highest threshold that would have been crossed
	// at least Lead responses before it; 0 when none (fewer turns than that).
	InTimeAt int64 `json:"in_time_at,omitempty"`
	file     string
	epoch    []point
}

// point is one turn of an epoch: its context and time.
type point struct {
	ctx int64
	ms  int64
}

// Thresholds are the values in force for a model.
type Thresholds struct {
	Warn              int64  `json:"warn"`
	Dumb              int64  `json:"dumb"`
	Prep              int64  `json:"prep"`
	AutoCompact       int64  `json:"auto_compact"` // 0 when auto-compact is off
	AutoCompactSource string `json:"auto_compact_source"`
}

// zone names the zone of a context of tokens under these thresholds ("smart", "warn", "dumb").
func (t Thresholds) zone(tokens int64) string {
	return zones.Classify(tokens, zones.Thresholds{Warn: t.Warn, Dumb: t.Dumb}).String()
}

// ZoneLead is how far ahead of the auto-compactions one threshold was first crossed.
type ZoneLead struct {
	Zone          string  `json:"zone"` // "warn", "dumb" or "prep"
	Threshold     int64   `json:"threshold"`
	Crossed       int     `json:"crossed"`        // auto-compactions whose epoch crossed it
	Of            int     `json:"of"`             // auto-compactions
	MedianTurns   float64 `json:"median_turns"`   // responses after the crossing, before the compaction
	MinTurns      int     `json:"min_turns"`      //
	MedianSeconds float64 `json:"median_seconds"` // from the crossing response to the compaction
}

// InTime counts auto-compactions the prep threshold warned at least Lead responses ahead.
type InTime struct {
	Warned int `json:"warned"`
	Of     int `json:"of"`
}

// Suggestion is a suggested [[model]] block, each value with its reason.
type Suggestion struct {
	Match   string `json:"match"`
	Warn    int64  `json:"warn"`
	Dumb    int64  `json:"dumb"`
	Prep    int64  `json:"prep"`
	PrepSet string `json:"prep_spec"` // what --write puts in prep: "dumb" or a token count
	WhyWarn string `json:"why_warn"`
	WhyDumb string `json:"why_dumb"`
	WhyPrep string `json:"why_prep"`
	Changed bool   `json:"changed"` // differs from the thresholds in force
}

// Run scans the transcripts and builds the report.
func Run(o Options) (*Report, error) {
	start := time.Now()
	o = o.defaults()
	files, sizes, problems, err := Find(o.Paths)
	if err != nil {
		return nil, err
	}
	results := scanFiles(files, sizes, o.Workers, o.Progress)
	rep := analyze(o, results, problems)
	rep.Totals.Files = len(files)
	rep.Totals.ElapsedMS = time.Since(start).Milliseconds()
	return rep, nil
}

// defaults fills the zero fields of o.
func (o Options) defaults() Options {
	if o.Config == nil {
		o.Config = config.Default()
	}
	if o.Lead <= 0 {
		o.Lead = DefaultLead
	}
	return o
}

// modelAcc gathers one model's turns and compactions during the merge.
type modelAcc struct {
	name     string
	ctx      []int64
	sessions int
	lastFile int
	comps    []Compaction
	maxSeen  int64
}

// analyze merges the per-file results in path order and computes every figure.
func analyze(o Options, results []fileResult, problems []fileResult) *Report {
	rep := &Report{Lead: o.Lead, Problems: []Problem{}, Models: []Model{}}
	t := &rep.Totals
	for _, p := range problems {
		t.Unreadable++
		rep.Problems = append(rep.Problems, Problem{Path: p.path, Reason: p.err.Error()})
	}
	seenIDs := map[uint64]struct{}{}
	seenComp := map[uint64]struct{}{}
	models := map[string]*modelAcc{}
	acc := func(name string) *modelAcc {
		m := models[name]
		if m == nil {
			m = &modelAcc{name: name, lastFile: -1}
			models[name] = m
		}
		return m
	}
	for fi := range results {
		r := &results[fi]
		t.Bytes += r.read
		t.Lines += r.lines
		t.BadLines += r.bad
		t.HugeLines += r.huge
		switch {
		case r.vanished:
			t.Vanished++
			continue
		case r.err != nil:
			t.Unreadable++
			rep.Problems = append(rep.Problems, Problem{Path: r.path, Reason: r.err.Error()})
			if len(r.turns) == 0 && len(r.compacts) == 0 {
				continue
			}
		}
		var (
			epoch     []point
			lastModel string
			kept      int
			ci        int
		)
		flush := func(upTo int) {
			for ; ci < len(r.compacts) && r.compacts[ci].at <= upTo; ci++ {
				ce := r.compacts[ci]
				h := compactionKey(r.sessionID, ce)
				if _, dup := seenComp[h]; dup {
					continue
				}
				seenComp[h] = struct{}{}
				t.Compactions++
				model := lastModel
				if model == "" {
					model = nextModel(r.turns, ce.at)
				}
				if model == "" {
					t.Unassigned++
					continue
				}
				c := Compaction{Session: r.sessionID, Trigger: ce.c.Trigger, PreTokens: ce.c.PreTokens,
					Time: ce.c.Time, Turns: len(epoch), file: r.path}
				if ce.c.PostKnown {
					c.PostTokens = &ce.c.PostTokens
				}
				if c.Trigger == "auto" {
					c.epoch = epoch
				}
				m := acc(model)
				m.comps = append(m.comps, c)
				m.maxSeen = max(m.maxSeen, c.PreTokens)
				epoch = nil
			}
		}
		for ti, tu := range r.turns {
			flush(ti)
			if tu.id != 0 {
				if _, dup := seenIDs[tu.id]; dup {
					t.Duplicates++
					continue
				}
				seenIDs[tu.id] = struct{}{}
			}
			kept++
			lastModel = tu.model
			m := acc(tu.model)
			m.ctx = append(m.ctx, tu.ctx)
			m.maxSeen = max(m.maxSeen, tu.ctx)
			if m.lastFile != fi {
				m.lastFile = fi
				m.sessions++
			}
			epoch = append(epoch, point{tu.ctx, tu.ms})
		}
		flush(len(r.turns))
		if kept > 0 {
			t.Sessions++
			t.Turns += kept
		}
	}
	names := make([]string, 0, len(models))
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rep.Models = append(rep.Models, o.model(models[n]))
	}
	slices.SortStableFunc(rep.Models, func(a, b Model) int { return cmp.Compare(b.Turns, a.Turns) })
	return rep
}

// compactionKey identifies a compaction across files (a resumed session repeats its history).
func compactionKey(session string, ce compactEvent) uint64 {
	return maphash.String(seed(), fmt.Sprintf("%s|%s|%d|%d|%d", session, ce.c.Trigger, ce.c.PreTokens, ce.c.PostTokens, ce.c.Time.UnixNano()))
}

// nextModel returns the model of the first turn at or after index at, or "".
func nextModel(turns []turn, at int) string {
	if at < len(turns) {
		return turns[at].model
	}
	return ""
}

// model computes one model's figures.
func (o Options) model(a *modelAcc) Model {
	slices.SortStableFunc(a.comps, func(x, y Compaction) int { return x.Time.Compare(y.Time) })
	m := Model{Model: a.name, Sessions: a.sessions, Turns: len(a.ctx), Compactions: a.comps}
	var autoPre []int64
	for _, c := range a.comps {
		if c.Trigger == "auto" {
			autoPre = append(autoPre, c.PreTokens)
		}
	}
	if len(autoPre) > 0 {
		m.ObservedAutoCompact = percentile(sorted(autoPre), 0.5)
	}
	m.Window, m.WindowSource = o.window(a.name, a.maxSeen, m.ObservedAutoCompact)
	m.WindowGuess = m.WindowSource == WindowGuess
	m.Context = distribution(a.ctx)
	rules := o.Config.Rules()
	th, rule := zones.Resolve(rules, a.name, m.Window)
	compact := o.compact(a.name, m.Window)
	prep, _ := zones.Prep(o.Config.Prep(rule), th, m.Window, compact)
	m.Current = Thresholds{Warn: th.Warn, Dumb: th.Dumb, Prep: prep, AutoCompact: compact.Point, AutoCompactSource: compact.Source}
	m.Context.HistStep, m.Context.Hist = histogram(a.ctx, max(m.Context.Max, th.Dumb, prep, compact.Point))

	var manual, safe []int64
	for i := range m.Compactions {
		c := &m.Compactions[i]
		switch c.Trigger {
		case "manual":
			m.Manual++
			manual = append(manual, c.PreTokens)
		case "auto":
			m.Auto++
			c.InTimeAt = inTimeAt(c.epoch, o.Lead)
			safe = append(safe, c.InTimeAt)
			if c.InTimeAt >= prep {
				m.InTime.Warned++
			}
		}
	}
	m.InTime.Of = m.Auto
	for _, z := range []struct {
		name string
		at   int64
	}{{"warn", th.Warn}, {"dumb", th.Dumb}, {"prep", prep}} {
		m.Leads = append(m.Leads, lead(z.name, z.at, m.Compactions))
	}
	m.Suggested = o.suggest(m, manual, safe, compact)
	for i := range m.Compactions {
		m.Compactions[i].epoch = nil
	}
	return m
}

// window decides a model's window: what the statusline saw, else what zones.Window makes of
// the id and config, raised to the next known window when a turn went past it (unless its
// auto-compactions came below it).
func (o Options) window(model string, maxSeen, autoMedian int64) (int64, string) {
	if w := o.Windows[model]; w > 0 {
		return w, WindowStatusline
	}
	w := zones.Window(0, model, o.Config.Window)
	// Tokens above the window prove it larger (unless its auto-compactions came below it):
	// the status line's rule, zones.SessionWindow.
	if h := zones.SessionWindow(0, model, o.Config.Window, maxSeen); h > w && (autoMedian == 0 || autoMedian > w) {
		return h, WindowObserved
	}
	_, known := zones.ModelWindow(model)
	switch {
	case strings.Contains(strings.ToLower(model), "[1m]"):
		return w, WindowModelID
	case o.Config.Window > 0:
		return w, WindowConfig
	case known:
		return w, WindowModelDefault
	}
	return w, WindowGuess
}

// Where a model's window came from (Model.WindowSource).
const (
	WindowStatusline   = "statusline"    // seen by zoneline's status line
	WindowObserved     = "observed"      // a turn went past 200k
	WindowModelID      = "model id"      // a "[1m]" id
	WindowConfig       = "config"        // the config's window
	WindowModelDefault = "model default" // Claude Code's default for this model (zones.ModelWindow)
	WindowGuess        = "default"       // nothing known: the 200k default, a guess
)

// WindowNote is how a report says where a model's window came from, and that it is a guess
// when nothing was known.
func WindowNote(source string) string {
	switch source {
	case WindowGuess:
		return "a guess: the default, no window known for this model"
	case WindowModelDefault:
		return "the model's default in Claude Code"
	}
	return source
}

func (o Options) compact(model string, window int64) zones.Compact {
	if o.Compact != nil {
		return o.Compact(model, window)
	}
	return zones.AutoCompact(zones.CompactInput{Window: window})
}

// inTimeAt returns the highest threshold crossed at least lead responses before the end of
// the epoch: the largest context among all but its last lead turns.
func inTimeAt(epoch []point, lead int) int64 {
	var best int64
	for i := 0; i < len(epoch)-lead; i++ {
		best = max(best, epoch[i].ctx)
	}
	return best
}

// lead measures how far ahead of each auto-compaction threshold at was first crossed.
func lead(zone string, at int64, comps []Compaction) ZoneLead {
	z := ZoneLead{Zone: zone, Threshold: at, MinTurns: -1}
	var turns, secs []float64
	for _, c := range comps {
		if c.Trigger != "auto" {
			continue
		}
		z.Of++
		for i, p := range c.epoch {
			if p.ctx < at {
				continue
			}
			z.Crossed++
			n := len(c.epoch) - 1 - i
			turns = append(turns, float64(n))
			if z.MinTurns < 0 || n < z.MinTurns {
				z.MinTurns = n
			}
			if p.ms > 0 && !c.Time.IsZero() {
				secs = append(secs, max(0, float64(c.Time.UnixMilli()-p.ms)/1000))
			}
			break
		}
	}
	z.MedianTurns, z.MedianSeconds = median(turns), median(secs)
	if z.MinTurns < 0 {
		z.MinTurns = 0
	}
	return z
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

func sorted(v []int64) []int64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s
}

// percentile returns the nearest-rank percentile p (0..1) of the sorted values s.
func percentile(s []int64, p float64) int64 {
	if len(s) == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func distribution(v []int64) Dist {
	if len(v) == 0 {
		return Dist{}
	}
	s := sorted(v)
	return Dist{Min: s[0], P10: percentile(s, 0.10), P25: percentile(s, 0.25), P50: percentile(s, 0.50),
		P75: percentile(s, 0.75), P90: percentile(s, 0.90), P99: percentile(s, 0.99), Max: s[len(s)-1]}
}

func roundTo(v int64) int64   { return (v + Round/2) / Round * Round }
func roundDown(v int64) int64 { return v / Round * Round }

// suggest builds the suggested block. Each value comes with the one-line reason shown to the
// user.
func (o Options) suggest(m Model, manual, safe []int64, c zones.Compact) Suggestion {
	def := zones.Clamp(zones.Defaults(m.Model, m.Window), m.Window)
	cur := m.Current
	s := Suggestion{Match: m.Model, Warn: cur.Warn, Dumb: cur.Dumb}

	lo, hi := int64(float64(def.Dumb)*DumbLow), int64(float64(def.Dumb)*DumbHigh)
	if c.Enabled && c.Point > 0 {
		hi = min(hi, c.Point-zones.PrepBeforeCompact)
	}
	hi = max(hi, lo)
	if len(manual) >= MinManual {
		p := percentile(sorted(manual), ManualPercentile)
		s.Dumb = max(lo, min(hi, roundTo(p)))
		s.WhyDumb = fmt.Sprintf("dumb %s: the %d%% point of your %d manual compactions (%s), rounded, kept within %s to %s",
			Tokens(s.Dumb), int(ManualPercentile*100), len(manual), Tokens(p), Tokens(lo), Tokens(hi))
		if def.Dumb > 0 {
			s.Warn = max(Round, roundTo(s.Dumb*def.Warn/def.Dumb))
		}
		s.WhyWarn = fmt.Sprintf("warn %s: keeps the default ratio to dumb (%s : %s)", Tokens(s.Warn), Tokens(def.Warn), Tokens(def.Dumb))
	} else {
		s.WhyDumb = fmt.Sprintf("dumb %s: unchanged; %s, %d needed to learn your preference", Tokens(s.Dumb), plural(len(manual), "manual compaction"), MinManual)
		s.WhyWarn = fmt.Sprintf("warn %s: unchanged, follows dumb", Tokens(s.Warn))
	}
	s.Warn = min(s.Warn, s.Dumb)

	s.Prep, s.PrepSet = s.Dumb, "dumb"
	switch {
	case len(safe) < MinAuto:
		s.WhyPrep = fmt.Sprintf("prep at dumb: %s, %d needed to check the warning comes in time", plural(len(safe), "auto-compaction"), MinAuto)
	default:
		sf := sorted(safe)
		v := sf[int(math.Floor((1-InTimeGoal)*float64(len(sf))))]
		goal := int(math.Round(InTimeGoal * 100))
		switch p := roundDown(v); {
		case p >= s.Dumb:
			s.WhyPrep = fmt.Sprintf("prep at dumb (%s): crossed at least %d responses before %d%% of your %d auto-compactions", Tokens(s.Dumb), o.Lead, goal, len(sf))
		case p < max(Round, s.Warn):
			s.Prep, s.PrepSet = max(Round, s.Warn), "warn"
			s.WhyPrep = fmt.Sprintf("prep at warn (%s): no threshold above it warns %d responses ahead of %d%% of your auto-compactions (they come within a few turns)", Tokens(s.Prep), o.Lead, goal)
		default:
			s.Prep, s.PrepSet = p, fmt.Sprint(p)
			s.WhyPrep = fmt.Sprintf("prep %s: the highest point crossed at least %d responses before %d%% of your %d auto-compactions", Tokens(p), o.Lead, goal, len(sf))
		}
	}
	if c.Enabled && c.Point > zones.PrepBeforeCompact && s.Prep > c.Point-zones.PrepBeforeCompact {
		s.Prep = c.Point - zones.PrepBeforeCompact
		s.PrepSet = fmt.Sprint(s.Prep)
	}
	s.Changed = s.Warn != cur.Warn || s.Dumb != cur.Dumb || s.Prep != cur.Prep
	return s
}

// Tokens formats a token count for people: 950, 12k, 167k, 1.2M.
func Tokens(n int64) string {
	switch {
	case n >= 1_000_000:
		if n%1_000_000 == 0 {
			return fmt.Sprintf("%dM", n/1_000_000)
		}
		return fmt.Sprintf("%.2gM", float64(n)/1e6)
	case n >= 1000:
		if n%1000 == 0 || n >= 100_000 {
			return fmt.Sprintf("%dk", (n+500)/1000)
		}
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

// ModelWindow is the window tune decides for a model (Model.Window, Model.WindowSource) from
// the largest context seen and the median preTokens of its auto-compactions (0: none), for
// other reports over the same transcripts (`zoneline report`).
func (o Options) ModelWindow(model string, maxSeen, autoMedian int64) (int64, string) {
	return o.defaults().window(model, maxSeen, autoMedian)
}
