// Package rawfs reads and writes files with direct system calls, without os.File, for the
// statusline's and the hooks' hot path. It gives what os does not: a symlink refused
// (O_NOFOLLOW), a FIFO or device refused after fstat without blocking on it, temp files created
// exclusively (O_EXCL) with an exact mode whatever the umask, log lines from racing processes
// as one O_APPEND write each. And no os.File: every one is set non-blocking, offered to the
// runtime's network poller (epoll_ctl, refused for a regular file, then set back) and given a
// cleanup. Measured with whole processes against the same tree opening through os.OpenFile: a
// render 5 % slower, a hook 1-2 % (ARCHITECTURE.md, "The hot path"); cmd/zoneline's
// TestNoFileOfferedToPoller holds it. Errors are *fs.PathError, as os returns, so
// errors.Is(err, fs.ErrNotExist) and the messages stay the same. On systems without the unix
// calls it falls back to os.
package rawfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// ErrTooLarge is returned by ReadFile for a file over its limit (wrapped with the path).
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is returned for a path that is not a regular file (wrapped with the path).
var ErrNotRegular = errors.New("not a regular file")

// IsNotExist reports whether err says a file does not exist, like errors.Is(err,
// fs.ErrNotExist), without the reflection errors.Is does on its target.
func IsNotExist(err error) bool {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	if err == fs.ErrNotExist {
		return true
	}
	if en, ok := err.(syscall.Errno); ok {
		return en.Is(fs.ErrNotExist)
	}
	return errors.Is(err, fs.ErrNotExist)
}

// ReadFile reads the regular file at path, refusing (ErrNotRegular) a FIFO, a device or a
// folder without blocking on it, and a file over limit bytes (ErrTooLarge). With noFollow a
// symlink at path is refused too (the kernel's ELOOP).
func ReadFile(path string, limit int64, noFollow bool) ([]byte, error) {
	f, err := Open(path, noFollow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	buf := make([]byte, f.Size())
	n, err := f.ReadAt(buf, 0)
	if err != nil && n < len(buf) && err != io.EOF { // a file that shrank: what is left
		return nil, err
	}
	return buf[:n], nil
}

// ModTime returns the modification time of what is at path (without following a symlink).
func ModTime(path string) (time.Time, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}
