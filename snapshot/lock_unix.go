//go:build unix

package snapshot

import (
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// LockName is the lock file the snapshots folder's writers share.
const LockName = ".lock"

// Lock takes an exclusive flock on the file at path (created 0600), waiting up to a second. The kernel drops it when
// the holder dies, so a writer killed mid-write never blocks the next one. ok is false when the
// lock could not be had in time; the caller may still go on, but must not clean temp files.
// unlock is always safe to call.
func Lock(path string) (unlock func(), ok bool) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return func() {}, false
	}
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, true
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR || time.Now().After(deadline) {
			f.Close()
			return func() {}, false
		}
		time.Sleep(lockPoll)
	}
}

func lock(dir string) (func(), bool) { return Lock(filepath.Join(dir, LockName)) }
