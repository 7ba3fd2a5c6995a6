//go:build !unix && !windows

package state

import (
	"errors"
	"time"
)

// Lock fails where the system has no file locks: the caller skips the write it guards.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	return func() {}, &lockError{path, errors.New("file locks are not supported on this system")}
}
