//go:build !unix

package rawfs

import (
	"io"
	"time"
)

// DeadlineReader is not available here: ok is false, and the caller reads without a bound.
func DeadlineReader(fd int, deadline time.Time, err error) (r io.Reader, ok bool) {
	return nil, false
}
