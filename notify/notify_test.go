package notify

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

const sid = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"

// sonnet200k are the levels of a 200k Sonnet session with the defaults: warn 80k, prep 120k,
// auto-compact 167k, imminent 147k.
var sonnet200k = LevelsFor(zones.Thresholds{Warn: 80_000, Dumb: 120_000}, 120_000,
	zones.Compact{Enabled: true, Point: 167_000}, zones.DefaultImminentGap)

func defaultPolicy() Policy { return PolicyFor(config.Default()) }

func TestLevelsFor(t *testing.T) {
	tests := []struct {
		name string
		c    zones.Compact
		dist int64
		want Levels
	}{
		{"default", zones.Compact{Enabled: true, Point: 167_000}, 20_000, Levels{80_000, 120_000, 147_000}},
		{"auto-compact off", zones.Compact{}, 20_000, Levels{80_000, 120_000, 0}},
		{"distance 0 turns imminent off", zones.Compact{Enabled: true, Point: 167_000}, 0, Levels{80_000, 120_000, 0}},
		{"distance beyond the point", zones.Compact{Enabled: true, Point: 10_000}, 20_000, Levels{80_000, 120_000, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LevelsFor(zones.Thresholds{Warn: 80_000, Dumb: 120_000}, 120_000, tt.c, tt.dist)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCrossed(t *testing.T) {
	all := []Tier{Warn, Dumb, Imminent}
	tests := []struct {
		name   string
		tokens int64
		l      Levels
		active []Tier
		want   []Tier
	}{
		{"smart", 50_000, sonnet200k, all, nil},
		{"just below warn", 79_999, sonnet200k, all, nil},
		{"at warn", 80_000, sonnet200k, all, []Tier{Warn}},
		{"at prep", 120_000, sonnet200k, all, []Tier{Dumb, Warn}},
		{"imminent", 150_000, sonnet200k, all, []Tier{Imminent, Dumb, Warn}},
		{"imminent, only nudge tiers", 150_000, sonnet200k, []Tier{Dumb, Imminent}, []Tier{Imminent, Dumb}},
		{"no active tiers", 150_000, sonnet200k, nil, nil},
		{"auto-compact off: no imminent", 190_000, Levels{80_000, 120_000, 0}, all, []Tier{Dumb, Warn}},
		{"prep below warn", 75_000, Levels{80_000, 70_000, 147_000}, all, []Tier{Dumb}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Crossed(tt.tokens, tt.l, tt.active); !slices.Equal(got, tt.want) {
				t.Errorf("Crossed(%d) = %v, want %v", tt.tokens, got, tt.want)
			}
		})
	}
}

func TestHint(t *testing.T) {
	p := defaultPolicy() // nudge tiers: dumb, imminent
	tests := []struct {
		tokens int64
		known  bool
		want   Tier
	}{
		{0, false, None},
		{200_000, false, None},
		{90_000, true, None}, // warn notifies but does not nudge
		{120_000, true, Dumb},
		{160_000, true, Imminent},
	}
	for _, tt := range tests {
		if got := Hint(tt.tokens, tt.known, sonnet200k, p); got != tt.want {
			t.Errorf("Hint(%d, %t) = %v, want %v", tt.tokens, tt.known, got, tt.want)
		}
	}
	off := p
	off.Nudge = nil
	if got := Hint(160_000, true, sonnet200k, off); got != None {
		t.Errorf("nudge off: Hint = %v, want none", got)
	}
}

func TestPolicyFor(t *testing.T) {
	c := config.Default()
	p := PolicyFor(c)
	if !slices.Equal(p.Nudge, []Tier{Dumb, Imminent}) || !slices.Equal(p.Notify, []Tier{Warn, Dumb, Imminent}) {
		t.Errorf("defaults: %+v", p)
	}
	c.Warning.Nudge, c.Notify.Enabled = false, false
	if p := PolicyFor(c); p.Nudge != nil || p.Notify != nil || p.active() != nil {
		t.Errorf("all off: %+v", p)
	}
}

// recorder is a Spawn that records notifications.
type recorder struct {
	mu sync.Mutex
	ns []Notification
}

func (r *recorder) spawn(n Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ns = append(r.ns, n)
	return nil
}

func (r *recorder) titles() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, n := range r.ns {
		out = append(out, n.Title)
	}
	return out
}

func session(tokens int64, compactions int) *state.Session {
	return &state.Session{ID: sid, Tokens: tokens, Window: 200_000, AutoCompact: 167_000,
		Zone:  zones.Classify(tokens, zones.Thresholds{Warn: 80_000, Dumb: 120_000}).String(),
		Model: "Sonnet 4.5", ModelID: "claude-sonnet-4-5", Project: "/home/user/shop", Compactions: compactions}
}

// prevCount is the compaction count of each state dir's previous check, as the statusline's
// registry keeps it.
var prevCount = map[string]int{}

func check(t *testing.T, d state.Dir, rec *recorder, tokens int64, compactions int) Result {
	t.Helper()
	prev, known := prevCount[d.Root]
	prevCount[d.Root] = compactions
	res, err := Check(d, Input{Session: session(tokens, compactions), Known: true, Levels: sonnet200k,
		Policy: defaultPolicy(), Now: time.Now(), Spawn: rec.spawn, PrevCompactions: prev, PrevKnown: known})
	if err != nil {
		t.Fatalf("Check(%d): %v", tokens, err)
	}
	return res
}

// TestCheckSequence walks a session through its tiers, a compaction, and the tiers again.
func TestCheckSequence(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	rec := &recorder{}
	type step struct {
		tokens      int64
		compactions int
		created     []Tier
		notified    Tier
		rearmed     bool
		epoch       int
		pending     bool
	}
	steps := []step{
		{20_000, 0, nil, None, false, 0, false},
		{85_000, 0, []Tier{Warn}, Warn, false, 0, false},
		{90_000, 0, nil, None, false, 0, false}, // edge-triggered: once
		{125_000, 0, []Tier{Dumb}, Dumb, false, 0, true},
		{130_000, 0, nil, None, false, 0, true},
		{150_000, 0, []Tier{Imminent}, Imminent, false, 0, true},
		{160_000, 0, nil, None, false, 0, true},
		{12_000, 1, nil, None, true, 1, false},                               // compacted: re-armed, pending dropped
		{13_000, 1, nil, None, false, 1, false},                              // no markers in epoch 1: no second advance
		{190_000, 1, []Tier{Imminent, Dumb, Warn}, Imminent, false, 1, true}, // a jump: one notification
		{195_000, 1, nil, None, false, 1, true},
	}
	for i, s := range steps {
		res := check(t, d, rec, s.tokens, s.compactions)
		if !slices.Equal(res.Created, s.created) || res.Notified != s.notified || res.Rearmed != s.rearmed || res.Epoch != s.epoch {
			t.Errorf("step %d (%d tokens): got %+v, want created %v notified %v rearmed %t epoch %d",
				i, s.tokens, res, s.created, s.notified, s.rearmed, s.epoch)
		}
		if got := Pending(d, sid); got != s.pending {
			t.Errorf("step %d (%d tokens): pending %t, want %t", i, s.tokens, got, s.pending)
		}
	}
	want := []string{"zoneline: WARN zone · shop", "zoneline: DUMB zone · shop", "zoneline: auto-compact imminent · shop", "zoneline: auto-compact imminent · shop"}
	if got := rec.titles(); !slices.Equal(got, want) {
		t.Errorf("notifications %q, want %q", got, want)
	}
	epoch, ms, err := Markers(d, sid)
	if err != nil || epoch != 1 || len(ms) != 3 {
		t.Fatalf("Markers: epoch %d, %d markers, %v", epoch, len(ms), err)
	}
	m := ms[0]
	if m.Tier != "imminent" || m.Tokens != 190_000 || m.Threshold != 147_000 || m.Window != 200_000 || m.Zone != "dumb" ||
		m.Model != "Sonnet 4.5" || m.Compactions != 1 || m.Epoch != 1 || !m.Nudge || !m.Notify || m.Time.IsZero() {
		t.Errorf("imminent marker: %+v", m)
	}
	if ms[2].Tier != "warn" || ms[2].Nudge || ms[2].Notify {
		t.Errorf("warn marker after a jump: %+v (no nudge, and no notification of its own)", ms[2])
	}
	sdir, _ := d.Session(sid)
	fi, err := os.Stat(filepath.Join(sdir, "marker-1-imminent.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("marker file: %v, mode %v", err, fi.Mode())
	}
}

// TestRearmOnCompactionCount: a compaction counted in the transcript re-arms even when the
// tokens stay above the levels (a compaction that kept a large context).
func TestRearmOnCompactionCount(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	rec := &recorder{}
	check(t, d, rec, 125_000, 0)
	if res := check(t, d, rec, 125_000, 1); !res.Rearmed || res.Epoch != 1 || !slices.Equal(res.Created, []Tier{Dumb, Warn}) {
		t.Errorf("count went up: %+v, want re-armed into epoch 1 and the markers again", res)
	}
	if res := check(t, d, rec, 126_000, 1); res.Rearmed || len(res.Created) != 0 {
		t.Errorf("same count: %+v, want nothing", res)
	}
}

// TestRearmHook: PostCompact's Rearm advances the epoch once; the statusline's own re-arm on
// the same compaction does not advance it again.
func TestRearmHook(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	rec := &recorder{}
	if err := Rearm(d, sid); err != nil {
		t.Fatal(err)
	}
	if e, _, _ := Markers(d, sid); e != 0 {
		t.Errorf("Rearm with no markers advanced to %d", e)
	}
	check(t, d, rec, 125_000, 0)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Rearm(d, sid); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if e, ms, _ := Markers(d, sid); e != 1 || len(ms) != 0 {
		t.Errorf("after racing Rearm: epoch %d, %d markers; want epoch 1, none", e, len(ms))
	}
	if Pending(d, sid) {
		t.Error("Rearm left the old epoch's nudge pending")
	}
	if res := check(t, d, rec, 12_000, 1); res.Rearmed || res.Epoch != 1 {
		t.Errorf("statusline after the hook's re-arm: %+v, want epoch 1, no second advance", res)
	}
	if err := Rearm(d, "../../etc"); err == nil {
		t.Error("Rearm accepted a session id that is not a UUID")
	}
}

// TestDeliverOnce: the nudge is taken once, by one of many racing takers, and not again.
func TestDeliverOnce(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	rec := &recorder{}
	if m, err := TakeNudge(d, sid); m != nil || err != nil {
		t.Fatalf("no marker: got %+v, %v", m, err)
	}
	check(t, d, rec, 85_000, 0) // warn: notifies, no nudge
	if Pending(d, sid) {
		t.Fatal("warn tier made a nudge pending")
	}
	check(t, d, rec, 150_000, 0) // dumb and imminent at once
	var mu sync.Mutex
	var got []*Marker
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := TakeNudge(d, sid)
			if err != nil {
				t.Error(err)
			}
			if m != nil {
				mu.Lock()
				got = append(got, m)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(got) != 1 || got[0].Tier != "imminent" {
		t.Fatalf("20 racing takers got %d nudges (%v), want exactly one, imminent", len(got), got)
	}
	if m, _ := TakeNudge(d, sid); m != nil {
		t.Errorf("second take got %+v", m)
	}
	// A pending file whose markers were all delivered yields nothing.
	sdir, _ := d.Session(sid)
	os.WriteFile(filepath.Join(sdir, pendingName), []byte("{}\n"), 0o600)
	if m, _ := TakeNudge(d, sid); m != nil || Pending(d, sid) {
		t.Errorf("stale pending: got %+v, pending %t", m, Pending(d, sid))
	}
	// After a compaction, the next crossing nudges again.
	check(t, d, rec, 10_000, 1)
	check(t, d, rec, 125_000, 1)
	if m, _ := TakeNudge(d, sid); m == nil || m.Tier != "dumb" || m.Epoch != 1 {
		t.Errorf("after re-arm: got %+v, want the dumb nudge of epoch 1", m)
	}
}

// TestCheckRace: many goroutines checking the same crossing create one marker per tier and
// one notification (the process-level race is in TestStatuslineRace).
func TestCheckRace(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	rec := &recorder{}
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Check(d, Input{Session: session(150_000, 0), Known: true, Levels: sonnet200k,
				Policy: defaultPolicy(), Now: time.Now(), Spawn: rec.spawn}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(rec.titles()); n != 1 {
		t.Errorf("%d notifications, want 1", n)
	}
	sdir, _ := d.Session(sid)
	ents, _ := os.ReadDir(sdir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := []string{"marker-0-dumb.json", "marker-0-imminent.json", "marker-0-warn.json", "nudge-pending.json"}
	if !slices.Equal(names, want) {
		t.Errorf("session folder %v, want %v (no temp files left)", names, want)
	}
}

func TestUnknownTokens(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	rec := &recorder{}
	check(t, d, rec, 125_000, 0)
	// Before the first reply of a resumed session: tokens unknown. No re-arm, no marker.
	res, err := Check(d, Input{Session: session(0, 0), Known: false, Levels: sonnet200k, Policy: defaultPolicy(), Now: time.Now(), Spawn: rec.spawn})
	if err != nil || res.Rearmed || len(res.Created) != 0 {
		t.Errorf("unknown tokens: %+v %v", res, err)
	}
}

func TestCheckDisabled(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	c := config.Default()
	c.Warning.Nudge, c.Notify.Enabled = false, false
	res, err := Check(d, Input{Session: session(190_000, 0), Known: true, Levels: sonnet200k, Policy: PolicyFor(c), Now: time.Now()})
	if err != nil || len(res.Created) != 0 {
		t.Errorf("all off: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(d.Root, "sessions")); err == nil {
		t.Error("all off: the session folder was created")
	}
}

func TestText(t *testing.T) {
	m := &Marker{Tier: "dumb", Tokens: 152_300, Threshold: 120_000, Window: 200_000, AutoCompact: 167_000, Zone: "dumb", Model: "Sonnet 4.5"}
	tests := []struct {
		name, tmpl string
		m          Marker
		step       Step
		want       string
	}{
		{"default", "", *m, StepPrep, "zoneline: this session's context is 152k tokens (dumb zone; auto-compact in ~15k tokens). Finish the current subtask, then run /compact-prep to write a checkpoint, and ask the user to run /compact."},
		{"placeholders", "{tokens}|{zone}|{to_compact}|{window}|{model}|{tier}|{threshold}|{unknown}", *m, StepPrep, "152k|dumb|in ~15k tokens|200k|Sonnet 4.5|dumb|120k|{unknown}"},
		{"auto-compact off", "{to_compact}", Marker{Tokens: 1}, StepPrep, "is off"},
		{"past the point", "{to_compact}", Marker{Tokens: 170_000, AutoCompact: 167_000}, StepPrep, "is due now"},
		{"1M", "{tokens}/{window}", Marker{Tokens: 1_250_000, Window: 1_000_000}, StepPrep, "1.2M/1M"},
		// The step decides the text: a fresh checkpoint means /compact, never /compact-prep.
		{"ready default", "", *m, StepCompact, "zoneline: this session's context is 152k tokens (dumb zone; auto-compact in ~15k tokens). A fresh /compact-prep checkpoint is written: finish the current subtask, then ask the user to run /compact."},
		{"ready custom without {next}", "run /compact-prep now", *m, StepCompact, "zoneline: this session's context is 152k tokens (dumb zone; auto-compact in ~15k tokens). A fresh /compact-prep checkpoint is written: finish the current subtask, then ask the user to run /compact."},
		{"next placeholder", "do {next}", *m, StepCompact, "do /compact"},
		{"next placeholder prep", "do {next}", *m, StepPrep, "do /compact-prep"},
		{"no step is prep", "do {next}", *m, "", "do /compact-prep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.tmpl, &tt.m, tt.step); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	long := Text(strings.Repeat("x", 5000), m, StepPrep)
	if n := len([]rune(long)); n != MaxNudge {
		t.Errorf("long text: %d runes, want %d", n, MaxNudge)
	}
}

func TestSkip(t *testing.T) {
	tests := []struct {
		prompt string
		want   bool
	}{
		{"/compact", true},
		{"  /compact  ", true},
		{"/compact keep the API notes", true},
		{"/compact-prep", true},
		{"/Compact-Prep now", true},
		{"please write a checkpoint first", true},
		{"Checkpoint the plan, then continue", false}, // mentions a checkpoint, does not ask for ours
		{"why does the checkpoint parser test fail?", false},
		{"run zoneline checkpoint verify", true},
		{"run compact-prep", true},
		{"fix the failing test", false},
		{"/compactify the list", false},
		{"", false},
		{"compact the JSON output", false},
	}
	for _, tt := range tests {
		if got := Skip(tt.prompt); got != tt.want {
			t.Errorf("Skip(%q) = %t, want %t", tt.prompt, got, tt.want)
		}
	}
}

func TestTokens(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1k", 152_300: "152k", 999_499: "999k", 999_600: "1M", 1_250_000: "1.2M", 2_000_000: "2M"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNotificationFor(t *testing.T) {
	p := Policy{AppName: "zl", Urgency: "critical"}
	n := NotificationFor(&Marker{Tier: "dumb", Zone: "dumb", Tokens: 125_000, AutoCompact: 167_000, Model: "Sonnet 4.5", Project: "/w/shop"}, p)
	want := Notification{Title: "zoneline: DUMB zone · shop", Body: "125k tokens on Sonnet 4.5, ~42k before auto-compact. Next: /compact-prep, then /compact.", AppName: "zl", Urgency: "critical"}
	if n != want {
		t.Errorf("got %+v\nwant %+v", n, want)
	}
	args := n.Args("/s")
	if args[len(args)-3] != "--" || args[len(args)-2] != want.Title || args[len(args)-1] != want.Body {
		t.Errorf("args %q: title and body must follow --", args)
	}
	// With a fresh checkpoint the notification names the step the hint and the nudge name.
	ready := NotificationForStep(&Marker{Tier: "dumb", Zone: "dumb", Tokens: 125_000, Project: "/w/shop"}, p, StepCompact)
	if !strings.HasSuffix(ready.Body, "Next: /compact (the checkpoint is written).") || strings.Contains(ready.Body, "/compact-prep") {
		t.Errorf("ready notification: %q", ready.Body)
	}
}

func TestHaveBus(t *testing.T) {
	run := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if HaveBus(env(nil)) {
		t.Error("no env: bus reported")
	}
	if !HaveBus(env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})) {
		t.Error("address set: no bus reported")
	}
	if HaveBus(env(map[string]string{"XDG_RUNTIME_DIR": run})) {
		t.Error("runtime dir without bus: bus reported")
	}
	os.WriteFile(filepath.Join(run, "bus"), nil, 0o600)
	if HaveBus(env(map[string]string{"XDG_RUNTIME_DIR": run})) {
		t.Error("a regular file named bus is not a socket")
	}
}

func TestFindCompanion(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	exe := filepath.Join(dir, "zoneline")
	os.WriteFile(exe, []byte("x"), 0o755)
	s := Spawner{Getenv: func(k string) string { return map[string]string{"PATH": "relative:" + other}[k] }, Exe: exe}
	if _, err := s.FindCompanion(); err != ErrNoCompanion {
		t.Errorf("none: %v", err)
	}
	onPath := filepath.Join(other, Companion)
	os.WriteFile(onPath, []byte("x"), 0o755)
	if p, err := s.FindCompanion(); p != onPath || err != nil {
		t.Errorf("on PATH: %q %v", p, err)
	}
	beside := filepath.Join(dir, Companion)
	os.WriteFile(beside, []byte("x"), 0o755)
	if p, err := s.FindCompanion(); p != beside || err != nil {
		t.Errorf("beside: %q %v, want %q first", p, err, beside)
	}
	os.Chmod(beside, 0o644)
	if p, _ := s.FindCompanion(); p != onPath {
		t.Errorf("not executable beside: got %q", p)
	}
	if !strings.HasPrefix(fmt.Sprint(ErrNoBus), "zoneline: ") {
		t.Error("error prefix")
	}
}

// The hand-written marker JSON reads back as encoding/json reads it, and is byte for byte what
// MarshalIndent writes for ordinary text.
func TestMarkerJSON(t *testing.T) {
	base := Marker{Session: "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12", Epoch: 3, Tier: "dumb", Tokens: 125000,
		Threshold: 120000, Window: 200000, AutoCompact: 167000, Zone: "dumb", Model: "Sonnet 4.5",
		ModelID: "claude-sonnet-4-5-20250929", Project: "/home/u/project", Compactions: 2,
		Time: time.Date(2026, 11, 30, 1, 2, 3, 456789000, time.UTC), Nudge: true}
	odd := base
	odd.Project, odd.Model, odd.Tier = "/tmp/a \"b\"\\c\n\t<&>\u2028é😀\x01", "", "imminent"
	odd.Time, odd.Notify, odd.AutoCompact = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)), true, 0
	for _, m := range []Marker{base, odd, {}} {
		got := m.appendJSON(nil)
		var back Marker
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if !back.Time.Equal(m.Time) {
			t.Errorf("time %v, want %v", back.Time, m.Time)
		}
		back.Time, m.Time = time.Time{}, time.Time{}
		if back != m {
			t.Errorf("round trip:\n got %+v\nwant %+v", back, m)
		}
	}
	want, _ := json.MarshalIndent(base, "", "  ")
	if got := base.appendJSON(nil); string(got) != string(want)+"\n" {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back Marker
	if err := jsonscan.DecodeFields(want, &back, markerFields[:]); err != nil || !back.Time.Equal(base.Time) {
		t.Fatalf("read back %+v, %v", back, err)
	}
	if back.Time = base.Time; back != base {
		t.Errorf("read back:\n got %+v\nwant %+v", back, base)
	}
}
