//go:build unix

package state

import (
	"syscall"
	"time"
)

// Lock takes an exclusive flock on the lock file at path, creating it 0600, and waits up to
// wait for it. The kernel drops the lock when its holder dies, so a writer killed mid-write
// never blocks the next one. A symlink or a special file at path (ErrLockPlanted), any other
// error, or a lock still held after wait (ErrLockBusy) is an error: the caller must not do the
// write it guards. unlock is always safe to call. (Direct system calls, no os.File: see rawfs.)
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	nop := func() {}
	var fd int
	for {
		// O_NOFOLLOW: a planted symlink fails with ELOOP; O_NONBLOCK, O_NOCTTY: a planted FIFO or
		// terminal neither blocks the open nor becomes the controlling terminal.
		fd, err = syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0o600)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.ELOOP {
		return nop, &lockError{path, ErrLockPlanted}
	}
	if err != nil {
		return nop, &lockError{path, err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nop, &lockError{path, err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nop, &lockError{path, ErrLockPlanted}
	}
	if st.Mode&0o7777 != 0o600 {
		syscall.Fchmod(fd, 0o600) // a loose lock file is tightened (best effort: the lock does not depend on it)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				if fd >= 0 {
					syscall.Close(fd)
					fd = -1
				}
			}, nil
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			syscall.Close(fd)
			return nop, &lockError{path, err}
		}
		if err == syscall.EWOULDBLOCK && !time.Now().Before(deadline) {
			syscall.Close(fd)
			return nop, &lockError{path, ErrLockBusy}
		}
		if err == syscall.EWOULDBLOCK {
			time.Sleep(lockPoll)
		}
	}
}
