// Package gitcache is the git segment's cache: a worktree's dirty count and distance to its
// upstream, written by a refresher process and read by the statusline, so that the render
// never starts git. A render that finds the entry stale (older than RefreshAfter) or missing
// claims the refresh (the stamp checked and renewed under a file lock: exactly one claim per
// RefreshAfter) and, after its line is printed, starts `zoneline git-refresh` detached; the
// refresher runs git under a deadline, as the PreCompact snapshot does (snapshot.GitStatus:
// no program the repository names can start), and writes the entry atomically (temp file +
// rename). An entry whose git failed or timed out is retried only after Backoff (MaxAge,
// doubling on each further failure, at most MaxBackoff): a repository too big for Deadline
// costs one git run per Backoff, not one per RefreshAfter.
//
//	<state>/git/<key>.json      the entry (key: FNV-64a of the worktree root)
//	<state>/git/<key>.refresh   the claim stamp: its time is the last refresh started
//	<state>/git/<key>.lock      the lock the claim is made under
//
// The daily state GC (state.Dir.GC) removes entries older than gc_days or whose worktree is
// gone, with their stamp and lock, and the refreshers' stale temp files.
package gitcache

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/state"
)

// Tuning numbers.
const (
	DirName      = state.GitDirName // under the state dir
	RefreshAfter = 10 * time.Second // an entry older than this asks for a refresh
	MaxAge       = 5 * time.Minute  // an entry older than this is not shown; the first backoff
	MaxBackoff   = time.Hour        // the longest wait before retrying a failing git
	Deadline     = 2 * time.Second  // the refresher's whole run
	maxEntry     = 4096             // bytes of an entry read back
)

// Entry is one worktree's cached state.
type Entry struct {
	Root     string    // the worktree's top directory
	Branch   string    // the branch (or "" detached) when git ran: an entry for another branch is stale
	Time     time.Time // when git ran
	Dirty    int       // changed and untracked files
	Ahead    int       // commits ahead of the upstream
	Behind   int       // commits behind it
	Upstream bool      // the branch has an upstream
	Err      string    // git failed or timed out: nothing above is known
	Fails    int       // consecutive failed runs (Err set), for the backoff
}

// Dir returns the cache folder under the state dir root.
func Dir(stateRoot string) string { return filepath.Join(stateRoot, DirName) }

// Path returns the entry file of the worktree root.
func Path(stateRoot, root string) string { return file(stateRoot, root, ".json") }

// file returns the cache's file for the worktree root with extension ext (.json, .refresh,
// .lock), named by the FNV-64a of root.
func file(stateRoot, root, ext string) string {
	h := fnv.New64a()
	h.Write([]byte(root))
	return filepath.Join(Dir(stateRoot), strconv.FormatUint(h.Sum64(), 16)+ext)
}

// Load returns the entry of root; ok is false when there is none, it cannot be read, or it
// belongs to another root (a hash collision).
func Load(stateRoot, root string) (e Entry, ok bool) {
	data, err := rawfs.ReadFile(Path(stateRoot, root), maxEntry, true)
	if err != nil {
		return Entry{}, false
	}
	if err := e.decode(data); err != nil || e.Root != root {
		return Entry{}, false
	}
	return e, true
}

// Fresh reports whether e can be shown at now for a worktree on branch: it is for that branch,
// git did not fail, and it is younger than MaxAge.
func (e Entry) Fresh(now time.Time, branch string) bool {
	age := now.Sub(e.Time)
	return e.Err == "" && e.Branch == branch && age >= -time.Minute && age < MaxAge
}

// Failed reports whether e, for branch, says git failed or timed out there: the segment
// shows its degraded form ("git ?") until a run succeeds.
func (e Entry) Failed(branch string) bool { return e.Err != "" && e.Branch == branch }

// Backoff is how long an entry whose git failed fails times in a row waits before the next
// try: MaxAge, doubling with each further failure, at most MaxBackoff.
func Backoff(fails int) time.Duration {
	d := MaxAge
	for i := 1; i < fails && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// Stale reports whether e (ok: it exists) should be refreshed at now for branch: missing, for
// another branch, older than RefreshAfter, or, when its git failed, older than its Backoff.
func Stale(e Entry, ok bool, now time.Time, branch string) bool {
	if !ok || e.Branch != branch {
		return true
	}
	age := now.Sub(e.Time)
	if age < -time.Minute {
		return true
	}
	if e.Err != "" {
		return age >= Backoff(e.Fails)
	}
	return age >= RefreshAfter
}

// Claim reports whether this caller may start the refresh of root now: under the worktree's
// lock (not waited for: a render that finds it held leaves the claim to its holder), it
// renews the stamp when it is missing or older than RefreshAfter. Of any number of renders
// racing, exactly one claims per RefreshAfter.
func Claim(stateRoot, root string, now time.Time) bool {
	if err := state.MkdirPrivate(Dir(stateRoot)); err != nil {
		return false
	}
	unlock, err := state.Lock(file(stateRoot, root, ".lock"), 0)
	defer unlock()
	if err != nil {
		return false
	}
	p := file(stateRoot, root, ".refresh")
	if t, ok := rawfs.ModTime(p); ok && now.Sub(t) < RefreshAfter && now.Sub(t) > -time.Minute {
		return false
	}
	if claimPause != nil {
		claimPause()
	}
	if err := state.Replace(p, nil); err != nil { // a rename: a symlink planted there is replaced, not followed
		return false
	}
	os.Chtimes(p, now, now)
	return true
}

// claimPause, set by tests, runs between judging the stamp expired and renewing it: where
// racing renders interleave.
var claimPause func()

// Save writes e atomically (temp file + rename, 0600 in a 0700 folder).
func Save(stateRoot string, e Entry) error {
	if err := state.MkdirPrivate(Dir(stateRoot)); err != nil {
		return err
	}
	return state.Replace(Path(stateRoot, e.Root), e.appendJSON(nil))
}

// entryFields is an entry file's shape (jsonscan.Field), in file order.
var entryFields = [...]jsonscan.Field[Entry]{
	{Key: "root", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.String(&e.Root) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendString(b, e.Root) }},
	{Key: "branch", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.String(&e.Branch) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendString(b, e.Branch) }},
	{Key: "time", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.Time(&e.Time) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendTime(b, e.Time.UTC()) }},
	{Key: "dirty", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.Count(&e.Dirty, 1<<20) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendInt(b, int64(e.Dirty), false) }},
	{Key: "ahead", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.Count(&e.Ahead, 1<<20) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendInt(b, int64(e.Ahead), false) }},
	{Key: "behind", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.Count(&e.Behind, 1<<20) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendInt(b, int64(e.Behind), false) }},
	{Key: "fails", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.Count(&e.Fails, 64) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendInt(b, int64(e.Fails), false) }},
	{Key: "upstream", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.Bool(&e.Upstream) }, Write: func(b []byte, e *Entry) []byte { return strconv.AppendBool(b, e.Upstream) }},
	{Key: "error", Read: func(s *jsonscan.Scanner, e *Entry) error { return s.String(&e.Err) }, Write: func(b []byte, e *Entry) []byte { return jsonscan.AppendString(b, e.Err) }},
}

func (e *Entry) appendJSON(b []byte) []byte {
	return append(jsonscan.AppendObject(b, e, entryFields[:], ""), '\n')
}

func (e *Entry) decode(data []byte) error { return jsonscan.DecodeFields(data, e, entryFields[:]) }
