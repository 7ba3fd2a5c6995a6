package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/redact"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/state"
)

// checkpointUsage is `zoneline checkpoint`'s usage line.
const checkpointUsage = "usage: zoneline checkpoint path | show | verify | reconcile | template | compact-line [-session ID] [-file PATH]"

// checkpointOptions are the flags every checkpoint subcommand takes.
type checkpointOptions struct {
	Session string        // -session; else $CLAUDE_CODE_SESSION_ID
	File    string        // -file: a checkpoint file to use instead of the session's
	Timeout time.Duration // reconcile: per verify command
}

// runCheckpoint is `zoneline checkpoint path|show|verify|reconcile|template`.
func runCheckpoint(e *Env, args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(e.Stderr, checkpointUsage)
		return exitUsage
	}
	sub := args[0]
	fs := e.flags("checkpoint "+sub, "[-session ID] [-file PATH]")
	var o checkpointOptions
	fs.StringVar(&o.Session, "session", "", "session id (default: $CLAUDE_CODE_SESSION_ID, which Claude Code sets for the commands it runs)")
	fs.StringVar(&o.File, "file", "", "a checkpoint file to use instead of the session's")
	if sub == "reconcile" {
		fs.DurationVar(&o.Timeout, "timeout", checkpoint.DefaultVerifyTimeout, "time allowed for each verify command")
	}
	if code, ok := parse(fs, args[1:]); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "zoneline: unexpected argument %q\n%s\n", fs.Arg(0), checkpointUsage)
		return exitUsage
	}
	switch sub {
	case "path":
		return e.checkpointPath(o)
	case "show":
		return e.checkpointShow(o)
	case "verify":
		return e.checkpointVerify(o)
	case "reconcile":
		return e.checkpointReconcile(o)
	case "template":
		return e.checkpointTemplate(o)
	case "compact-line":
		return e.checkpointCompactLine()
	}
	fmt.Fprintf(e.Stderr, "zoneline: unknown checkpoint command %q\n%s\n", sub, checkpointUsage)
	return exitUsage
}

// session returns the session id from -session or $CLAUDE_CODE_SESSION_ID; it never guesses.
func (e *Env) session(o checkpointOptions) (string, error) {
	id, from := o.Session, "-session"
	if id == "" {
		id, from = e.Getenv("CLAUDE_CODE_SESSION_ID"), "CLAUDE_CODE_SESSION_ID"
	}
	if id == "" {
		return "", errors.New("zoneline: no session: CLAUDE_CODE_SESSION_ID is not set (Claude Code sets it for the commands it runs); run this from inside Claude Code or pass -session ID")
	}
	if !state.ValidSessionID(id) {
		return "", fmt.Errorf("zoneline: %s %q is not a session id (a UUID)", from, id)
	}
	return strings.ToLower(id), nil
}

// file returns the checkpoint to work on and its session ("" with -file and no session).
func (e *Env) checkpointFile(o checkpointOptions) (path, id string, err error) {
	if o.File != "" {
		if o.Session != "" || e.Getenv("CLAUDE_CODE_SESSION_ID") != "" {
			if id, err = e.session(o); err != nil {
				return "", "", err // a session given but not valid: say so, do not skip the check
			}
		}
		return o.File, id, nil
	}
	id, err = e.session(o)
	if err != nil {
		return "", "", err
	}
	path, err = checkpoint.Path(e.State, id)
	if fi, lerr := os.Lstat(path); err == nil && lerr == nil {
		state.Private(path, fi) // the agent's Write tool made it 0644: the state dir's files are 0600
	}
	return path, id, err
}

func (e *Env) fail(err error) int {
	fmt.Fprintln(e.Stderr, safetext.Text(err.Error())) // errors quote paths, files, pane text
	return exitFail
}

// checkpointPath prints the session's checkpoint path, creating its private folder so the agent
// can write the file there.
func (e *Env) checkpointPath(o checkpointOptions) int {
	path, _, err := e.checkpointFile(o)
	if err != nil {
		return e.fail(err)
	}
	if o.File == "" {
		if err := state.MkdirPrivate(dirOf(path)); err != nil {
			return e.fail(err)
		}
	}
	fmt.Fprintln(e.Stdout, path)
	return exitOK
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, os.PathSeparator); i > 0 {
		return path[:i]
	}
	return "."
}

// readCheckpoint reads the checkpoint or explains how to make one.
func (e *Env) readCheckpoint(path string) (string, bool) {
	text, _, err := checkpoint.Read(path)
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(e.Stderr, "zoneline: no checkpoint at %s: run /compact-prep in Claude Code (or 'zoneline checkpoint template' for the skeleton)\n", path)
		return "", false
	}
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return "", false
	}
	return text, true
}

// checkpointShow prints the checkpoint. For a session's checkpoint it first judges it by the
// rule the restore uses (checkpoint.Current): a stale one (written before the last compaction it
// was not written for, or past stale_minutes) is printed under a STALE banner, as history only,
// and the command exits 1, so that /postcompact never takes it for ground truth.
func (e *Env) checkpointShow(o checkpointOptions) int {
	path, id, err := e.checkpointFile(o)
	if err != nil {
		return e.fail(err)
	}
	text, ok := e.readCheckpoint(path)
	if !ok {
		return exitFail
	}
	// Written by the agent, which quotes payloads and tool output: redacted and made safe as the
	// restore is (/postcompact reads this output into the context).
	text = safetext.Text(redact.String(text))
	code := exitOK
	if o.File == "" && id != "" {
		cfg, err := config.Load(e.Paths.Config)
		if err != nil { // the checkpoint is still shown; the staleness limit is the default's
			fmt.Fprintf(e.Stderr, "zoneline: %s (using the default stale_minutes)\n", safetext.Line(oneLine(err.Error())))
			cfg = config.Default()
		}
		f, err := checkpoint.Current(e.State, id, e.Now(), time.Duration(cfg.Checkpoint.StaleMinutes)*time.Minute)
		if err != nil {
			fmt.Fprintf(e.Stderr, "zoneline: reading the compaction state: %s\n", safetext.Line(err.Error()))
		}
		if f.Stale() {
			fmt.Fprintf(e.Stdout, "zoneline: STALE CHECKPOINT: %s is not ground truth: %s.\n"+
				"zoneline: read it only as history, verify each point before relying on it, and run /compact-prep for a fresh one.\n"+
				"--- stale checkpoint (history) ---\n", path, f.Why())
			code = exitFail
		}
	}
	fmt.Fprint(e.Stdout, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(e.Stdout)
	}
	return code
}

// loadConfig loads the config for a command a person runs: a broken config fails loudly.
func (e *Env) loadConfig() (*config.Config, bool) {
	cfg, err := config.Load(e.Paths.Config)
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s\nzoneline: fix the config (run 'zoneline config check')\n", err)
		return nil, false
	}
	return cfg, true
}

// checkpointVerify prints each problem as path:line: reason and exits 1 when there is any.
func (e *Env) checkpointVerify(o checkpointOptions) int {
	path, id, err := e.checkpointFile(o)
	if err != nil {
		return e.fail(err)
	}
	cfg, ok := e.loadConfig()
	if !ok {
		return exitFail
	}
	text, ok := e.readCheckpoint(path)
	if !ok {
		return exitFail
	}
	ps := checkpoint.Verify(checkpoint.Parse(text), checkpoint.VerifyOptions{Budget: cfg.Checkpoint.Budget, Session: id})
	for _, p := range ps {
		fmt.Fprintf(e.Stderr, "%s:%d: %s\n", path, p.Line, safetext.Line(p.Msg)) // quotes the checkpoint
	}
	if len(ps) > 0 {
		fmt.Fprintf(e.Stderr, "zoneline: %d problem(s) in the checkpoint: fix each line above and run 'zoneline checkpoint verify' again\n", len(ps))
		return exitFail
	}
	fmt.Fprintf(e.Stdout, "zoneline: checkpoint OK: %s (%d of %d characters)\n", path, utf8.RuneCountInString(text), cfg.Checkpoint.Budget)
	return exitOK
}

// checkpointReconcile runs each External state row's verify command (the user's own text) and
// reports CONFIRMED / CORRECTED / UNVERIFIABLE per row; it exits 1 unless every row is CONFIRMED.
func (e *Env) checkpointReconcile(o checkpointOptions) int {
	path, _, err := e.checkpointFile(o)
	if err != nil {
		return e.fail(err)
	}
	text, ok := e.readCheckpoint(path)
	if !ok {
		return exitFail
	}
	ck := checkpoint.Parse(text)
	if len(ck.External) == 0 {
		fmt.Fprintf(e.Stdout, "zoneline: %s has no External state rows: nothing to reconcile\n", path)
		return exitOK
	}
	dir := ck.Header.Cwd
	if fi, err := os.Stat(dir); dir == "" || err != nil || !fi.IsDir() {
		dir, _ = os.Getwd()
	}
	fmt.Fprintf(e.Stderr, "zoneline: running %d verify command(s) from %s in %s (each under %s)\n", len(ck.External), path, dir, o.Timeout)
	bad := 0
	for _, r := range checkpoint.Reconcile(context.Background(), ck, checkpoint.ReconcileOptions{Dir: dir, Timeout: o.Timeout}) {
		fmt.Fprintf(e.Stdout, "%s:%d: %-12s %s | %s: %s\n", path, r.Row.Line, r.Outcome,
			safetext.Line(r.Row.System), safetext.Line(r.Row.Identifier), safetext.Line(r.Reason))
		if r.Outcome != checkpoint.Confirmed {
			bad++
			if r.Output != "" {
				fmt.Fprintf(e.Stdout, "    output: %s\n", oneLine(r.Output))
			}
		}
	}
	if bad > 0 {
		fmt.Fprintf(e.Stderr, "zoneline: %d row(s) not confirmed: update their applied column (CORRECTED) or check them by hand (UNVERIFIABLE) before any non-idempotent action\n", bad)
		return exitFail
	}
	return exitOK
}

// templateNoSession stands for the session id in a skeleton printed outside Claude Code.
const templateNoSession = "<the session id: Claude Code's CLAUDE_CODE_SESSION_ID>"

// checkpointTemplate prints an empty checkpoint with the identity header filled in. Outside
// Claude Code, with no -session, it prints the skeleton with a placeholder for the session (a
// note on stderr says so): the skeleton needs no session, only a checkpoint does.
func (e *Env) checkpointTemplate(o checkpointOptions) int {
	h := checkpoint.Header{Session: templateNoSession, Time: e.Now(), Compactions: 0}
	if o.Session != "" || e.Getenv("CLAUDE_CODE_SESSION_ID") != "" {
		id, err := e.session(o)
		if err != nil {
			return e.fail(err) // a session given but not valid: say so
		}
		h.Session = id
		if s, err := e.State.LoadSession(id); err == nil {
			h.Model, h.Cwd, h.Compactions = s.ModelID, s.Cwd, s.Compactions
		}
	} else {
		fmt.Fprintln(e.Stderr, "zoneline: no session (CLAUDE_CODE_SESSION_ID is not set, no -session): the skeleton's session is a placeholder")
	}
	if h.Cwd == "" {
		h.Cwd = e.Getenv("CLAUDE_PROJECT_DIR")
	}
	if h.Cwd == "" {
		h.Cwd, _ = os.Getwd()
	}
	if h.Model == "" {
		h.Model = "unknown"
	}
	// The registry's model and cwd came from payloads, the cwd maybe from the environment.
	h.Model, h.Cwd = safetext.Line(h.Model), safetext.Line(h.Cwd)
	fmt.Fprint(e.Stdout, checkpoint.Template(h))
	return exitOK
}
