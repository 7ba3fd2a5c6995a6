//go:build windows

package state

import (
	"errors"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// LockFileEx through the standard library's syscall: golang.org/x/sys/windows imports net,
// whose package init would then run in every zoneline process (cmd/zoneline's TestNoHeavyDeps).
var procLockFileEx = syscall.NewLazyDLL("kernel32.dll").NewProc("LockFileEx")

const (
	lockfileFailImmediately               = 0x1
	lockfileExclusiveLock                 = 0x2
	errorLockViolation      syscall.Errno = 33 // ERROR_LOCK_VIOLATION
)

// lockFileEx locks bytes [0, 1) of h.
func lockFileEx(h syscall.Handle, flags uint32, ol *syscall.Overlapped) error {
	r, _, e := syscall.SyscallN(procLockFileEx.Addr(), uintptr(h), uintptr(flags), 0, 1, 0, uintptr(unsafe.Pointer(ol)))
	if r != 0 {
		return nil
	}
	if e != 0 {
		return e
	}
	return syscall.EINVAL
}

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
		ol := new(syscall.Overlapped)
		err := lockFileEx(syscall.Handle(f.Fd()), lockfileExclusiveLock|lockfileFailImmediately, ol)
		if err == nil {
			return func() { f.Close() }, nil // (os.File.Close is safe twice)
		}
		if !errors.Is(err, errorLockViolation) {
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
