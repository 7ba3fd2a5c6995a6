//go:build unix

package rawfs

import (
	"io"
	"time"

	"golang.org/x/sys/unix"
)

// DeadlineReader returns a reader of the descriptor fd (a pipe: the process's stdin) whose
// reads end at deadline with err: each read waits in poll(2) for at most the time left, so a
// writer that never closes its end cannot keep the process reading. ok is false where that is
// not available; the caller then reads without a bound.
func DeadlineReader(fd int, deadline time.Time, err error) (r io.Reader, ok bool) {
	return &deadlineReader{fd: fd, deadline: deadline, err: err}, true
}

type deadlineReader struct {
	fd       int
	deadline time.Time
	err      error
}

func (r *deadlineReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		left := time.Until(r.deadline)
		if left <= 0 {
			return 0, r.err
		}
		fds := [1]unix.PollFd{{Fd: int32(r.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds[:], int((left+time.Millisecond-1)/time.Millisecond))
		if err == unix.EINTR || err == nil && n == 0 {
			continue // interrupted, or the time is up: checked at the top
		}
		if err != nil {
			return 0, err
		}
		// Readable, at its end (POLLHUP) or in error: read says which.
		m, err := unix.Read(r.fd, p)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN: // (EAGAIN: a non-blocking descriptor)
			continue
		case err != nil:
			return 0, err
		case m == 0:
			return 0, io.EOF
		}
		return m, nil
	}
}
