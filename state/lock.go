package state

import (
	"errors"
	"time"
)

// A lock guards a read-modify-write of a state file (compactions.json, the snapshots folder).
// A lock that cannot be taken safely is an error, and the caller skips its write with a log
// line: it never goes on unlocked, where racing writers lose each other's updates.

// ErrLockBusy reports a lock still held by another process after the wait.
var ErrLockBusy = errors.New("held by another process")

// ErrLockPlanted reports a symlink or other non-regular file where a lock file belongs.
var ErrLockPlanted = errors.New("a symlink or special file sits there; remove it")

// lockPoll is how often a waiting Lock retries.
const lockPoll = 5 * time.Millisecond

// lockError is Lock's error: "zoneline: lock <path>: <reason>".
type lockError struct {
	path string
	err  error
}

func (e *lockError) Error() string { return "zoneline: lock " + e.path + ": " + e.err.Error() }
func (e *lockError) Unwrap() error { return e.err }
