package compactflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/state"
)

// LockDir is the folder of the per-pane flow locks in the state dir.
const LockDir = "flows"

// ErrBusy reports that a flow already runs on the pane.
var ErrBusy = errors.New("zoneline: a compact-flow already runs on this pane")

// lockInfo is a lock file's content.
type lockInfo struct {
	PID     int       `json:"pid"`
	Session string    `json:"session_id"`
	Socket  string    `json:"tmux_socket"`
	Pane    string    `json:"tmux_pane"`
	Time    time.Time `json:"time"`
}

// LockPath returns the lock file of a pane: <state>/flows/<socket hash>-<pane>.lock.
func LockPath(d state.Dir, t Target) string {
	h := fnv.New64a()
	h.Write([]byte(t.Socket))
	pane := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, t.Pane)
	return filepath.Join(d.Root, LockDir, fmt.Sprintf("%016x-%s.lock", h.Sum64(), pane))
}

// Lock claims the pane for one flow: the lock file is created exclusively, so of two flows on
// the same pane exactly one gets it. A lock older than maxAge (the flow's longest possible run)
// is stale, left by a flow that died, and is replaced. It returns ErrBusy (wrapped, with the
// holder) when another flow holds the pane.
func Lock(d state.Dir, t Target, session string, maxAge time.Duration, now time.Time) (release func(), err error) {
	path := LockPath(d, t)
	data, _ := json.Marshal(lockInfo{PID: os.Getpid(), Session: session, Socket: t.Socket, Pane: t.Pane, Time: now.UTC()})
	for try := 0; try < 2; try++ {
		created, err := state.CreateExclusive(path, append(data, '\n'))
		if err != nil {
			return nil, err
		}
		if created {
			return func() { os.Remove(path) }, nil
		}
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, err
		}
		if now.Sub(fi.ModTime()) <= maxAge {
			return nil, fmt.Errorf("%w (lock %s, taken %s ago): wait for it to finish", ErrBusy, path, now.Sub(fi.ModTime()).Round(time.Second))
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w (lock %s)", ErrBusy, path)
}
