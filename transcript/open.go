package transcript

import (
	"errors"
	"io"
	"os"

	"github.com/zoneline/zoneline/internal/rawfs"
)

// openError is an error opening or reading a transcript: "zoneline: <op> transcript: <err>".
// (Built without fmt: the statusline meets it on its hot path.)
type openError struct {
	op  string
	err error
}

func (e *openError) Error() string { return "zoneline: " + e.op + " transcript: " + e.err.Error() }
func (e *openError) Unwrap() error { return e.err }

// openRegular opens path for reading without blocking (rawfs: no os.File) and returns it
// with its size. It refuses anything that is not a regular file (a directory, a FIFO,
// /dev/zero) by checking the opened descriptor, so there is no window between the check and
// the open.
func openRegular(path string) (*rawfs.File, int64, error) {
	if path == "" {
		return nil, 0, errors.New("zoneline: no transcript path; Claude Code sends transcript_path in the payload")
	}
	f, err := rawfs.Open(path, false)
	if err != nil {
		if errors.Is(err, rawfs.ErrNotRegular) {
			what := "a special file"
			if fi, serr := os.Stat(path); serr == nil {
				what = kind(fi.Mode())
			}
			return nil, 0, errors.New("zoneline: transcript " + path + " is " + what + ", not a regular file; point transcript_path at a .jsonl file")
		}
		return nil, 0, &openError{"open", err}
	}
	return f, f.Size(), nil
}

// readAt fills p from offset off, or fails: a short read means the file
// shrank while being read.
func readAt(f *rawfs.File, p []byte, off int64) error {
	n, err := f.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return errors.New("zoneline: transcript " + f.Name() + " shrank while being read; retry")
	}
	return &openError{"read", err}
}

// kind names a non-regular file mode for an error message.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	default:
		return "a special file"
	}
}
