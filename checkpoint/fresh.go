package checkpoint

import (
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/state"
)

// CompactionsFile is the compaction state in a session's folder, written by the hook package's
// PostCompact (records of {n, time, …}). Freshness reads only each record's number and time.
const CompactionsFile = state.CompactionsName

// Compaction is one compaction as PostCompact recorded it.
type Compaction struct {
	N    int
	Time time.Time
}

// Freshness is the verdict on a session's checkpoint for one compaction: the one rule every
// reader of a checkpoint applies (the restore after a compaction, `checkpoint show`, the
// statusline's hint, the nudge and hold_once). A checkpoint is fresh for compaction For only
// when it was written after the compaction before it (After) and at most Limit before At, the
// time of compaction For (now, for the next one). Anything else is stale: it may be read as
// history, never presented as ground truth.
type Freshness struct {
	Exists  bool       // a checkpoint file is there
	Written time.Time  // its modification time
	For     int        // the compaction it is judged for
	After   Compaction // the last compaction before For (N 0: none recorded)
	At      time.Time  // when compaction For happened (now, for the next one)
	Limit   time.Duration
	Fresh   bool
	// Err is why the compaction state could not be read: the checkpoint is then not fresh
	// (which compaction it follows is unknown).
	Err error
}

// Judge is the freshness rule: a checkpoint written at written is fresh for a compaction at at
// whose previous compaction is after (zero: none) when it was written after that previous
// compaction and at most limit before at (never after at: a checkpoint written after a
// compaction is not that compaction's). A limit <= 0 means no age limit.
func Judge(written time.Time, after Compaction, at time.Time, limit time.Duration) bool {
	if !after.Time.IsZero() && !written.After(after.Time) {
		return false
	}
	if written.After(at) {
		return false
	}
	return limit <= 0 || at.Sub(written) <= limit
}

// For judges a checkpoint written at written for compaction n, which happened at at, given the
// session's recorded compactions (and the error reading them: then it is not fresh).
func For(written time.Time, cs []Compaction, n int, at time.Time, limit time.Duration) Freshness {
	return forErr(written, cs, nil, n, at, limit)
}

// ForRead is For with the result of Compactions: a state that does not read is no fresh checkpoint.
func ForRead(written time.Time, cs []Compaction, err error, n int, at time.Time, limit time.Duration) Freshness {
	return forErr(written, cs, err, n, at, limit)
}

func forErr(written time.Time, cs []Compaction, err error, n int, at time.Time, limit time.Duration) Freshness {
	f := Freshness{Exists: true, Written: written, For: n, At: at, Limit: limit}
	for _, c := range cs {
		if c.N < n && c.N > f.After.N {
			f.After = c
		}
	}
	f.Fresh = err == nil && Judge(written, f.After, at, limit)
	f.Err = err
	return f
}

// Stale reports whether a checkpoint exists but is not fresh.
func (f Freshness) Stale() bool { return f.Exists && !f.Fresh }

// Why says in words why a checkpoint is stale ("" when it is fresh or missing).
func (f Freshness) Why() string {
	if !f.Stale() {
		return ""
	}
	w := f.Written.UTC().Format(time.RFC3339)
	if f.Err != nil {
		return "it was written at " + w + ", and the compaction state could not be read or recorded (" + f.Err.Error() + "), so it is not known to follow the last compaction"
	}
	if !f.After.Time.IsZero() && !f.Written.After(f.After.Time) {
		return "it was written at " + w + ", before compaction #" + strconv.Itoa(f.After.N) + " (" +
			f.After.Time.UTC().Format(time.RFC3339) + "): it describes a context that compaction already replaced"
	}
	which := "the next compaction"
	if f.For > 0 {
		which = "compaction #" + strconv.Itoa(f.For)
	}
	if f.Written.After(f.At) {
		return "it was written at " + w + ", after " + which + " (" + f.At.UTC().Format(time.RFC3339) + "): it is not that compaction's checkpoint"
	}
	return "it was written at " + w + ", " + f.At.Sub(f.Written).Round(time.Minute).String() +
		" before " + which + ", over the " + strconv.Itoa(int(f.Limit/time.Minute)) + "-minute limit (stale_minutes)"
}

// Compactions returns the compactions recorded for a session, in file order. A missing file is
// none. It reads the file through state.Dir.LoadCompactions (jsonscan): the statusline asks while a
// warning tier is crossed.
func Compactions(d state.Dir, id string) ([]Compaction, error) {
	cs, err := d.LoadCompactions(id)
	if errors.As(err, new(*jsonscan.TypeError)) {
		err = nil // a field of the wrong type loses only that field
	}
	var out []Compaction
	for _, r := range cs.Records {
		if r.N > 0 {
			out = append(out, Compaction{r.N, r.Time})
		}
	}
	return out, err
}

// Next judges the session's checkpoint for the next compaction, now: fresh when written after
// the last recorded compaction and within limit of now. A missing checkpoint is not Exists.
// It costs one stat when there is no checkpoint or it is too old, else also one small read.
func Next(d state.Dir, id string, now time.Time, limit time.Duration) (Freshness, error) {
	written, ok, err := modTime(d, id)
	if err != nil || !ok {
		return Freshness{At: now, Limit: limit}, err
	}
	if limit > 0 && now.Sub(written) > limit { // stale whatever the compactions say (For 0: not read)
		return For(written, nil, 0, now, limit), nil
	}
	cs, err := Compactions(d, id)
	last := 0
	for _, c := range cs {
		last = max(last, c.N)
	}
	return ForRead(written, cs, err, last+1, now, limit), err
}

// Current judges the checkpoint as `checkpoint show` presents it: fresh for the next
// compaction (Next), or else fresh for the last recorded one (written for it: /postcompact
// reads it right after), or stale.
func Current(d state.Dir, id string, now time.Time, limit time.Duration) (Freshness, error) {
	written, ok, err := modTime(d, id)
	if err != nil || !ok {
		return Freshness{At: now, Limit: limit}, err
	}
	cs, err := Compactions(d, id)
	var last Compaction
	for _, c := range cs {
		if c.N > last.N {
			last = c
		}
	}
	next := ForRead(written, cs, err, last.N+1, now, limit)
	if next.Fresh || last.N == 0 {
		return next, err
	}
	if prev := ForRead(written, cs, err, last.N, last.Time, limit); prev.Fresh {
		return prev, err
	}
	return next, err
}

// modTime is the checkpoint's modification time; ok is false when there is no regular file.
func modTime(d state.Dir, id string) (time.Time, bool, error) {
	path, err := Path(d, id)
	if err != nil {
		return time.Time{}, false, err
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	state.Private(path, fi) // the agent's Write tool made it 0644
	return fi.ModTime(), fi.Mode().IsRegular(), nil
}
