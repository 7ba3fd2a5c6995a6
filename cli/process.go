package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/deadline"
	"github.com/zoneline/zoneline/internal/detach"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/payload"
)

// The statusline's and the hooks' bounds, counted from the process's start (before stdin is
// read). The hook's whole deadline is hook.Deadline.
const (
	statuslineDeadline  = 2 * time.Second         // the whole render: a fallback line is printed then
	statuslineStdinWait = 1500 * time.Millisecond // stdin left open on a partial payload: render what arrived by then
	hookStdinWait       = 3 * time.Second         // the same for a hook
	answerStdinWait     = 3 * time.Second         // mod save-checkpoint's answer: incomplete at that, nothing is written
	// stdinIdle is how long stdin may stay quiet, open, after a whole JSON object arrived before
	// the read ends without waiting for the writer to close it.
	stdinIdle = 20 * time.Millisecond
)

// readPayload reads the payload on stdin. When stdin is the process's (Main), the read cannot
// outlast wait after start: it ends when the writer closes stdin, when a whole JSON object has
// arrived and stdin stays quiet for stdinIdle, or at wait with what arrived and an error.
func (e *Env) readPayload(start time.Time, wait time.Duration) ([]byte, error) {
	if !e.process || !rawfs.CanWait {
		return payload.Read(e.Stdin)
	}
	deadline := start.Add(wait)
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) > payload.MaxInput {
			return buf[:payload.MaxInput], payload.ErrTooLarge
		}
		left := time.Until(deadline)
		if left <= 0 {
			return buf, errors.New("zoneline: reading stdin: still open after " + wait.String() + ", the payload incomplete")
		}
		ready, err := rawfs.WaitReadable(0, min(left, stdinIdle))
		if err != nil {
			return buf, errors.New("zoneline: reading stdin: " + err.Error())
		}
		if !ready {
			if len(buf) > 0 && payload.Complete(buf) {
				return buf, nil // a writer that never closes stdin: the payload is whole
			}
			continue
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := rawfs.ReadFD(0, buf[len(buf):min(cap(buf), payload.MaxInput+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, errors.New("zoneline: reading stdin: " + err.Error())
		}
	}
}

// statuslineGuard bounds a statusline process: at statuslineDeadline after start it prints a
// fallback line if the line was not printed yet, logs, and exits 0. Only for the process's own
// Env (Main): a test calling the command in-process gets nil (no deadline).
func (e *Env) statuslineGuard(start time.Time) *deadline.Guard {
	return e.processGuard(start, "statusline", func(msg string) []byte {
		return []byte("⚠ zoneline: " + msg + " (see " + e.State.LogPath() + ")\n")
	})
}

// processGuard bounds a process Claude Code or the mod runs after every turn (the statusline,
// `mod status`) from its start: at statuslineDeadline it prints fallback's answer if the real
// one was not printed yet, logs under name, and exits 0. nil for an Env that is not the
// process's own (a test calling the command in-process).
func (e *Env) processGuard(start time.Time, name string, fallback func(msg string) []byte) *deadline.Guard {
	if !e.process {
		return nil
	}
	return deadline.Start(statuslineDeadline-time.Since(start), func(answered bool) {
		msg := "gave up after " + statuslineDeadline.String()
		if !answered {
			e.Stdout.Write(fallback(msg))
		} else {
			msg += " (after the answer was printed)"
		}
		logged := make(chan struct{})
		go func() { e.State.LogLine(name, msg); close(logged) }()
		select {
		case <-logged:
		case <-time.After(100 * time.Millisecond): // the log may be what is stuck
		}
		os.Exit(exitOK)
	})
}

// startDetached starts this zoneline with args, detached (internal/detach), after the line is
// printed; what names it in the log when it cannot start. A test binary running cli in-process
// has no such command: it starts nothing.
func (e *Env) startDetached(what string, args ...string) {
	bin, err := os.Executable()
	if err == nil && strings.TrimSuffix(filepath.Base(bin), ".exe") != "zoneline" {
		return
	}
	if err == nil {
		err = detach.Start(bin, args)
	}
	if err != nil {
		e.State.Log("statusline", "%s: %v", what, err)
	}
}
