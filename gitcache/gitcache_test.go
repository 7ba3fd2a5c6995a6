package gitcache

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSaveLoad(t *testing.T) {
	st := t.TempDir()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	if _, ok := Load(st, "/repo"); ok {
		t.Fatal("entry before any save")
	}
	failed := Entry{Root: "/repo", Branch: "main", Time: now, Err: "timed out", Fails: 3}
	if err := Save(st, failed); err != nil {
		t.Fatal(err)
	}
	if got, ok := Load(st, "/repo"); !ok || got != failed {
		t.Fatalf("Load = %+v %v, want %+v", got, ok, failed)
	}
	e := Entry{Root: "/repo", Branch: "main", Time: now, Dirty: 3, Ahead: 1, Behind: 2, Upstream: true}
	if err := Save(st, e); err != nil {
		t.Fatal(err)
	}
	got, ok := Load(st, "/repo")
	if !ok || got != e {
		t.Fatalf("Load = %+v %v, want %+v", got, ok, e)
	}
	fi, err := os.Stat(Path(st, "/repo"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode %v, %v", fi.Mode(), err)
	}
	if di, _ := os.Stat(Dir(st)); di.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v", di.Mode())
	}
	// An entry written for another root under the same name (a collision) is not used.
	os.WriteFile(Path(st, "/other"), e.appendJSON(nil), 0o600)
	if _, ok := Load(st, "/other"); ok {
		t.Fatal("an entry for /repo read as /other's")
	}
	for _, bad := range []string{"", "{", `{"root":"/repo","dirty":"x"}`, "\x00"} {
		os.WriteFile(Path(st, "/repo"), []byte(bad), 0o600)
		if _, ok := Load(st, "/repo"); ok {
			t.Errorf("corrupt entry %q loaded", bad)
		}
	}
	os.WriteFile(Path(st, "/repo"), []byte(`{"root":"/repo","dirty":-4,"ahead":1e30,"upstream":true}`), 0o600)
	if got, ok := Load(st, "/repo"); ok && (got.Dirty != 0 || got.Ahead != 0) {
		t.Errorf("out-of-range counts: %+v", got)
	}
}

func TestFreshStale(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	e := Entry{Root: "/r", Branch: "main", Time: now.Add(-3 * time.Second)}
	tests := []struct {
		name         string
		e            Entry
		ok           bool
		branch       string
		fresh, stale bool
	}{
		{"missing", Entry{}, false, "main", false, true},
		{"young", e, true, "main", true, false},
		{"old but shown", Entry{Root: "/r", Branch: "main", Time: now.Add(-time.Minute)}, true, "main", true, true},
		{"too old", Entry{Root: "/r", Branch: "main", Time: now.Add(-MaxAge)}, true, "main", false, true},
		{"other branch", e, true, "feature", false, true},
		{"git failed", Entry{Root: "/r", Branch: "main", Time: now, Err: "timed out"}, true, "main", false, false},
		// A failed entry waits its backoff, not RefreshAfter: a repository whose git takes
		// longer than Deadline is not run again every 10 s.
		{"failed, past RefreshAfter", Entry{Root: "/r", Branch: "main", Time: now.Add(-time.Minute), Err: "timed out", Fails: 1}, true, "main", false, false},
		{"failed, past its backoff", Entry{Root: "/r", Branch: "main", Time: now.Add(-MaxAge), Err: "timed out", Fails: 1}, true, "main", false, true},
		{"failed twice, within its backoff", Entry{Root: "/r", Branch: "main", Time: now.Add(-MaxAge - time.Minute), Err: "timed out", Fails: 2}, true, "main", false, false},
		{"failed often, past the cap", Entry{Root: "/r", Branch: "main", Time: now.Add(-MaxBackoff), Err: "timed out", Fails: 60}, true, "main", false, true},
		{"failed on another branch", Entry{Root: "/r", Branch: "old", Time: now, Err: "timed out", Fails: 5}, true, "main", false, true},
		{"from the future", Entry{Root: "/r", Branch: "main", Time: now.Add(time.Hour)}, true, "main", false, true},
	}
	for _, tt := range tests {
		if f := tt.e.Fresh(now, tt.branch); f != tt.fresh && tt.ok {
			t.Errorf("%s: Fresh = %v, want %v", tt.name, f, tt.fresh)
		}
		if s := Stale(tt.e, tt.ok, now, tt.branch); s != tt.stale {
			t.Errorf("%s: Stale = %v, want %v", tt.name, s, tt.stale)
		}
	}
}

func TestClaimOncePerInterval(t *testing.T) {
	st := t.TempDir()
	now := time.Now()
	if !Claim(st, "/r", now) {
		t.Fatal("first claim refused")
	}
	if Claim(st, "/r", now.Add(time.Second)) {
		t.Fatal("second claim within RefreshAfter granted")
	}
	if !Claim(st, "/other", now) {
		t.Fatal("another worktree's claim refused")
	}
	old := now.Add(-2 * RefreshAfter)
	os.Chtimes(file(st, "/r", ".refresh"), old, old)
	if !Claim(st, "/r", now) {
		t.Fatal("claim after RefreshAfter refused")
	}
	if fi, err := os.Stat(filepath.Join(Dir(st))); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir: %v %v", fi, err)
	}
}

func TestBackoff(t *testing.T) {
	for _, tt := range []struct {
		fails int
		want  time.Duration
	}{{0, MaxAge}, {1, MaxAge}, {2, 2 * MaxAge}, {3, 4 * MaxAge}, {4, 8 * MaxAge}, {5, MaxBackoff}, {64, MaxBackoff}, {1 << 30, MaxBackoff}} {
		if got := Backoff(tt.fails); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.fails, got, tt.want)
		}
	}
	e := Entry{Root: "/r", Branch: "main", Err: "timed out", Fails: 1}
	if !e.Failed("main") || e.Failed("other") || (Entry{Branch: "main"}).Failed("main") {
		t.Error("Failed")
	}
}

// TestClaimRace: renders racing for a missing or an expired stamp, any number of them, start
// exactly one refresher per interval (the old remove-then-create let two win: each removed
// the stamp the other had just made).
func TestClaimRace(t *testing.T) {
	st := t.TempDir()
	now := time.Now()
	// Widen the window between the check and the renewal so that the racers overlap in it.
	claimPause = func() { time.Sleep(5 * time.Millisecond) }
	defer func() { claimPause = nil }()
	for round := 0; round < 20; round++ {
		if round%2 == 1 { // an expired stamp to take over, else none at all
			old := now.Add(-2 * RefreshAfter)
			os.Chtimes(file(st, "/r", ".refresh"), old, old)
		} else {
			os.Remove(file(st, "/r", ".refresh"))
		}
		var wins atomic.Int32
		var start, done sync.WaitGroup
		start.Add(1)
		for i := 0; i < 16; i++ {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				if Claim(st, "/r", now) {
					wins.Add(1)
				}
			}()
		}
		start.Done()
		done.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("round %d: %d claims won, want exactly 1", round, n)
		}
	}
}

// FuzzEntryRoundTrip: whatever an entry holds, its file reads back the same (counts within
// their bounds, the time in UTC), and any file decodes without a panic.
func FuzzEntryRoundTrip(f *testing.F) {
	f.Add("/repo", "main", "timed out", 3, 1, 2, 3, true, int64(1_795_980_000))
	f.Add("/a \"b\"\n\xff", "", "", 1<<20, 0, 0, 64, false, int64(-1))
	f.Fuzz(func(t *testing.T, root, branch, errText string, dirty, ahead, behind, fails int, up bool, unix int64) {
		in := Entry{Root: root, Branch: branch, Time: time.Unix(unix, 0).UTC(), Dirty: dirty, Ahead: ahead, Behind: behind,
			Upstream: up, Err: errText, Fails: fails}
		var back Entry
		if err := back.decode(in.appendJSON(nil)); err != nil {
			if in.Time.Year() < 0 || in.Time.Year() > 9999 { // outside RFC 3339
				return
			}
			t.Fatalf("%+v: %v", in, err)
		}
		clamp := func(n, hi int) int { return max(0, min(n, hi)) }
		in.Dirty, in.Ahead, in.Behind, in.Fails = clamp(dirty, 1<<20), clamp(ahead, 1<<20), clamp(behind, 1<<20), clamp(fails, 64)
		in.Root, in.Branch, in.Err = jsonRoundTrip(root), jsonRoundTrip(branch), jsonRoundTrip(errText)
		if !back.Time.Equal(in.Time) {
			t.Fatalf("time %v, want %v", back.Time, in.Time)
		}
		back.Time = in.Time
		if back != in {
			t.Fatalf("read back\n %+v\nwant %+v", back, in)
		}
		var any Entry
		any.decode([]byte(root))
	})
}

// jsonRoundTrip is s as a JSON string reads back: each invalid UTF-8 byte becomes U+FFFD.
func jsonRoundTrip(s string) string { return string([]rune(s)) }
