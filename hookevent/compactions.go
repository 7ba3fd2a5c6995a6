package hookevent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/state"
)

// The compaction state, <state>/sessions/<id>/compactions.json, drives the once-only restore.
//
// Claude Code runs PreCompact → summary → SessionStart(source "compact") → PostCompact, so a
// compaction's number is Count+1 until PostCompact records it:
//
//   - SessionStart(compact) delivers the restore and records Delivered = Count+1 and the
//     /compact's prompt_id.
//   - PostCompact counts the compaction (Count+1 → N) and, unless SessionStart already delivered
//     for N (same number or same prompt_id), sets Pending = N.
//   - UserPromptSubmit delivers only when Pending > Delivered, then sets Delivered = Pending.
//
// Every read-modify-write holds an flock on .compactions.lock; the file itself is replaced
// atomically, so a writer killed at any point leaves the previous version whole. A lock that
// cannot be had (held past compactionsLockWait, or a symlink planted at it) skips the update
// with an error the handler logs: an update done unlocked could lose another one.
const (
	compactionsFile = state.CompactionsName
	compactionsLock = state.CompactionsLockName
	maxCompactions  = 64 // records kept
	// compactionsLockWait is how long an update waits for the lock: racing hooks hold it a few
	// milliseconds each, and the hook's deadline is Deadline.
	compactionsLockWait = 2 * time.Second
)

// compactions is compactions.json (state.Compactions: its one reader and writer).
type (
	compactions      = state.Compactions
	compactionRecord = state.CompactionRecord
)

func compactionsPath(d state.Dir, id string) (string, error) {
	return d.SessionFile(id, compactionsFile)
}

// loadCompactions reads the state (state.Dir.LoadCompactions); a missing file is a zero state.
// A damaged file (which atomic writes should never leave) is reported and replaced by a zero
// state.
func loadCompactions(d state.Dir, id string) (*compactions, error) {
	cs, err := d.LoadCompactions(id)
	if err != nil {
		return &compactions{}, err
	}
	return cs, nil
}

// updateCompactions runs f on the state under the lock and writes the result atomically if f
// returns true. Temp files left by a killed writer are removed first. When the lock cannot be
// had it returns its error without running f.
func updateCompactions(d state.Dir, id string, f func(cs *compactions) bool) (*compactions, error) {
	path, err := compactionsPath(d, id)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	if err := state.MkdirPrivate(dir); err != nil {
		return nil, err
	}
	unlock, err := state.Lock(filepath.Join(dir, compactionsLock), compactionsLockWait)
	defer unlock()
	problem := filepath.Join(dir, state.CompactionsProblemFile)
	if err != nil {
		// For the statusline's ⚠ until an update succeeds: the log alone is seen by no one.
		if werr := state.WriteFile(problem, []byte(lockProblem(err))); werr != nil {
			d.Log("hook", "%s: %v", problem, werr)
		}
		return nil, fmt.Errorf("%w: compactions.json not updated", err)
	}
	defer os.Remove(problem) // the lock was had: whatever failed before is over
	cleanCompactionTemps(dir)
	cs, err := loadCompactions(d, id)
	if err != nil {
		d.Log("hook", "%s: %v (starting a fresh one)", path, err)
	}
	if !f(cs) {
		return cs, nil
	}
	if n := len(cs.Records); n > maxCompactions {
		cs.Records = cs.Records[n-maxCompactions:]
	}
	return cs, state.WriteFile(path, cs.AppendJSON(nil))
}

// lockProblem is the statusline's words for a lock that could not be had.
func lockProblem(err error) string {
	switch {
	case errors.Is(err, state.ErrLockPlanted):
		return "compactions not recorded: a symlink or special file is planted at " + compactionsLock
	case errors.Is(err, state.ErrLockBusy):
		return "compactions not recorded: " + compactionsLock + " held by another process"
	}
	return "compactions not recorded: " + err.Error()
}

// cleanCompactionTemps removes compactions.json temp files; only called with the lock held.
func cleanCompactionTemps(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), state.TempPrefix(compactionsFile)) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
