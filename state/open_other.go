//go:build !unix

package state

import "io"

const (
	oNoFollow = 0
	oNonBlock = 0
)

var errEOF = io.EOF
