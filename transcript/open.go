package transcript

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// openRegular opens path for reading without blocking and returns it with
// its size. It refuses anything that is not a regular file (a directory, a
// FIFO, /dev/zero) by checking the opened descriptor, so there is no window
// between the check and the open.
func openRegular(path string) (*os.File, int64, error) {
	if path == "" {
		return nil, 0, errors.New("zoneline: no transcript path; Claude Code sends transcript_path in the payload")
	}
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("zoneline: open transcript: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("zoneline: stat transcript: %w", err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("zoneline: transcript %s is %s, not a regular file; point transcript_path at a .jsonl file", path, kind(fi.Mode()))
	}
	return f, fi.Size(), nil
}

// readAt fills p from offset off, or fails: a short read means the file
// shrank while being read.
func readAt(f *os.File, p []byte, off int64) error {
	n, err := f.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return fmt.Errorf("zoneline: transcript %s shrank while being read; retry", f.Name())
	}
	return fmt.Errorf("zoneline: read transcript: %w", err)
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
