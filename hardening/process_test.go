//go:build unix

package hardening

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/state"
)

// Deadlines of the processes, from their start (cli/process.go, hookevent.Deadline), and the margin
// a loaded machine gets on top.
const (
	statuslineDeadline = 2 * time.Second
	hookDeadline       = 4 * time.Second
	deadlineMargin     = 1500 * time.Millisecond
	// wholePayloadWait bounds a run whose whole payload arrived on a stdin left open: nowhere
	// near the deadline (it waits 20 ms of quiet), so a run that waited for the stdin bound fails.
	wholePayloadWait = 500 * time.Millisecond
)

// runOpenStdin runs zoneline with stdin a pipe that gets stdin written and is then left open
// until the process has exited (as a writer that never closes it), and returns the result.
func runOpenStdin(t *testing.T, w *world, bin string, stdin []byte, args ...string) result {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = w.env, w.project, pr
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	pw.Write(stdin)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var r result
	select {
	case err = <-done:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		err = <-done
		r.hung = true
	}
	r.stdout, r.stderr, r.took = out.Bytes(), errb.Bytes(), time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	}
	return r
}

// TestStdinLeftOpen: a writer that never closes stdin cannot keep the statusline or a hook past
// its deadline (the hook's started after the read: it ran 7 s and more). Whether the payload
// arrived or not, each exits 0 in time; a payload that arrived whole is used at once (the read
// ends when stdin stays quiet after a whole JSON object), a partial one is reported.
func TestStdinLeftOpen(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	for _, tc := range []struct {
		name    string
		args    []string
		stdin   []byte
		limit   time.Duration
		wantOut string // in stdout
	}{
		{"statusline", []string{"statusline"}, statuslinePayload(w, sessionID, 150_000), wholePayloadWait, "150k"},
		{"statusline-nothing", []string{"statusline"}, nil, statuslineDeadline, "⚠"},
		{"statusline-half", []string{"statusline"}, statuslinePayload(w, sessionID, 150_000)[:40], statuslineDeadline, "⚠"},
		{"PreCompact", []string{"hook"}, hookPayload(w, sessionID, "PreCompact"), wholePayloadWait, hookevent.NothingToKeep},
		{"UserPromptSubmit", []string{"hook"}, hookPayload(w, sessionID, "UserPromptSubmit"), wholePayloadWait, ""},
		{"hook-nothing", []string{"hook"}, nil, hookDeadline, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runOpenStdin(t, w, bin, tc.stdin, tc.args...)
			if tc.args[0] == "statusline" {
				checkStatusline(t, tc.name, r)
			} else {
				checkHook(t, tc.name, r)
			}
			if r.took > tc.limit+deadlineMargin {
				t.Errorf("%s with stdin left open took %v, deadline %v", tc.name, r.took.Round(time.Millisecond), tc.limit)
			}
			if !strings.Contains(termcolor.Strip(string(r.stdout)), tc.wantOut) {
				t.Errorf("%s printed %q, want %q in it", tc.name, r.stdout, tc.wantOut)
			}
		})
	}
	if log, _ := os.ReadFile(filepath.Join(w.state, "zoneline.log")); !bytes.Contains(log, []byte("reading stdin: still open after")) {
		t.Errorf("the log does not name the open stdin:\n%s", log)
	}
}

// runClosedStdout runs zoneline with stdout a pipe whose reader is already gone: its write
// fails (EPIPE) or, if unhandled, SIGPIPE kills it (exit 141).
func runClosedStdout(t *testing.T, w *world, bin string, stdin []byte, args ...string) (code int, signaled bool) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	defer pw.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir, cmd.Stdin, cmd.Stdout = w.env, w.project, bytes.NewReader(stdin), pw
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ws, _ := ee.Sys().(syscall.WaitStatus)
		return ee.ExitCode(), ws.Signaled()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, false
}

// TestReaderGone: when the reader of stdout has gone, the statusline and the hooks still exit
// 0 and finish their bookkeeping: the registry and the warning marker are written, the nudge
// is marked delivered, the snapshot is kept.
func TestReaderGone(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	sdir := filepath.Join(w.state, "sessions", sessionID)
	exists := func(what, pattern string) {
		t.Helper()
		if m, _ := filepath.Glob(filepath.Join(sdir, pattern)); len(m) == 0 {
			names, _ := os.ReadDir(sdir)
			t.Errorf("%s: no %s in the session's folder: %v", what, pattern, names)
		}
	}
	if code, sig := runClosedStdout(t, w, bin, statuslinePayload(w, sessionID, 190_000), "statusline"); code != 0 || sig {
		t.Fatalf("statusline with its reader gone: exit %d (signaled %v), want 0", code, sig)
	}
	exists("statusline", "session.json")
	exists("statusline", "marker-*-dumb.json")
	if s := loadSession(t, w, sessionID); s.Tokens != 190_000 {
		t.Errorf("session.json has %d tokens, want 190000", s.Tokens)
	}
	if code, sig := runClosedStdout(t, w, bin, hookPayload(w, sessionID, "UserPromptSubmit"), "hook"); code != 0 || sig {
		t.Errorf("UserPromptSubmit with its reader gone: exit %d (signaled %v), want 0", code, sig)
	}
	exists("UserPromptSubmit", "delivered-*")
	exists("UserPromptSubmit", "prompt.json")
	if code, sig := runClosedStdout(t, w, bin, hookPayload(w, sessionID, "PreCompact"), "hook"); code != 0 || sig {
		t.Errorf("PreCompact with its reader gone: exit %d (signaled %v), want 0", code, sig)
	}
	if m, _ := filepath.Glob(filepath.Join(w.state, "snapshots", "*.json")); len(m) == 0 {
		t.Error("PreCompact with its reader gone wrote no snapshot")
	}
}

// TestWholeProcessDeadline: a config that takes seconds to load (20,000 unknown tables: each
// error re-scanned the file) cannot keep the statusline or a hook past its deadline, which runs
// from the process's start: the statusline prints a line (its fallback at the latest) and exits
// 0, the hook exits 0 having printed nothing or one answer.
func TestWholeProcessDeadline(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	var cfg strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&cfg, "[unknown_table_%05d]\n", i)
	}
	write(t, w.config, []byte(cfg.String()))
	r := w.run(t, bin, statuslinePayload(w, sessionID, 150_000), []string{"statusline"})
	checkStatusline(t, "statusline", r)
	if r.took > statuslineDeadline+deadlineMargin {
		t.Errorf("statusline with a slow config took %v, deadline %v", r.took.Round(time.Millisecond), statuslineDeadline)
	}
	r = w.run(t, bin, hookPayload(w, sessionID, "UserPromptSubmit"), []string{"hook"})
	checkHook(t, "UserPromptSubmit", r)
	if r.took > hookDeadline+deadlineMargin {
		t.Errorf("hook with a slow config took %v, deadline %v", r.took.Round(time.Millisecond), hookDeadline)
	}
}

// TestReaderGoneCommands: `watch` and `compact-flow` type into other panes and may outlive the
// reader of their stdout: with it gone, a write fails (EPIPE) instead of SIGPIPE killing them
// between a step sent and its record.
func TestReaderGoneCommands(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	sdir := filepath.Join(w.state, "sessions", sessionID)
	write(t, filepath.Join(sdir, "session.json"), []byte(`{"session_id":"`+sessionID+`","updated":"`+
		time.Now().UTC().Format(time.RFC3339)+`","tmux_pane":"%3","cwd":"`+w.project+`"}`))
	for _, args := range [][]string{{"watch", "-once"}, {"compact-flow", "-dry-run", "-session", sessionID}} {
		if _, sig := runClosedStdout(t, w, bin, nil, args...); sig {
			t.Errorf("%v with its reader gone: killed by a signal (SIGPIPE)", args)
		}
	}
}

// TestHookDeadlineFromStart: the hook's deadline runs from the process's start, not from the
// end of the stdin read: the payload's last byte comes 2.9 s after the rest, then PreCompact meets a busy snapshots lock (1 s wait) and, with hold_once, a busy
// compactions lock (2 s): 6 s of waits in all. The hook must still exit 0 by its 4 s.
func TestHookDeadlineFromStart(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	write(t, w.config, []byte("[precompact]\nhold_once = true\n"))
	sdir := filepath.Join(w.state, "sessions", sessionID)
	for _, lock := range []string{filepath.Join(w.state, "snapshots", ".lock"), filepath.Join(sdir, ".compactions.lock")} {
		os.MkdirAll(filepath.Dir(lock), 0o700)
		unlock, err := state.Lock(lock, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "hook")
	cmd.Env, cmd.Dir, cmd.Stdin = w.env, w.project, pr
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	done := make(chan error, 1)
	done2 := make(chan struct{})
	go func() { done <- cmd.Wait(); close(done2) }()
	go func() { // the payload but its last byte at once, the last byte 2.9 s later
		defer pw.Close()
		p := hookPayload(w, sessionID, "PreCompact", "trigger", "auto")
		pw.Write(p[:len(p)-1])
		time.Sleep(2900 * time.Millisecond)
		pw.Write(p[len(p)-1:])
		<-done2
	}()
	select {
	case err = <-done:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		err = <-done
	}
	took := time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) || err != nil {
		t.Errorf("exit: %v; stderr %q", err, errb.String())
	}
	t.Logf("PreCompact exited after %v: %q", took.Round(time.Millisecond), out.String())
	if took > hookDeadline+500*time.Millisecond {
		t.Errorf("PreCompact took %v: its deadline (%v) did not run from the process's start", took.Round(time.Millisecond), hookDeadline)
	}
	if took < 2900*time.Millisecond {
		t.Errorf("PreCompact took only %v: stdin was not held for its bound, the test proves nothing", took.Round(time.Millisecond))
	}
}
