package cli

import (
	"context"
	"errors"
	"flag"
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

var cmdCheckpoint = &Command{
	Name:      "checkpoint",
	UsageLine: "checkpoint path | show | verify | reconcile | template | compact-line [flags]",
	Short:     "the /compact-prep checkpoint: its path, show, verify, reconcile, the template, the /compact line",
	Long: `Work with the session's /compact-prep checkpoint (the skills run these from Claude Code,
which sets CLAUDE_CODE_SESSION_ID):

  path          print the checkpoint's path, creating its private folder
  show          print it; a stale one (older than the last compaction, or past stale_minutes)
                under a STALE banner, and exit 1
  verify        check it against the format and the budget: each problem as file:line: reason
  reconcile     run each External state row's verify command (-timeout each) and report
                CONFIRMED / CORRECTED / UNVERIFIABLE; exit 1 unless all are confirmed
  template      print an empty checkpoint with its identity header filled in
  compact-line  print the /compact line with the config's compact_instructions`,
	Parse: parseCheckpoint,
}

// checkpointOptions are the flags every checkpoint subcommand takes.
type checkpointOptions struct {
	Sub     string
	Session string        // -session; else $CLAUDE_CODE_SESSION_ID
	File    string        // -file: a checkpoint file to use instead of the session's
	Timeout time.Duration // reconcile: per verify command
}

func parseCheckpoint(e *Env, fs *flag.FlagSet) func([]string) error {
	var o checkpointOptions
	fs.StringVar(&o.Session, "session", "", "session id (default: $CLAUDE_CODE_SESSION_ID, which Claude Code sets for the commands it runs)")
	fs.StringVar(&o.File, "file", "", "a checkpoint file to use instead of the session's")
	fs.DurationVar(&o.Timeout, "timeout", checkpoint.DefaultVerifyTimeout, "reconcile: time allowed for each verify command")
	return func(args []string) error {
		var err error
		if o.Sub, err = parseSub(fs, args, "name a checkpoint command"); err != nil {
			return err
		}
		if o.Sub != "reconcile" && isSet(fs, "timeout") {
			return usagef("-timeout is for checkpoint reconcile")
		}
		return e.runCheckpoint(o)
	}
}

// runCheckpoint is `zoneline checkpoint path|show|verify|reconcile|template|compact-line`.
func (e *Env) runCheckpoint(o checkpointOptions) error {
	switch o.Sub {
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
	return usagef("unknown checkpoint command %q", o.Sub)
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

// checkpointPath prints the session's checkpoint path, creating its private folder so the agent
// can write the file there.
func (e *Env) checkpointPath(o checkpointOptions) error {
	path, _, err := e.checkpointFile(o)
	if err != nil {
		return err
	}
	if o.File == "" {
		if err := state.MkdirPrivate(dirOf(path)); err != nil {
			return err
		}
	}
	fmt.Fprintln(e.Stdout, path)
	return nil
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, os.PathSeparator); i > 0 {
		return path[:i]
	}
	return "."
}

// readCheckpoint reads the checkpoint or explains how to make one.
func (e *Env) readCheckpoint(path string) (string, error) {
	text, _, err := checkpoint.Read(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("zoneline: no checkpoint at %s: run /compact-prep in Claude Code (or 'zoneline checkpoint template' for the skeleton)", path)
	}
	return text, err
}

// checkpointShow prints the checkpoint. For a session's checkpoint it first judges it by the
// rule the restore uses (checkpoint.Current): a stale one (written before the last compaction it
// was not written for, or past stale_minutes) is printed under a STALE banner, as history only,
// and the command exits 1, so that /postcompact never takes it for ground truth.
func (e *Env) checkpointShow(o checkpointOptions) error {
	path, id, err := e.checkpointFile(o)
	if err != nil {
		return err
	}
	text, err := e.readCheckpoint(path)
	if err != nil {
		return err
	}
	// Written by the agent, which quotes payloads and tool output: redacted and made safe as the
	// restore is (/postcompact reads this output into the context).
	text = safetext.Text(redact.String(text))
	var stale error
	if o.File == "" && id != "" {
		cfg, err := config.Load(e.Paths.Config)
		if err != nil { // the checkpoint is still shown; the staleness limit is the default's
			fmt.Fprintf(e.Stderr, "zoneline: %s (using the default stale_minutes)\n", safetext.Field(err.Error(), 0))
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
			stale = errReported
		}
	}
	fmt.Fprint(e.Stdout, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(e.Stdout)
	}
	return stale
}

// loadConfig loads the config for a command a person runs: a broken config fails loudly.
func (e *Env) loadConfig() (*config.Config, error) {
	cfg, err := config.Load(e.Paths.Config)
	if err != nil {
		return nil, fmt.Errorf("%w\nzoneline: fix the config (run 'zoneline config check')", err)
	}
	return cfg, nil
}

// checkpointVerify prints each problem as path:line: reason and exits 1 when there is any.
func (e *Env) checkpointVerify(o checkpointOptions) error {
	path, id, err := e.checkpointFile(o)
	if err != nil {
		return err
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	text, err := e.readCheckpoint(path)
	if err != nil {
		return err
	}
	ps := checkpoint.Verify(checkpoint.Parse(text), checkpoint.VerifyOptions{Budget: cfg.Checkpoint.Budget, Session: id})
	for _, p := range ps {
		fmt.Fprintf(e.Stderr, "%s:%d: %s\n", path, p.Line, safetext.Line(p.Msg)) // quotes the checkpoint
	}
	if len(ps) > 0 {
		return fmt.Errorf("zoneline: %d problem(s) in the checkpoint: fix each line above and run 'zoneline checkpoint verify' again", len(ps))
	}
	fmt.Fprintf(e.Stdout, "zoneline: checkpoint OK: %s (%d of %d characters)\n", path, utf8.RuneCountInString(text), cfg.Checkpoint.Budget)
	return nil
}

// checkpointReconcile runs each External state row's verify command (the user's own text) and
// reports CONFIRMED / CORRECTED / UNVERIFIABLE per row; it exits 1 unless every row is CONFIRMED.
func (e *Env) checkpointReconcile(o checkpointOptions) error {
	path, _, err := e.checkpointFile(o)
	if err != nil {
		return err
	}
	text, err := e.readCheckpoint(path)
	if err != nil {
		return err
	}
	ck := checkpoint.Parse(text)
	if len(ck.External) == 0 {
		fmt.Fprintf(e.Stdout, "zoneline: %s has no External state rows: nothing to reconcile\n", path)
		return nil
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
				fmt.Fprintf(e.Stdout, "    output: %s\n", safetext.Field(r.Output, 0))
			}
		}
	}
	if bad > 0 {
		return fmt.Errorf("zoneline: %d row(s) not confirmed: update their applied column (CORRECTED) or check them by hand (UNVERIFIABLE) before any non-idempotent action", bad)
	}
	return nil
}

// templateNoSession stands for the session id in a skeleton printed outside Claude Code.
const templateNoSession = "<the session id: Claude Code's CLAUDE_CODE_SESSION_ID>"

// checkpointTemplate prints an empty checkpoint with the identity header filled in. Outside
// Claude Code, with no -session, it prints the skeleton with a placeholder for the session (a
// note on stderr says so): the skeleton needs no session, only a checkpoint does.
func (e *Env) checkpointTemplate(o checkpointOptions) error {
	id := templateNoSession
	if o.Session != "" || e.Getenv("CLAUDE_CODE_SESSION_ID") != "" {
		var err error
		if id, err = e.session(o); err != nil {
			return err // a session given but not valid: say so
		}
	} else {
		fmt.Fprintln(e.Stderr, "zoneline: no session (CLAUDE_CODE_SESSION_ID is not set, no -session): the skeleton's session is a placeholder")
	}
	// The registry's model and cwd came from payloads, the cwd maybe from the environment:
	// Template puts each through safetext.Field.
	fmt.Fprint(e.Stdout, checkpoint.Template(e.checkpointHeader(id)))
	return nil
}

// checkpointHeader is the identity header of id's checkpoint: the model, cwd and compactions
// the registry holds; else the cwd is $CLAUDE_PROJECT_DIR or the working directory and the
// model "unknown".
func (e *Env) checkpointHeader(id string) checkpoint.Header {
	h := checkpoint.Header{Session: id, Time: e.Now()}
	if s, err := e.State.LoadSession(id); err == nil {
		h.Model, h.Cwd, h.Compactions = s.ModelID, s.Cwd, s.Compactions
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
	return h
}
