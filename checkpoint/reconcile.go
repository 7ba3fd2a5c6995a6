package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// DefaultVerifyTimeout bounds one verify command in Reconcile.
const DefaultVerifyTimeout = 10 * time.Second

// maxVerifyOutput is how much of a verify command's output a Result keeps.
const maxVerifyOutput = 400

// The exit codes of the verify convention: a verify command answers with exit 0 (applied) or
// exit 1 (not applied). Any other exit (2, 126, 127, git's 128, …), a signal or a timeout means
// the check itself failed (no network, no auth, no such command) and is never read as an answer.
const (
	exitApplied    = 0
	exitNotApplied = 1
)

// Outcome is what Reconcile found for one External state row.
//
// A verify command follows one convention: exit 0 when the row's action is applied, exit 1 when
// it is not; anything else is no answer. Against the row's "applied" cell:
//
//	CONFIRMED     the command answered and agrees with the row (exit 0 and applied=yes, or exit 1 and applied=no)
//	CORRECTED     the command answered and disagrees, or the row said UNKNOWN: the row's applied value is
//	              wrong and Result.Observed holds the truth ("yes" on exit 0, "no" on exit 1)
//	UNVERIFIABLE  there is no command, or it gave no answer: it exited with another code (git's 128 with
//	              the network down, gh without auth, 126/127 not executable or not found), was killed by a
//	              signal, timed out, or could not start. The row stays as written and must be checked by
//	              hand before any non-idempotent action.
type Outcome string

// The outcomes.
const (
	Confirmed    Outcome = "CONFIRMED"
	Corrected    Outcome = "CORRECTED"
	Unverifiable Outcome = "UNVERIFIABLE"
)

// Result is one row's reconciliation.
type Result struct {
	Row      Row
	Outcome  Outcome
	Observed string // "yes" or "no" when the command answered; "" when UNVERIFIABLE
	Exit     int    // the command's exit code; -1 when it did not exit normally or did not run
	Output   string // the start of its combined output, trimmed
	Reason   string // why, in words
}

// ReconcileOptions configure Reconcile.
type ReconcileOptions struct {
	Dir     string        // the commands' working directory (the checkpoint's cwd)
	Timeout time.Duration // per command; DefaultVerifyTimeout when <= 0
	Env     []string      // the commands' environment; nil inherits zoneline's
}

// Reconcile runs each External state row's verify command and compares its answer with the row.
// The commands are the user's own text from their checkpoint file, run as `sh -c <command>` in
// opts.Dir, one at a time, each under opts.Timeout (its whole process group is killed when the
// time is up). Nothing else is ever handed to a shell. It is only called by `zoneline checkpoint
// reconcile`, never by a hook.
func Reconcile(ctx context.Context, c *Checkpoint, opts ReconcileOptions) []Result {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultVerifyTimeout
	}
	out := make([]Result, 0, len(c.External))
	for _, r := range c.External {
		out = append(out, reconcileRow(ctx, r, opts))
	}
	return out
}

func reconcileRow(ctx context.Context, r Row, opts ReconcileOptions) Result {
	res := Result{Row: r, Exit: -1}
	if r.Verify == "" {
		res.Outcome, res.Reason = Unverifiable, "no verify command"
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, "sh", "-c", r.Verify)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	res.Output = trimOutput(buf.String())
	var ee *exec.ExitError
	switch {
	case cctx.Err() != nil:
		res.Outcome, res.Reason = Unverifiable, "timed out after "+opts.Timeout.String()
		return res
	case err == nil:
		res.Exit = 0
	case errors.As(err, &ee) && ee.Exited():
		res.Exit = ee.ExitCode()
	case errors.As(err, &ee):
		res.Outcome, res.Reason = Unverifiable, "the check was killed ("+ee.String()+"): no answer"
		return res
	default:
		res.Outcome, res.Reason = Unverifiable, "could not run: "+err.Error()
		return res
	}
	switch res.Exit {
	case exitApplied:
		res.Observed = "yes"
	case exitNotApplied:
		res.Observed = "no"
	default:
		res.Outcome, res.Reason = Unverifiable, "the check failed (exit "+strconv.Itoa(res.Exit)+"): only exit 0 (applied) and exit 1 (not applied) are answers"
		if res.Exit == 126 || res.Exit == 127 {
			res.Reason += "; 126/127: the command was not found or not executable"
		}
		return res
	}
	switch {
	case r.Applied == res.Observed:
		res.Outcome, res.Reason = Confirmed, "applied="+r.Applied+" and the command agrees"
	case res.Observed == "yes":
		res.Outcome, res.Reason = Corrected, "the row says applied="+r.Applied+" but the command exits 0: it IS applied"
	default:
		res.Outcome, res.Reason = Corrected, "the row says applied="+r.Applied+" but the command exits 1: it is NOT applied"
	}
	return res
}

func trimOutput(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > maxVerifyOutput {
		s = s[:maxVerifyOutput] + "…"
	}
	return s
}
