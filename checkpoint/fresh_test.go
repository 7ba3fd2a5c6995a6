package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/state"

	"github.com/zoneline/zoneline/internal/testtmp"
)

func TestJudge(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 7, 41, 10, 0, time.UTC) // the checkpoint
	c1 := Compaction{N: 1, Time: t0.Add(15 * time.Second)}
	limit := 30 * time.Minute
	tests := []struct {
		name  string
		cs    []Compaction
		n     int
		at    time.Time
		fresh bool
		why   string
	}{
		{"first compaction, just written", nil, 1, t0.Add(15 * time.Second), true, ""},
		{"first compaction, at the limit", nil, 1, t0.Add(limit), true, ""},
		{"first compaction, past the limit", nil, 1, t0.Add(limit + time.Second), false, "over the 30-minute limit"},
		{"restore of #1 after it was recorded", []Compaction{c1}, 1, c1.Time, true, ""},
		{"second compaction, no new checkpoint", []Compaction{c1}, 2, t0.Add(5 * time.Minute), false, "before compaction #1"},
		{"the next one after #1", []Compaction{c1}, 2, t0.Add(time.Minute), false, "before compaction #1"},
		{"written at the very time of #1", []Compaction{{N: 1, Time: t0}}, 2, t0.Add(time.Minute), false, "before compaction #1"},
		{"after #1, for #2", []Compaction{{N: 1, Time: t0.Add(-time.Minute)}}, 2, t0.Add(time.Minute), true, ""},
		{"only #3 counts for #4", []Compaction{{N: 2, Time: t0.Add(-time.Hour)}, {N: 3, Time: t0.Add(time.Second)}}, 4, t0.Add(time.Minute), false, "before compaction #3"},
		{"written after the compaction it is judged for", []Compaction{{N: 1, Time: t0.Add(-time.Hour)}}, 1, t0.Add(-time.Hour), false, "after compaction #1"},
		{"a later record does not count for an earlier compaction", []Compaction{{N: 1, Time: t0.Add(-time.Minute)}, {N: 2, Time: t0.Add(time.Minute)}}, 2, t0.Add(time.Minute), true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := For(t0, tt.cs, tt.n, tt.at, limit)
			if f.Fresh != tt.fresh || f.Stale() == tt.fresh {
				t.Errorf("fresh = %v (stale %v), want %v", f.Fresh, f.Stale(), tt.fresh)
			}
			if why := f.Why(); tt.why == "" && why != "" || !strings.Contains(why, tt.why) {
				t.Errorf("why = %q, want it to say %q", why, tt.why)
			}
		})
	}
}

// TestNextAndCurrent reads the files: the checkpoint's mtime and the compaction records.
func TestNextAndCurrent(t *testing.T) {
	const id = "730c8849-a6f0-454b-a922-063e0b765bf2"
	d := state.Dir{Root: testtmp.Dir(t)}
	limit := 30 * time.Minute
	now := time.Now()
	if f, err := Next(d, id, now, limit); err != nil || f.Exists || f.Fresh {
		t.Fatalf("no checkpoint: %+v, %v", f, err)
	}
	p, _ := Path(d, id)
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte("# zoneline checkpoint\n"), 0o600)
	written := now.Add(-3 * time.Minute)
	os.Chtimes(p, written, written)
	if f, _ := Next(d, id, now, limit); !f.Fresh || f.For != 1 {
		t.Errorf("before any compaction: %+v", f)
	}
	records := func(ts ...time.Time) {
		s := `{"count":` + string(rune('0'+len(ts))) + `,"records":[`
		for i, x := range ts {
			if i > 0 {
				s += ","
			}
			s += `{"n":` + string(rune('1'+i)) + `,"time":"` + x.UTC().Format(time.RFC3339Nano) + `","trigger":"auto","restore":"session_start"}`
		}
		os.WriteFile(filepath.Join(filepath.Dir(p), CompactionsFile), []byte(s+`]}`), 0o600)
	}
	// #1 after the checkpoint: stale for #2, but still the checkpoint of #1 for `checkpoint show`.
	records(now.Add(-2 * time.Minute))
	if f, _ := Next(d, id, now, limit); f.Fresh || f.For != 2 || f.After.N != 1 {
		t.Errorf("after #1: %+v", f)
	}
	if f, _ := Current(d, id, now, limit); !f.Fresh || f.For != 1 {
		t.Errorf("show after #1: %+v", f)
	}
	// #2 too: the checkpoint is no compaction's any more.
	records(now.Add(-2*time.Minute), now.Add(-time.Minute))
	if f, _ := Current(d, id, now, limit); f.Fresh || !strings.Contains(f.Why(), "before compaction #2") {
		t.Errorf("show after #2: %+v (%s)", f, f.Why())
	}
	// #1 3 h ago, the checkpoint 2 h ago, a 30-minute limit: stale for the next compaction (too
	// old) and no checkpoint of #1 either (written after it), in Next and Current alike.
	written = now.Add(-2 * time.Hour)
	os.Chtimes(p, written, written)
	records(now.Add(-3 * time.Hour))
	for name, judge := range map[string]func(state.Dir, string, time.Time, time.Duration) (Freshness, error){"Next": Next, "Current": Current} {
		if f, _ := judge(d, id, now, limit); f.Fresh || !f.Stale() || !strings.Contains(f.Why(), "over the 30-minute limit") {
			t.Errorf("%s: #1 3 h ago, checkpoint 2 h ago: %+v (%s)", name, f, f.Why())
		}
	}
	written = now.Add(-3 * time.Minute)
	os.Chtimes(p, written, written)
	// A damaged compaction state is an error, not a fresh checkpoint by default.
	os.WriteFile(filepath.Join(filepath.Dir(p), CompactionsFile), []byte(`{"records":[{"n":1,`), 0o600)
	if f, err := Next(d, id, now, limit); err == nil || f.Fresh || !strings.Contains(f.Why(), "could not be read or recorded") {
		t.Errorf("damaged compactions.json: %+v, %v", f, err)
	}
}
