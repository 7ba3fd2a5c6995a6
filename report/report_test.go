package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func run(t *testing.T, o Options) *Report {
	t.Helper()
	rep, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func fixture(name string) []string { return []string{filepath.Join("testdata", name)} }

func TestZonesAsLived(t *testing.T) {
	rep := run(t, Options{Paths: fixture("zones.jsonl")})
	if len(rep.Zones) != 1 {
		t.Fatalf("models = %+v, want one (the sidechain's record is not a turn)", rep.Zones)
	}
	m := rep.Zones[0]
	if m.Model != "claude-opus-4-6" || m.Warn != 80_000 || m.Dumb != 120_000 || m.Turns != 7 || m.Sessions != 1 || len(m.SessionIDs) != 1 || m.SessionIDs[0] != "22222222-2222-4222-8222-222222222222" {
		t.Fatalf("model = %s warn %d dumb %d turns %d sessions %d", m.Model, m.Warn, m.Dumb, m.Turns, m.Sessions)
	}
	want := []struct {
		zone                             string
		turns, calls, errors, interrupts int64
	}{
		{"smart", 3, 3, 1, 1},
		{"warn", 2, 2, 2, 0}, // one response in two records: one turn, two calls
		{"dumb", 2, 2, 1, 2},
	}
	for i, w := range want {
		z := m.Zones[i]
		if z.Zone != w.zone || z.Turns != w.turns || z.Calls != w.calls || z.Errors != w.errors || z.Interrupts != w.interrupts {
			t.Errorf("zone %d = %+v, want %+v", i, z, w)
		}
		if z.Enough {
			t.Errorf("%s: enough data with %d calls", z.Zone, z.Calls)
		}
	}
	if r := m.Zones[1].ErrorRate; r == nil || *r != 100 {
		t.Errorf("warn error rate = %v, want 100 per 100 calls", r)
	}
	if m.RiseAt != 0 || !strings.Contains(m.RiseNote, "too little data") {
		t.Errorf("rise = %d %q, want too little data", m.RiseAt, m.RiseNote)
	}
}

func TestCompactions(t *testing.T) {
	rep := run(t, Options{Paths: fixture("compactions.jsonl")})
	c := rep.Compactions
	if c.Total != 3 || c.Auto != 1 || c.Manual != 1 || c.Unknown != 1 {
		t.Fatalf("compactions = %d (%d auto, %d manual, %d unknown), want 3 (1, 1, 1)", c.Total, c.Auto, c.Manual, c.Unknown)
	}
	if c.Reclaimed != 158_000+111_000 || c.ReclaimedOf != 2 {
		t.Errorf("reclaimed %d of %d, want 269000 of 2", c.Reclaimed, c.ReclaimedOf)
	}
	if len(c.PerModel) != 1 || c.PerModel[0] != (ModelCompacts{Model: "claude-sonnet-4-5-20250929", Auto: 1, Manual: 1, Unknown: 1}) {
		t.Errorf("per model = %+v", c.PerModel)
	}
	for i, turns := range []int{3, 8, 6} {
		x := c.List[i]
		if x.TurnsSince != turns || !x.Summary || x.Session != "33333333-3333-4333-8333-333333333333" {
			t.Errorf("compaction %d: turns %d summary %v session %q, want %d turns with its summary", i, x.TurnsSince, x.Summary, x.Session, turns)
		}
		if x.Prepared != "unknown" || x.Restored != "unknown" || x.Resume != "unknown" {
			t.Errorf("compaction %d without state: %s %s %s, want unknown", i, x.Prepared, x.Restored, x.Resume)
		}
	}
	if c.List[2].PostTokens != nil || c.List[2].Reclaimed != nil {
		t.Errorf("a compaction without postTokens: post %v reclaimed %v, want null", c.List[2].PostTokens, c.List[2].Reclaimed)
	}
	if len(c.Loops) != 0 {
		t.Errorf("loops = %+v, want none", c.Loops)
	}
	if rep.Lost.Summaries != 3 {
		t.Errorf("summaries = %d, want 3", rep.Lost.Summaries)
	}
}

func TestLoops(t *testing.T) {
	rep := run(t, Options{Paths: fixture("loop.jsonl")})
	l := rep.Compactions.Loops
	if len(l) != 2 {
		t.Fatalf("loops = %+v, want a run of four and one that reclaimed little", l)
	}
	if l[0].Compactions != 4 || l[0].Turns != 6 || l[0].Session != "44444444-4444-4444-8444-444444444444" || !strings.Contains(l[0].Reason, "4 compactions") {
		t.Errorf("loop = %+v, want 4 compactions within 6 turns", l[0])
	}
	if l[0].Reclaimed != 120_000+3*10_000 {
		t.Errorf("loop reclaimed %d, want 150000", l[0].Reclaimed)
	}
	if l[1].Compactions != 1 || !strings.Contains(l[1].Reason, "reclaimed 10k of 160k") {
		t.Errorf("little = %+v", l[1])
	}
	if l[0].Start.IsZero() || !l[1].Start.After(l[0].End) {
		t.Errorf("times: %v–%v then %v", l[0].Start, l[0].End, l[1].Start)
	}
}

func TestSinceAndModel(t *testing.T) {
	all := fixture("zones.jsonl")
	all = append(all, fixture("compactions.jsonl")...)
	rep := run(t, Options{Paths: all, Model: "SONNET"})
	if len(rep.Zones) != 1 || rep.Zones[0].Model != "claude-sonnet-4-5-20250929" || rep.Compactions.Total != 3 {
		t.Errorf("-model sonnet: zones %+v, %d compactions", rep.Zones, rep.Compactions.Total)
	}
	rep = run(t, Options{Paths: all, Model: "opus"})
	if len(rep.Zones) != 1 || rep.Compactions.Total != 0 {
		t.Errorf("-model opus: %d models, %d compactions", len(rep.Zones), rep.Compactions.Total)
	}
	// The fixtures' records are from 2026-11-20 10:00 to 10:01; their files are newer.
	since := time.Date(2026, 11, 20, 10, 0, 10, 0, time.UTC)
	rep = run(t, Options{Paths: fixture("compactions.jsonl"), Since: since})
	if rep.Compactions.Total != 2 {
		t.Errorf("since 10:00:10: %d compactions, want the 2 after it", rep.Compactions.Total)
	}
	rep = run(t, Options{Paths: fixture("zones.jsonl"), Since: time.Now().Add(time.Hour)})
	if rep.Totals.Skipped != 1 || len(rep.Zones) != 0 {
		t.Errorf("since the future: skipped %d, zones %d", rep.Totals.Skipped, len(rep.Zones))
	}
}

func TestState(t *testing.T) {
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	at := func(sec int) time.Time { return base.Add(time.Duration(sec) * time.Second) }
	// compactions.jsonl: boundaries at 10:00:05 and 10:00:16, the summary-only one at 10:00:24.
	st := SessionState{
		Records: []StateRecord{
			{N: 1, Time: at(6), Trigger: "auto", Restore: "session_start"},
			{N: 2, Time: at(17), Trigger: "manual"},
		},
		Checkpoint: at(12), // after compaction 1, before 2: fresh for 2
		Verdicts:   map[int]string{2: "off"},
		Limit:      30 * time.Minute,
	}
	rep := run(t, Options{Paths: fixture("compactions.jsonl"), State: func(s string) (SessionState, bool) {
		return st, s == "33333333-3333-4333-8333-333333333333"
	}})
	got := rep.Compactions.List
	want := [][3]string{{"unknown", "yes", "unknown"}, {"yes", "no", "off"}, {"unknown", "unknown", "unknown"}}
	for i, w := range want {
		if g := [3]string{got[i].Prepared, got[i].Restored, got[i].Resume}; g != w {
			t.Errorf("compaction %d: prepared, restored, resume = %v, want %v", i, g, w)
		}
	}
	p := rep.Compactions
	if p.Prepared != (Tally{Yes: 1, Unknown: 2}) || p.Restored != (Tally{Yes: 1, No: 1, Unknown: 1}) || p.Resume != (ResumeTally{Off: 1, Unknown: 2}) {
		t.Errorf("tallies: %+v %+v %+v", p.Prepared, p.Restored, p.Resume)
	}
}

func TestPrepared(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	recs := []StateRecord{{N: 1, Time: t0}, {N: 2, Time: t0.Add(2 * time.Hour)}}
	for _, tc := range []struct {
		name       string
		checkpoint time.Time
		rec        int
		verdict    bool
		want       string
	}{
		{"none written", time.Time{}, 1, false, "no"},
		{"fresh", t0.Add(-10 * time.Minute), 0, false, "yes"},
		{"stale", t0.Add(-2 * time.Hour), 0, false, "no"},
		{"written before the compaction before", t0.Add(-time.Minute), 1, false, "no"},
		{"overwritten later", t0.Add(3 * time.Hour), 0, false, "unknown"},
		{"overwritten, but a verdict proves one", t0.Add(3 * time.Hour), 0, true, "yes"},
	} {
		st := SessionState{Records: recs, Checkpoint: tc.checkpoint, Limit: 30 * time.Minute}
		if got := prepared(st, recs[tc.rec], tc.verdict); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestLostLine(t *testing.T) {
	p := LostPart{Phrases: 28085, PhrasesKept: 39, SkillLoads: 28, NoPhraseKept: 21, SkillsNamed: 5,
		Actions: []KindKept{{Kind: "pr", Kept: 3, Of: 4}}}
	want := "phrases kept 39 of 28,085 (0.14 %); skill loads with no phrase kept 21 of 28; skill named 5 of 28; PR numbers kept 3 of 4"
	if got := lostLine(p); got != want {
		t.Errorf("line =\n%s\nwant\n%s", got, want)
	}
}

func TestLost(t *testing.T) {
	rep := run(t, Options{Paths: fixture("lost.jsonl")})
	l := rep.Lost
	want := "phrases kept 2 of 14 (14.29 %); skill loads with no phrase kept 1 of 2; skill named 1 of 2; PR numbers kept 0 of 1; pushed branches kept 1 of 1"
	if l.Line != want || l.Summaries != 2 {
		t.Errorf("%d summaries, line =\n%s\nwant 2,\n%s", l.Summaries, l.Line, want)
	}
	cs := rep.Compactions.List
	if len(cs) != 2 || len(cs[0].Skills) != 1 || len(cs[0].Actions) != 2 || len(cs[1].Skills) != 1 || len(cs[1].Actions) != 0 {
		t.Fatalf("compactions = %+v", cs)
	}
	if s := cs[0].Skills[0]; s.Name != "release" || s.Kept != 2 || s.Phrases != 9 || !s.Named || s.UUID == "" {
		t.Errorf("release = %+v, want 2 of 9 phrases kept, named, with its record's uuid", s)
	}
	if a := cs[0].Actions; a[0].Kind != "push" || a[0].ID != "feat/x" || !a[0].Kept || a[1].Kind != "pr" || a[1].Kept {
		t.Errorf("actions = %+v, want the push kept, the PR lost", a)
	}
	if s := cs[1].Skills[0]; s.Name != "review" || s.Kept != 0 || s.Phrases != 5 || s.Named {
		t.Errorf("review (a slash command, before the second compaction only) = %+v", s)
	}
}

// A transcript re-dumped with a space after each colon and comma (as Python's json.dumps writes
// a converted chat.json) gives the same figures.
func TestSpacedJSON(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"zones.jsonl", "compactions.jsonl", "lost.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte(`":`), []byte(`": `)), []byte(`,"`), []byte(`, "`))
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	compact := run(t, Options{Paths: []string{"testdata/zones.jsonl", "testdata/compactions.jsonl", "testdata/lost.jsonl"}})
	spaced := run(t, Options{Paths: []string{dir}})
	if spaced.Compactions.Total != compact.Compactions.Total || spaced.Lost.Line != compact.Lost.Line || spaced.Totals.Turns != compact.Totals.Turns || spaced.Totals.ToolCalls != compact.Totals.ToolCalls {
		t.Errorf("spaced: %d compactions, %d turns, %d calls, %q; compact: %d, %d, %d, %q", spaced.Compactions.Total, spaced.Totals.Turns, spaced.Totals.ToolCalls, spaced.Lost.Line,
			compact.Compactions.Total, compact.Totals.Turns, compact.Totals.ToolCalls, compact.Lost.Line)
	}
	for i := range compact.Zones {
		for k := range compact.Zones[i].Zones {
			if a, b := spaced.Zones[i].Zones[k], compact.Zones[i].Zones[k]; a.Errors != b.Errors || a.Interrupts != b.Interrupts || a.Calls != b.Calls {
				t.Errorf("%s %s: spaced %+v, compact %+v", compact.Zones[i].Model, b.Zone, a, b)
			}
		}
	}
}
