//go:build unix

package state

import (
	"io"
	"syscall"
)

const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

var errEOF = io.EOF
