//go:build unix

package rawfs

import (
	"io"
	"time"

	"golang.org/x/sys/unix"
)

// CanWait reports whether WaitReadable and ReadFD work here.
const CanWait = true

// WaitReadable waits up to d for the descriptor fd (a pipe: the process's stdin) to have data,
// its end (the writer closed it) or an error to read: poll(2). ready is false when d passed
// first.
func WaitReadable(fd int, d time.Duration) (ready bool, err error) {
	end := time.Now().Add(d)
	for {
		ms := max(0, int((time.Until(end)+time.Millisecond-1)/time.Millisecond))
		fds := [1]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds[:], ms)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return false, err
		}
		return n > 0, nil
	}
}

// ReadFD reads once from fd into p: io.EOF at the end. A descriptor with nothing to read yet
// (EAGAIN: non-blocking) reads 0 bytes and no error.
func ReadFD(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return 0, nil
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
