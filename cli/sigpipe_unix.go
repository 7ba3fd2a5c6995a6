//go:build unix

package cli

import (
	"os/signal"
	"syscall"
)

// ignoreSIGPIPE makes a write to a closed stdout fail with EPIPE instead of killing the process
// (exit 141) before it saved its state: the statusline and the hooks finish their bookkeeping
// whoever reads their answer.
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }
