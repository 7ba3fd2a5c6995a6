//go:build unix

package state

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

const id = "730c8849-a6f0-454b-a922-063e0b765bf2"

func TestValidSessionID(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{id, true},
		{strings.ToUpper(id), true},
		{"", false},
		{"../../../../etc/passwd", false},
		{"730c8849/a6f0-454b-a922-063e0b765bf2", false},
		{"730c8849-a6f0-454b-a922-063e0b765bf\x00", false},
		{"730c8849-a6f0-454b-a922-063e0b765bf2/", false},
		{"730c8849-a6f0-454b-a922-063e0b765bfg", false},
		{"730c8849a-6f0-454b-a922-063e0b765bf2", false},
		{strings.Repeat("a", 10000), false},
		{"..", false},
	}
	for _, tt := range tests {
		if got := ValidSessionID(tt.in); got != tt.want {
			t.Errorf("ValidSessionID(%q) = %v", tt.in, got)
		}
	}
}

// world is a state dir and an "outside" folder whose contents must never change.
func world(t *testing.T) (Dir, string) {
	t.Helper()
	tmp := testtmp.Dir(t)
	outside := filepath.Join(tmp, "outside")
	if err := os.MkdirAll(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(outside, "victim"), []byte("keep\n"), 0o600)
	return Dir{Root: filepath.Join(tmp, "state")}, outside
}

func assertUntouched(t *testing.T, outside string) {
	t.Helper()
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 || ents[0].Name() != "victim" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("outside dir now holds %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "victim")); string(b) != "keep\n" {
		t.Fatalf("victim now %q", b)
	}
}

// TestPlantedSymlinks: a symlink planted at sessions/, at sessions/<id> or at session.json never
// makes a write land outside the state dir.
func TestPlantedSymlinks(t *testing.T) {
	plants := []struct {
		name  string
		plant func(d Dir, outside string)
		err   bool // SaveSession must fail (otherwise it must replace the link)
	}{
		{"sessions dir", func(d Dir, o string) {
			MkdirPrivate(d.Root)
			os.Symlink(o, filepath.Join(d.Root, "sessions"))
		}, true},
		{"session dir", func(d Dir, o string) {
			MkdirPrivate(filepath.Join(d.Root, "sessions"))
			os.Symlink(o, filepath.Join(d.Root, "sessions", id))
		}, true},
		{"session file", func(d Dir, o string) {
			MkdirPrivate(filepath.Join(d.Root, "sessions", id))
			os.Symlink(filepath.Join(o, "victim"), filepath.Join(d.Root, "sessions", id, SessionFileName))
		}, false},
		{"log", func(d Dir, o string) {
			MkdirPrivate(d.Root)
			os.Symlink(filepath.Join(o, "victim"), d.LogPath())
		}, false},
	}
	for _, p := range plants {
		t.Run(p.name, func(t *testing.T) {
			d, outside := world(t)
			p.plant(d, outside)
			s, _ := d.LoadSession(id)
			s.Tokens = 42
			err := d.SaveSession(s)
			if p.err && !errors.Is(err, ErrPlanted) {
				t.Errorf("SaveSession = %v, want ErrPlanted", err)
			}
			if !p.err && err != nil {
				t.Errorf("SaveSession = %v", err)
			}
			d.Log("test", "a line")
			if p, err := d.SessionFile(id, "marker"); err == nil {
				CreateExclusive(p, []byte("x"))
			}
			assertUntouched(t, outside)
		})
	}
}

func TestMkdirPrivateRefusesSymlink(t *testing.T) {
	d, outside := world(t)
	MkdirPrivate(d.Root)
	link := filepath.Join(d.Root, "snapshots")
	os.Symlink(outside, link)
	if err := MkdirPrivate(link); err == nil {
		t.Fatal("MkdirPrivate followed a symlink")
	}
	if err := WriteFile(filepath.Join(link, "x.json"), []byte("{}")); err == nil {
		t.Fatal("WriteFile wrote through a symlinked folder")
	}
	assertUntouched(t, outside)
}

// TestPrivateModes: dirs 0700 and files 0600 whatever the umask, also for a folder that existed
// with looser bits.
func TestPrivateModes(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o077} {
		old := syscall.Umask(mask)
		d, _ := world(t)
		os.MkdirAll(d.Root, 0o777)
		os.Chmod(d.Root, 0o777)
		s := &Session{ID: id, Tokens: 1}
		if err := d.SaveSession(s); err != nil {
			t.Fatal(err)
		}
		p, _ := d.SessionFile(id, "m")
		CreateExclusive(p, []byte("x"))
		d.Log("test", "x")
		syscall.Umask(old)
		filepath.Walk(d.Root, func(path string, fi os.FileInfo, err error) error {
			want := os.FileMode(0o600)
			if fi.IsDir() {
				want = 0o700
			}
			if fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s is %v, want %v", mask, path, fi.Mode().Perm(), want)
			}
			return nil
		})
	}
}

func TestCreateExclusiveRace(t *testing.T) {
	d, _ := world(t)
	path := filepath.Join(d.Root, "marker.json")
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			created, err := CreateExclusive(path, bytes.Repeat([]byte{byte('a' + i%26)}, 4096))
			if err != nil {
				t.Error(err)
			}
			if created {
				mu.Lock()
				won++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(path)
	if won != 1 || len(b) != 4096 || bytes.Count(b, b[:1]) != 4096 {
		t.Fatalf("%d winners, file of %d bytes", won, len(b))
	}
	ents, _ := os.ReadDir(d.Root)
	if len(ents) != 1 {
		t.Fatalf("temp files left: %d entries", len(ents))
	}
}

func TestReadFileRefuses(t *testing.T) {
	d, outside := world(t)
	MkdirPrivate(d.Root)
	fifo := filepath.Join(d.Root, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	link := filepath.Join(d.Root, "link")
	os.Symlink(filepath.Join(outside, "victim"), link)
	big := filepath.Join(d.Root, "big")
	os.WriteFile(big, make([]byte, 100), 0o600)
	for _, p := range []string{fifo, link, big, d.Root, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(p, 10); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("ReadFile(%s) read it", p)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", p)
		}
	}
}

// TestLogRotation: past MaxLog the log moves to zoneline.log.1, so the two files together stay
// under about 2×MaxLog however much is logged.
func TestLogRotation(t *testing.T) {
	d, _ := world(t)
	line := strings.Repeat("x", 1500)
	for range 3 * MaxLog / 1500 {
		d.Log("test", "%s", line)
	}
	cur, err1 := os.Stat(d.LogPath())
	old, err2 := os.Stat(d.LogPath() + ".1")
	if err1 != nil || err2 != nil {
		t.Fatalf("log %v, rotated %v", err1, err2)
	}
	if cur.Size() > MaxLog+4096 || old.Size() > MaxLog+4096 {
		t.Fatalf("log %d bytes, rotated %d bytes: unbounded", cur.Size(), old.Size())
	}
	d.Log("test", "%s", strings.Repeat("y", 100_000))
	b, _ := os.ReadFile(d.LogPath())
	if last := b[bytes.LastIndexByte(b[:len(b)-1], '\n')+1:]; len(last) > 2200 {
		t.Fatalf("one log line of %d bytes", len(last))
	}
}

func touch(t *testing.T, path string, age time.Duration, now time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); err != nil {
		os.WriteFile(path, []byte("x"), 0o600)
	}
	os.Chtimes(path, now.Add(-age), now.Add(-age))
}

func TestGC(t *testing.T) {
	d, outside := world(t)
	now := time.Now()
	day := 24 * time.Hour
	const (
		oldID   = "00000000-0000-0000-0000-000000000001"
		freshID = "00000000-0000-0000-0000-000000000002"
		mixedID = "00000000-0000-0000-0000-000000000003"
	)
	sdir := func(id string) string { return filepath.Join(d.Root, "sessions", id) }
	touch(t, filepath.Join(sdir(oldID), "session.json"), 20*day, now)
	touch(t, sdir(oldID), 20*day, now)
	touch(t, filepath.Join(sdir(freshID), "session.json"), time.Hour, now)
	touch(t, filepath.Join(sdir(freshID), ".session.json.tmp-123"), 2*time.Minute, now) // stale temp
	touch(t, filepath.Join(sdir(freshID), ".marker.json.tmp-456"), time.Second, now)    // a write in progress
	touch(t, filepath.Join(sdir(mixedID), "session.json"), 20*day, now)
	touch(t, filepath.Join(sdir(mixedID), "checkpoint.md"), day, now) // newest file decides
	touch(t, sdir(mixedID), 20*day, now)
	touch(t, filepath.Join(d.Root, "snapshots", ".x.json.tmp-1"), time.Hour, now)
	touch(t, filepath.Join(d.Root, "sessions", "not-a-session", "f"), 30*day, now)
	os.Symlink(outside, filepath.Join(d.Root, "sessions", "00000000-0000-0000-0000-000000000009"))

	res, err := d.GC(14*day, now)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Sessions, ",") != oldID || res.Temps != 2 || res.Planted != 1 {
		t.Fatalf("GC = %+v", res)
	}
	for p, want := range map[string]bool{
		sdir(oldID): false, sdir(freshID): true, sdir(mixedID): true,
		filepath.Join(sdir(freshID), ".session.json.tmp-123"): false,
		filepath.Join(sdir(freshID), ".marker.json.tmp-456"):  true,
		filepath.Join(d.Root, "snapshots", ".x.json.tmp-1"):   false,
		filepath.Join(d.Root, "sessions", "not-a-session"):    true,
	} {
		if _, err := os.Lstat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", p, err == nil, want)
		}
	}
	assertUntouched(t, outside)
}

// TestGCGit: the git cache's entries go when older than maxAge or when their worktree is gone,
// with their stamp and lock; a live one stays with its stamp; temps of killed refreshers go
// after StaleTemp; a symlink goes, its target untouched; files GC does not know stay.
func TestGCGit(t *testing.T) {
	d, outside := world(t)
	now := time.Now()
	day := 24 * time.Hour
	gdir := filepath.Join(d.Root, GitDirName)
	live := testtmp.Dir(t) // a worktree that exists
	gone := filepath.Join(testtmp.Dir(t), "deleted-worktree")
	entry := func(key, root string, age time.Duration) {
		p := filepath.Join(gdir, key+".json")
		os.MkdirAll(gdir, 0o700)
		os.WriteFile(p, []byte(`{"root":`+strconv.Quote(root)+`,"branch":"main","time":"2026-12-01T09:00:00Z","dirty":1}`), 0o600)
		os.Chtimes(p, now.Add(-age), now.Add(-age))
		for _, ext := range []string{".refresh", ".lock"} {
			touch(t, filepath.Join(gdir, key+ext), age, now)
		}
	}
	entry("a1", live, time.Hour)                                        // kept
	entry("b2", gone, time.Hour)                                        // worktree deleted
	entry("c3", live, 20*day)                                           // too old
	entry("d4", "relative", time.Hour)                                  // not a worktree path
	touch(t, filepath.Join(gdir, "e5.json"), 2*time.Minute, now)        // unreadable, not being written
	touch(t, filepath.Join(gdir, "f6.json"), time.Second, now)          // unreadable, young: kept
	touch(t, filepath.Join(gdir, ".a1.json.tmp-1"), 2*time.Minute, now) // a killed refresher's temp
	touch(t, filepath.Join(gdir, ".a1.json.tmp-2"), time.Second, now)   // a write in progress
	touch(t, filepath.Join(gdir, ".a1.refresh.tmp-3"), 2*time.Minute, now)
	touch(t, filepath.Join(gdir, "0a.refresh"), 20*day, now) // a stamp whose refresher never wrote
	touch(t, filepath.Join(gdir, "0b.lock"), time.Hour, now) // a young one: kept
	touch(t, filepath.Join(gdir, "README"), 30*day, now)     // not GC's
	os.Symlink(outside, filepath.Join(gdir, "99.json"))

	res, err := d.GC(14*day, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Git != 4 || res.Temps != 2 || res.Planted != 1 {
		t.Fatalf("GC = %+v, want 4 git entries, 2 temps, 1 link", res)
	}
	want := map[string]bool{
		"a1.json": true, "a1.refresh": true, "a1.lock": true,
		"f6.json": true, "0b.lock": true, "README": true, ".a1.json.tmp-2": true,
	}
	names, _ := os.ReadDir(gdir)
	var left []string
	for _, e := range names {
		left = append(left, e.Name())
		if !want[e.Name()] {
			t.Errorf("%s left", e.Name())
		}
	}
	if len(left) != len(want) {
		t.Errorf("left %v, want %v", left, want)
	}
	assertUntouched(t, outside)
}

func TestGCDaily(t *testing.T) {
	d, _ := world(t)
	now := time.Now()
	old := "00000000-0000-0000-0000-000000000001"
	touch(t, filepath.Join(d.Root, "sessions", old, "session.json"), 30*24*time.Hour, now)
	if _, ran, err := d.GCDaily(14*24*time.Hour, now); !ran || err != nil {
		t.Fatalf("first GCDaily ran %v, %v", ran, err)
	}
	touch(t, filepath.Join(d.Root, "sessions", old, "session.json"), 30*24*time.Hour, now)
	touch(t, filepath.Join(d.Root, "sessions", old), 30*24*time.Hour, now)
	if _, ran, _ := d.GCDaily(14*24*time.Hour, now.Add(23*time.Hour)); ran {
		t.Fatal("GCDaily ran twice within a day")
	}
	if _, err := os.Stat(filepath.Join(d.Root, "sessions", old)); err != nil {
		t.Fatal("the skipped GC removed a session")
	}
	if res, ran, _ := d.GCDaily(14*24*time.Hour, now.Add(25*time.Hour)); !ran || len(res.Sessions) != 1 {
		t.Fatalf("GCDaily a day later: ran %v, %+v", ran, res)
	}
}

// TestLogText: a message cannot forge a log entry, carry control characters or invalid UTF-8,
// or grow past MaxLogLine.
func TestLogText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"path\n2026-11-29T00:00:00Z hook: forged", "path\n\t2026-11-29T00:00:00Z hook: forged"},
		{"esc\x1b[31mred\r\x00", `esc\x1b[31mred\x0d\x00`},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"tab\tkept", "tab\tkept"},
		{"c1\u009b2J\u0085nel", `c1\u009b2J\u0085nel`},
		{"bidi\u202eevil\u2066iso\u2069", `bidi\u202eevil\u2066iso\u2069`},
	}
	for _, tt := range tests {
		if got := logText(tt.in); got != tt.want {
			t.Errorf("logText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := strings.Repeat("é", MaxLogLine) // 2 bytes each: the cut must not split one
	got := logText(long)
	if len(got) > MaxLogLine+len("…") || !strings.HasSuffix(got, "…") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("long message: %d bytes, suffix %q", len(got), got[len(got)-6:])
	}
}

// A touched registry reads back with the touch's time as Updated; its content is unchanged.
func TestTouchSession(t *testing.T) {
	d := Dir{Root: testtmp.Dir(t)}
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	if err := d.TouchSession(id, time.Now()); err == nil {
		t.Fatal("touched a registry that does not exist")
	}
	t0 := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	if err := d.SaveSession(&Session{ID: id, Updated: t0, Tokens: 5}); err != nil {
		t.Fatal(err)
	}
	path, _ := d.SessionFile(id, SessionFileName)
	os.Chtimes(path, t0, t0) // as if written at t0
	before, _ := os.ReadFile(path)
	t1 := t0.Add(90 * time.Second)
	if err := d.TouchSession(id, t1); err != nil {
		t.Fatal(err)
	}
	s, err := d.LoadSession(id)
	if err != nil || !s.Updated.Equal(t1) || s.Tokens != 5 {
		t.Fatalf("after a touch: %+v, %v; want Updated %v", s, err, t1)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the touch changed the registry's content")
	}
	// A symlink planted in its place is not followed.
	target := filepath.Join(testtmp.Dir(t), "target")
	os.WriteFile(target, nil, 0o600)
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(target, old, old)
	os.Rename(path, path+".bak")
	os.Symlink(target, path)
	if err := d.TouchSession(id, t1); err == nil {
		t.Error("touched through a symlink")
	}
	if fi, _ := os.Stat(target); !fi.ModTime().Equal(old) {
		t.Errorf("the symlink's target was touched: %v", fi.ModTime())
	}
	os.Remove(path)
	os.Rename(path+".bak", path)
	// An older file time never moves Updated back.
	os.Chtimes(path, t0.Add(-time.Hour), t0.Add(-time.Hour))
	if s, _ := d.LoadSession(id); !s.Updated.Equal(t0) {
		t.Errorf("Updated %v, want the recorded %v", s.Updated, t0)
	}
}

// A session folder's check holds for checkFor; after it, a symlink planted in its place is
// refused again (long-running commands call Session for minutes).
func TestSessionCheckExpires(t *testing.T) {
	d := Dir{Root: testtmp.Dir(t)}
	const id = "bbb8e696-ca66-4fcf-8fb3-651eb7e68c12"
	dir, err := d.Session(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := MkdirPrivate(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Session(id); err != nil { // now checked and cached
		t.Fatal(err)
	}
	os.Remove(dir)
	os.Symlink(testtmp.Dir(t), dir)
	time.Sleep(checkFor + 50*time.Millisecond)
	if _, err := d.Session(id); !errors.Is(err, ErrPlanted) {
		t.Fatalf("a symlink planted after the check expired: %v", err)
	}
}

// TestWritePublic: a file a person asked for is written atomically with mode 0644 whatever the
// umask, replaces what was there without a temp file left, and a missing folder is an error,
// not created.
func TestWritePublic(t *testing.T) {
	dir := testtmp.Dir(t)
	os.Chmod(dir, 0o755)
	path := filepath.Join(dir, "zones.svg")
	for _, mask := range []int{0o022, 0o077} {
		old := syscall.Umask(mask)
		err := WritePublic(path, []byte("<svg/>"+strconv.Itoa(mask)))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o644 {
			t.Fatalf("umask %03o: %v %v, want 0644", mask, fi, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "<svg/>"+strconv.Itoa(mask) {
			t.Errorf("content %q", b)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o755 {
		t.Errorf("the folder's mode changed: %v", fi.Mode())
	}
	missing := filepath.Join(dir, "no", "such", "x.svg")
	if err := WritePublic(missing, nil); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("into a missing folder: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Error("the missing folder was created")
	}
}
