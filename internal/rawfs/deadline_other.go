//go:build !unix

package rawfs

import (
	"errors"
	"time"
)

// CanWait reports whether WaitReadable and ReadFD work here: not here; the caller reads stdin
// without a bound (the process's deadline still ends it).
const CanWait = false

var errNoWait = errors.New("not available on this system")

// WaitReadable is not available here.
func WaitReadable(fd int, d time.Duration) (ready bool, err error) { return false, errNoWait }

// ReadFD is not available here.
func ReadFD(fd int, p []byte) (int, error) { return 0, errNoWait }
