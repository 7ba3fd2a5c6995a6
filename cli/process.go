package cli

import (
	"errors"
	"os"
	"time"

	"github.com/zoneline/zoneline/internal/deadline"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/payload"
)

// The statusline's and the hooks' bounds, counted from the process's start (before stdin is
// read). The hook's whole deadline is hook.Deadline.
const (
	statuslineDeadline  = 2 * time.Second        // the whole render: a fallback line is printed then
	statuslineStdinWait = 500 * time.Millisecond // stdin left open: render what arrived by then
	hookStdinWait       = time.Second            // the same for a hook
)

// readPayload reads the payload on stdin. When stdin is the process's (Main), the read ends
// wait after start even if the writer never closes its end, with what arrived and an error.
func (e *Env) readPayload(start time.Time, wait time.Duration) ([]byte, error) {
	r := e.Stdin
	if e.process {
		if dr, ok := rawfs.DeadlineReader(0, start.Add(wait), errors.New("stdin still open after "+wait.String())); ok {
			r = dr
		}
	}
	return payload.Read(r)
}

// statuslineGuard bounds a statusline process: at statuslineDeadline after start it prints a
// fallback line if the line was not printed yet, logs, and exits 0. Only for the process's own
// Env (Main): a test calling the command in-process gets nil (no deadline).
func (e *Env) statuslineGuard(start time.Time) *deadline.Guard {
	if !e.process {
		return nil
	}
	return deadline.Start(statuslineDeadline-time.Since(start), func(answered bool) {
		msg := "gave up after " + statuslineDeadline.String()
		if !answered {
			e.Stdout.Write([]byte("⚠ zoneline: " + msg + " (see " + e.State.LogPath() + ")\n"))
		} else {
			msg += " (after the line was printed)"
		}
		logged := make(chan struct{})
		go func() { e.State.LogLine("statusline", msg); close(logged) }()
		select {
		case <-logged:
		case <-time.After(100 * time.Millisecond): // the log may be what is stuck
		}
		os.Exit(exitOK)
	})
}
