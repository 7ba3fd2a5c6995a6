//go:build windows

package state

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// Lock takes an exclusive LockFileEx lock on the lock file at path, creating it, and waits up
// to wait for it. Windows drops the lock when its holder dies. A symlink or a special file at
// path (ErrLockPlanted), any other error, or a lock still held after wait (ErrLockBusy) is an
// error: the caller must not do the write it guards. unlock is always safe to call.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	nop := func() {}
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nop, &lockError{path, ErrLockPlanted}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nop, &lockError{path, err}
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nop, &lockError{path, ErrLockPlanted}
	}
	deadline := time.Now().Add(wait)
	for {
		ol := new(windows.Overlapped)
		err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
		if err == nil {
			return func() { f.Close() }, nil // (os.File.Close is safe twice)
		}
		if !errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			f.Close()
			return nop, &lockError{path, err}
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nop, &lockError{path, ErrLockBusy}
		}
		time.Sleep(lockPoll)
	}
}
