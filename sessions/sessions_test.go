package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/termcolor"

	"github.com/zoneline/zoneline/state"
)

func id(n int) string { return fmt.Sprintf("%08x-0000-4000-8000-000000000000", n) }

func TestLessOrder(t *testing.T) {
	now := time.Now()
	// Listed in the order wanted; Sort gets them reversed.
	want := []Entry{
		{Session: state.Session{ID: id(11), Zone: "smart", Tokens: 10_000}, Live: true, Active: true, ToCompact: 150_000}, // active before idle
		{Session: state.Session{ID: id(1), Zone: "dumb", Tokens: 170_000}, Live: true, ToCompact: 0},
		{Session: state.Session{ID: id(2), Zone: "dumb", Tokens: 130_000}, Live: true, ToCompact: 37_000},
		{Session: state.Session{ID: id(3), Zone: "dumb", Tokens: 300_000}, Live: true, ToCompact: -1}, // auto-compact off
		{Session: state.Session{ID: id(4), Zone: "warn", Tokens: 90_000}, Live: true, ToCompact: 77_000},
		{Session: state.Session{ID: id(5), Zone: "warn", Tokens: 130_000}, Live: true, ToCompact: 800_000},
		{Session: state.Session{ID: id(6), Zone: "smart", Tokens: 50_000, Updated: now}, Live: true, ToCompact: 100_000},
		{Session: state.Session{ID: id(7), Zone: "smart", Tokens: 50_000, Updated: now.Add(-time.Minute)}, Live: true, ToCompact: 100_000},
		{Session: state.Session{ID: id(8), Zone: "smart", Tokens: 40_000}, Live: true, ToCompact: 100_000},
		{Session: state.Session{ID: id(9), Zone: "unknown"}, Live: true, ToCompact: -1},
		{Session: state.Session{ID: id(10), Zone: "dumb", Tokens: 190_000}, Live: false, ToCompact: 0}, // stale
	}
	got := make([]Entry, len(want))
	for i := range want {
		got[i] = want[len(want)-1-i]
	}
	Sort(got)
	for i := range want {
		if got[i].ID != want[i].ID {
			var ids []string
			for _, e := range got {
				ids = append(ids, e.ID[:8])
			}
			t.Fatalf("position %d: got %s, want %s (order %v)", i, got[i].ID[:8], want[i].ID[:8], ids)
		}
	}
}

func save(t *testing.T, d state.Dir, s state.Session) {
	t.Helper()
	if err := d.SaveSession(&s); err != nil {
		t.Fatal(err)
	}
	// As if saved at s.Updated: a later file time reads as a later render (TouchSession).
	path, _ := d.SessionFile(s.ID, state.SessionFileName)
	os.Chtimes(path, s.Updated, s.Updated)
}

func TestListLiveStaleAndState(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	now := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	save(t, d, state.Session{ID: id(1), Updated: now.Add(-time.Minute), Zone: "smart", Tokens: 20_000, Window: 200_000, AutoCompact: 167_000})
	save(t, d, state.Session{ID: id(2), Updated: now.Add(-2 * time.Minute), Zone: "dumb", Tokens: 150_000, Window: 200_000, AutoCompact: 167_000, Pane: "%4", TmuxSocket: "/s"})
	save(t, d, state.Session{ID: id(3), Updated: now.Add(-2 * time.Hour), Zone: "dumb", Tokens: 150_000, Window: 200_000})
	// id(2): a dumb marker and a pending restore; the restore of id(1) was delivered.
	dir2, _ := d.Session(id(2))
	os.WriteFile(filepath.Join(dir2, "marker-0-dumb.json"), []byte(`{"tier":"dumb","epoch":0}`), 0o600)
	os.WriteFile(filepath.Join(dir2, CompactionsFile), []byte(`{"count":2,"delivered":1,"pending":2}`), 0o600)
	dir1, _ := d.Session(id(1))
	os.WriteFile(filepath.Join(dir1, CompactionsFile), []byte(`{"count":1,"delivered":1,"pending":0}`), 0o600)
	// Junk that must be skipped.
	os.MkdirAll(filepath.Join(d.Root, "sessions", "not-a-uuid"), 0o700)
	os.MkdirAll(filepath.Join(d.Root, "sessions", id(4)), 0o700) // no session.json

	es, err := List(d, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].ID != id(2) || es[1].ID != id(1) {
		t.Fatalf("List = %+v, want id2, id1", es)
	}
	if e := es[0]; e.Marker != "dumb" || !e.RestorePending || e.Recorded != 2 || e.ToCompact != 17_000 || !e.PrepCrossed() {
		t.Errorf("id2 = %+v", e)
	}
	if e := es[1]; e.Marker != "" || e.RestorePending || e.Recorded != 1 || e.PrepCrossed() {
		t.Errorf("id1 = %+v", e)
	}
	all, _ := List(d, Options{Now: now, All: true})
	if len(all) != 3 || all[2].ID != id(3) || all[2].Live {
		t.Fatalf("List(All) = %+v", all)
	}
	short, _ := List(d, Options{Now: now, Since: 90 * time.Second})
	if len(short) != 1 || short[0].ID != id(1) {
		t.Fatalf("List(Since 90s) = %+v", short)
	}
	if got := Find(all, "%4", ""); len(got) != 1 || got[0].ID != id(2) {
		t.Fatalf("Find(%%4) = %+v", got)
	}
	if got := Find(all, "%4", "/other"); len(got) != 0 {
		t.Fatalf("Find on another socket = %+v", got)
	}
	none, err := List(state.Dir{Root: filepath.Join(t.TempDir(), "missing")}, Options{Now: now})
	if err != nil || none != nil {
		t.Fatalf("List(no state) = %v, %v", none, err)
	}
}

func TestIdle(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	now := time.Now()
	save(t, d, state.Session{ID: id(1), Updated: now})
	e, _ := Load(d, id(1), now, 0)
	if _, known := e.Idle(); known {
		t.Fatal("Idle known without a prompt record")
	}
	RecordPrompt(d, id(1), "p1", now.Add(-time.Second))
	e, _ = Load(d, id(1), now, 0)
	if idle, known := e.Idle(); !known || !idle {
		t.Fatalf("render after the prompt: idle=%v known=%v", idle, known)
	}
	RecordPrompt(d, id(1), "p2", now.Add(time.Second))
	e, _ = Load(d, id(1), now, 0)
	if idle, known := e.Idle(); !known || idle {
		t.Fatalf("prompt after the render: idle=%v known=%v", idle, known)
	}
}

// TestStatusSaysWhatIsKnown (issue 25: a session that exited long ago topped the list as live,
// "DUMB … PENDING dumb"): a session that rendered or took a prompt within the active window is
// "active … ago" and comes first; an older one is "idle since …", perhaps ended, whatever its zone.
func TestStatusSaysWhatIsKnown(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	now := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	save(t, d, state.Session{ID: id(1), Updated: now.Add(-25 * time.Minute), Zone: "dumb", Tokens: 190_000, Window: 200_000, AutoCompact: 167_000})
	dir1, _ := d.Session(id(1))
	os.WriteFile(filepath.Join(dir1, "marker-0-dumb.json"), []byte(`{"tier":"dumb","epoch":0}`), 0o600)
	save(t, d, state.Session{ID: id(2), Updated: now.Add(-2 * time.Minute), Zone: "smart", Tokens: 20_000, Window: 200_000, AutoCompact: 167_000})
	// id(3) rendered 20 minutes ago, then took a prompt 3 minutes ago: mid-turn, active.
	save(t, d, state.Session{ID: id(3), Updated: now.Add(-20 * time.Minute), Zone: "warn", Tokens: 90_000, Window: 200_000, AutoCompact: 167_000})
	if err := RecordPrompt(d, id(3), "p", now.Add(-3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	es, err := List(d, Options{Now: now, All: true})
	if err != nil || len(es) != 3 {
		t.Fatalf("List = %+v, %v", es, err)
	}
	want := []struct{ id, status string }{
		{id(3), "active 3m ago"}, {id(2), "active 2m ago"}, {id(1), "idle since 21:35"},
	}
	for i, w := range want {
		if es[i].ID != w.id || Status(es[i], now) != w.status {
			t.Errorf("row %d: %s %q, want %s %q", i, es[i].ID[:8], Status(es[i], now), w.id[:8], w.status)
		}
	}
	// A shorter active window; an older day shows the date.
	es, _ = List(d, Options{Now: now, Active: time.Minute, All: true})
	for _, e := range es {
		if e.Active {
			t.Errorf("%s active within 1m: %+v", e.ID[:8], e)
		}
	}
	if got := Status(es[0], now.Add(48*time.Hour)); got != "idle since Nov 29" {
		t.Errorf("two days later: %q", got)
	}
}

func TestRenderTable(t *testing.T) {
	now := time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)
	es := []Entry{
		{Session: state.Session{ID: id(2), Zone: "dumb", Tokens: 150_000, Window: 200_000, Updated: now.Add(-90 * time.Second), Project: "/home/u/api", Pane: "%4"}, ToCompact: 17_000, Marker: "dumb", RestorePending: true, Live: true, Active: true},
		{Session: state.Session{ID: id(1), Zone: "smart", Tokens: 20_000, Window: 1_000_000, Updated: now.Add(-5 * time.Second), Project: "/home/u/web"}, ToCompact: -1, Live: true, Active: true},
		{Session: state.Session{ID: id(3), Zone: "unknown", Updated: now.Add(-3 * time.Hour)}, ToCompact: 0},
	}
	var b bytes.Buffer
	if err := Render(&b, es, now, termcolor.Ascii); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"ZONE   TOKENS     TO COMPACT  PENDING       STATUS            PROJECT  PANE  SESSION\n" +
		"DUMB   150k/200k  17k         dumb+restore  active 1m ago     api      %4    00000002\n" +
		"SMART  20k/1M     off         -             active 5s ago     web      -     00000001\n" +
		"?      -          due         -             idle since 19:00  -        -     00000003\n"
	if b.String() != want {
		t.Fatalf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	// Coloured: the zone cells carry SGR codes, the padding still lines up.
	b.Reset()
	Render(&b, es, now, termcolor.ANSI)
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[1], "\x1b[") || !strings.Contains(lines[1], "DUMB\x1b[0m   150k") {
		t.Errorf("dumb row not coloured as wanted: %q", lines[1])
	}
	if !strings.Contains(lines[2], "SMART\x1b[0m  20k") {
		t.Errorf("smart row: %q", lines[2])
	}
	if strings.Contains(lines[3], "\x1b[") {
		t.Errorf("unknown zone coloured: %q", lines[3])
	}
	// JSON carries the whole id and the computed fields.
	data, _ := json.Marshal(es[0])
	for _, k := range []string{`"session_id":"` + id(2) + `"`, `"to_compact":17000`, `"marker":"dumb"`, `"restore_pending":true`, `"tmux_pane":"%4"`} {
		if !bytes.Contains(data, []byte(k)) {
			t.Errorf("JSON lacks %s: %s", k, data)
		}
	}
}

func TestAgo(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{{-time.Second, "0s"}, {59 * time.Second, "59s"}, {time.Minute, "1m"}, {59 * time.Minute, "59m"}, {3 * time.Hour, "3h"}, {72 * time.Hour, "3d"}} {
		if got := Ago(tt.d); got != tt.want {
			t.Errorf("Ago(%s) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestRecordPromptRoundTrip(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	now := time.Date(2026, 11, 29, 22, 12, 49, 123456789, time.UTC)
	if err := RecordPrompt(d, id, "p-\"1\"\n", now); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPrompt(d, id)
	if err != nil || p.PromptID != "p-\"1\"\n" || !p.Time.Equal(now) {
		t.Fatalf("ReadPrompt = %+v, %v", p, err)
	}
	// The next prompts only touch the file: the time moves, the first id stays.
	later := now.Add(90 * time.Second)
	if err := RecordPrompt(d, id, "p2", later); err != nil {
		t.Fatal(err)
	}
	if p, err := ReadPrompt(d, id); err != nil || !p.Time.Equal(later) {
		t.Fatalf("after a second prompt: %+v, %v", p, err)
	}
	// A symlink planted at the path is replaced, never followed.
	path, _ := d.SessionFile(id, PromptFile)
	outside := filepath.Join(t.TempDir(), "target")
	os.WriteFile(outside, []byte("x"), 0o600)
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(outside, old, old)
	os.Remove(path)
	os.Symlink(outside, path)
	if err := RecordPrompt(d, id, "p3", later); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(outside); !fi.ModTime().Equal(old) {
		t.Fatalf("followed a planted symlink: target time %v", fi.ModTime())
	}
}
