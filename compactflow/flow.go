// Package compactflow runs checkpoint → compact → restore in another Claude Code session's tmux
// pane: it types /compact-prep, waits until that session's checkpoint is written after the flow
// started and passes checkpoint verify, only then types /compact with the preserve
// instructions, waits until the hooks record the compaction, then types /postcompact and waits
// for its report. Every wait has a timeout; on any failure it stops, sends nothing more, and
// says which step failed and what the pane shows.
//
// Waits read zoneline's own state files (the checkpoint, compactions.json, the registry's last
// render) wherever they tell the truth; the screen is read to see that the pane is not busy and,
// when the state cannot say, as a fallback.
package compactflow

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/internal/textfold"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

// Defaults.
const (
	DefaultPrep     = "/compact-prep"
	DefaultPost     = "/postcompact"
	DefaultPoll     = time.Second
	DefaultSettle   = 3 * time.Second // the screen unchanged this long counts as idle (fallback)
	DefaultPrepWait = 10 * time.Minute
	DefaultCompWait = 5 * time.Minute
	DefaultPostWait = 10 * time.Minute
	screenLines     = 15 // lines of the pane quoted when a step fails
)

// Busy reports whether a Claude Code screen shows it working (mid-turn or compacting) or waiting
// on a dialog (a permission prompt: an Enter there would approve a tool call). It replaces
//
//	(?i)esc to interrupt|Compacting conversation|Do you want to|❯ *1\.|esc to cancel
//
// (written out by hand: regexp would be linked into every zoneline process, the statusline's
// included, and slow each start).
func Busy(screen string) bool {
	if slices.ContainsFunc([]string{"esc to interrupt", "compacting conversation", "do you want to", "esc to cancel"},
		func(s string) bool { return textfold.Contains(screen, s) }) {
		return true
	}
	// "❯ 1." is the selected first choice of a dialog.
	for rest := screen; ; {
		_, after, ok := strings.Cut(rest, "❯")
		if !ok {
			return false
		}
		if strings.HasPrefix(strings.TrimLeft(after, " "), "1.") {
			return true
		}
		rest = after
	}
}

// compactionBlocked reports whether a screen shows a compaction refused by a PreCompact hook.
// It replaces
//
//	(?i)compaction blocked
func compactionBlocked(screen string) bool { return textfold.Contains(screen, "compaction blocked") }

// Steps, in order.
const (
	StepPreflight  = "check the pane is idle"
	StepSendPrep   = "send /compact-prep"
	StepCheckpoint = "wait for a verified checkpoint"
	StepSendCmp    = "send /compact"
	StepCompaction = "wait for the compaction to be recorded"
	StepSendPost   = "send /postcompact"
	StepReport     = "wait for the /postcompact report"
)

// StepError is a failed step: which, why, and the pane's last lines.
type StepError struct {
	N      int // 1-based step number (0: preflight)
	Step   string
	Err    error
	Target Target
	Screen string // the pane's last non-blank lines ("" when it could not be read)
}

func (e *StepError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "zoneline: compact-flow stopped at step %d (%s): %v; nothing more was sent to %s", e.N, e.Step, e.Err, e.Target)
	if e.Screen != "" {
		b.WriteString("\nthe pane shows:\n")
		for _, l := range strings.Split(e.Screen, "\n") {
			b.WriteString("  | " + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func (e *StepError) Unwrap() error { return e.Err }

// Flow is one compact-flow run on one session's pane.
type Flow struct {
	State   state.Dir
	Tmux    Tmux
	Session string // the session id (its checkpoint and compaction state are read)
	Target  Target

	Prep         string // default DefaultPrep
	Compact      string // the whole /compact line; default checkpoint.CompactLine("")
	Post         string // default DefaultPost
	PrepWait     time.Duration
	CompactWait  time.Duration
	PostWait     time.Duration
	Poll         time.Duration
	Settle       time.Duration
	Budget       int // checkpoint verify's budget; checkpoint.DefaultBudget when <= 0
	SkipIdleTest bool

	Now func() time.Time
	Log io.Writer // progress, one line per step; nil = none

	pre fileState // the checkpoint before /compact-prep was sent: it must change
}

// fileState identifies a version of a file: a checkpoint written within the same second as the
// flow's start, before it, must not pass for the new one.
type fileState struct {
	exists bool
	mod    time.Time
	size   int64
}

func (f *Flow) ckFile() fileState {
	path, err := checkpoint.Path(f.State, f.Session)
	if err != nil {
		return fileState{}
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return fileState{}
	}
	return fileState{exists: true, mod: fi.ModTime(), size: fi.Size()}
}

func (f *Flow) defaults() {
	f.Prep, f.Post = cmp.Or(f.Prep, DefaultPrep), cmp.Or(f.Post, DefaultPost)
	f.Compact = cmp.Or(f.Compact, checkpoint.CompactLine(""))
	for _, d := range [...]struct {
		v   *time.Duration
		def time.Duration
	}{{&f.PrepWait, DefaultPrepWait}, {&f.CompactWait, DefaultCompWait}, {&f.PostWait, DefaultPostWait}, {&f.Poll, DefaultPoll}, {&f.Settle, DefaultSettle}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if f.Now == nil {
		f.Now = time.Now
	}
	if f.Log == nil {
		f.Log = io.Discard
	}
}

// MaxDuration is the longest a flow can run: every wait at its timeout, plus slack. A pane
// lock older than this is stale.
func (f *Flow) MaxDuration() time.Duration {
	f.defaults()
	return f.PrepWait + f.CompactWait + f.PostWait + time.Minute
}

// Plan returns the steps the flow would take, one line each, for --dry-run.
func (f *Flow) Plan() []string {
	f.defaults()
	ck, _ := checkpoint.Path(f.State, f.Session)
	cs, _ := f.State.SessionFile(f.Session, sessions.CompactionsFile)
	reg, _ := f.State.SessionFile(f.Session, state.SessionFileName)
	send := func(text string) string {
		return fmt.Sprintf("send %q to %s (tmux %s, then Enter)", text, f.Target,
			strings.Join(Args(f.Target, "send-keys", "-t", f.Target.Pane, "-l", "<text>"), " "))
	}
	return []string{
		fmt.Sprintf("0. %s: the screen shows no \"esc to interrupt\"", StepPreflight),
		"1. " + send(f.Prep),
		fmt.Sprintf("2. wait up to %s until %s is written after the flow starts, passes checkpoint verify, and the turn ends (%s rendered after the prompt, pane not busy)", f.PrepWait, ck, reg),
		"3. " + send(f.Compact),
		fmt.Sprintf("4. wait up to %s until the hooks record the compaction (count in %s, or the registry's compaction count, goes up)", f.CompactWait, cs),
		"5. " + send(f.Post),
		fmt.Sprintf("6. wait up to %s for its report (%s rendered after the prompt and the pane idle; the screen unchanged for %s as a fallback)", f.PostWait, reg, f.Settle),
		"On any failure or timeout: stop, send nothing more, and print the step and the pane's last lines.",
	}
}

// Run runs the flow. It returns nil when all steps passed, else a *StepError.
func (f *Flow) Run(ctx context.Context) error {
	f.defaults()
	if !state.ValidSessionID(f.Session) {
		return &StepError{Step: StepPreflight, Err: state.ErrBadSession, Target: f.Target}
	}
	if f.Target.Pane == "" {
		return &StepError{Step: StepPreflight, Err: errors.New("no tmux pane: the session's status line has not recorded TMUX_PANE (is it running in tmux?)"), Target: f.Target}
	}

	// 0. preflight: never on a session that is mid-turn.
	sc, err := f.Tmux.Capture(f.Target)
	if err != nil {
		return f.fail(0, StepPreflight, fmt.Errorf("cannot read the pane: %w", err))
	}
	if Busy(sc) {
		return f.fail(0, StepPreflight, errors.New("the session is mid-turn (the pane shows it working)"))
	}
	if !f.SkipIdleTest {
		if e, err := sessions.Load(f.State, f.Session, f.Now(), 0); err == nil {
			if idle, known := e.Idle(); known && !idle {
				return f.fail(0, StepPreflight, errors.New("the session is mid-turn (a prompt was submitted after its last render)"))
			}
		}
	}

	// 1-2. checkpoint.
	start := f.Now()
	f.pre = f.ckFile()
	if err := f.send(1, StepSendPrep, f.Prep); err != nil {
		return err
	}
	if err := f.waitCheckpoint(ctx, start); err != nil {
		return err
	}

	// 3-4. compact.
	count0, reg0 := f.compactionCounts()
	sent := f.Now()
	if err := f.send(3, StepSendCmp, f.Compact); err != nil {
		return err
	}
	if err := f.waitCompaction(ctx, sent, count0, reg0); err != nil {
		return err
	}

	// 5-6. restore.
	sent = f.Now()
	if err := f.send(5, StepSendPost, f.Post); err != nil {
		return err
	}
	if err := f.waitReport(ctx, sent); err != nil {
		return err
	}
	fmt.Fprintf(f.Log, "zoneline: compact-flow done: checkpointed, compacted and restored %s\n", f.Target)
	return nil
}

func (f *Flow) send(n int, step, text string) error {
	fmt.Fprintf(f.Log, "%d. %s: %q\n", n, step, text)
	if err := f.Tmux.Send(f.Target, text); err != nil {
		return f.fail(n, step, err)
	}
	return nil
}

// fail builds the step's error with the pane's last lines.
func (f *Flow) fail(n int, step string, err error) error {
	e := &StepError{N: n, Step: step, Err: err, Target: f.Target}
	if sc, cerr := f.Tmux.Capture(f.Target); cerr == nil {
		e.Screen = lastLines(sc, screenLines)
	}
	return e
}

// lastLines returns the last n non-blank lines of s, trailing spaces trimmed.
func lastLines(s string, n int) string {
	var ls []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
			ls = append(ls, l)
		}
	}
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// idleWatch decides when a turn that began at since has ended: the registry was rendered after
// since (Claude Code renders the status line when a turn ends) and the screen is not busy; or,
// as a fallback when the state never says so, the screen is not busy and has not changed for
// Settle.
type idleWatch struct {
	f      *Flow
	since  time.Time
	last   string
	stable time.Time
}

// done reports whether the turn ended, and why ("state" or "screen").
func (w *idleWatch) done(screen string, screenErr error) (bool, string) {
	now := w.f.Now()
	if screenErr == nil && Busy(screen) {
		w.last, w.stable = screen, now
		return false, ""
	}
	if s, err := w.f.State.LoadSession(w.f.Session); err == nil && s.Updated.After(w.since) {
		return true, "state"
	}
	if screenErr != nil {
		return false, ""
	}
	if screen != w.last || w.stable.IsZero() {
		w.last, w.stable = screen, now
		return false, ""
	}
	return now.Sub(w.stable) >= w.f.Settle && now.Sub(w.since) >= w.f.Settle, "screen"
}

// wait is step n: it calls check every Poll until it returns done or an error, or until
// timeout (why says what was still missing), and fails the step with either; done, it logs the
// step OK (with note's words, when note is set).
func (f *Flow) wait(ctx context.Context, n int, step string, timeout time.Duration, check func() (done bool, err error), why func() string, note *string) error {
	deadline := time.Now().Add(timeout)
	for {
		done, err := check()
		if err != nil {
			return f.fail(n, step, err)
		}
		if done {
			break
		}
		if !time.Now().Before(deadline) {
			return f.fail(n, step, fmt.Errorf("timed out after %s: %s", timeout, why()))
		}
		select {
		case <-ctx.Done():
			return f.fail(n, step, ctx.Err())
		case <-time.After(f.Poll):
		}
	}
	if note != nil {
		fmt.Fprintf(f.Log, "%d. %s: OK (%s)\n", n, step, *note)
	} else {
		fmt.Fprintf(f.Log, "%d. %s: OK\n", n, step)
	}
	return nil
}

// ckStatus is what the checkpoint looks like now.
func (f *Flow) ckStatus(start time.Time) (ok bool, why string) {
	path, err := checkpoint.Path(f.State, f.Session)
	if err != nil {
		return false, err.Error()
	}
	text, mod, err := checkpoint.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, "no checkpoint at " + path
	}
	if err != nil {
		return false, err.Error()
	}
	if now := f.ckFile(); f.pre.exists && now == f.pre || mod.Before(start.Truncate(time.Second)) {
		return false, fmt.Sprintf("the checkpoint %s was last written %s, before the flow started (%s)", path, mod.Format(time.RFC3339), start.Format(time.RFC3339))
	}
	ps := checkpoint.Verify(checkpoint.Parse(text), checkpoint.VerifyOptions{Budget: f.Budget, Session: f.Session})
	if len(ps) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "the checkpoint %s fails checkpoint verify (%d problem(s)):", path, len(ps))
		for i, p := range ps {
			if i == 3 {
				fmt.Fprintf(&b, " …")
				break
			}
			fmt.Fprintf(&b, " line %d: %s;", p.Line, p.Msg)
		}
		return false, strings.TrimSuffix(b.String(), ";")
	}
	return true, ""
}

func (f *Flow) waitCheckpoint(ctx context.Context, start time.Time) error {
	w := &idleWatch{f: f, since: start}
	why := ""
	return f.wait(ctx, 2, StepCheckpoint, f.PrepWait, func() (bool, error) {
		ok, reason := f.ckStatus(start)
		sc, serr := f.Tmux.Capture(f.Target)
		ended, _ := w.done(sc, serr)
		switch {
		case ok && ended:
			return true, nil
		case ok:
			why = "the checkpoint passes verify but the turn has not ended"
		case ended:
			// The turn is over and there is no good checkpoint: it will not come.
			return false, errors.New(reason + " (the /compact-prep turn has ended)")
		default:
			why = reason
		}
		return false, nil
	}, func() string { return why }, nil)
}

// compactionCounts returns compactions.json's count (0 when missing) and the registry's.
func (f *Flow) compactionCounts() (recorded, registry int) {
	if c, err := sessions.ReadCompactions(f.State, f.Session); err == nil {
		recorded = c.Count
	}
	if s, err := f.State.LoadSession(f.Session); err == nil {
		registry = s.Compactions
	}
	return recorded, registry
}

func (f *Flow) waitCompaction(ctx context.Context, sent time.Time, count0, reg0 int) error {
	why := "the hooks recorded no compaction"
	// After the record, wait for the render that follows /compact (or a settled screen), so
	// that it cannot be mistaken for the end of the /postcompact turn.
	w := &idleWatch{f: f, since: sent}
	return f.wait(ctx, 4, StepCompaction, f.CompactWait, func() (bool, error) {
		count, reg := f.compactionCounts()
		sc, serr := f.Tmux.Capture(f.Target)
		if serr == nil && compactionBlocked(sc) {
			return false, errors.New("the compaction was blocked by a PreCompact hook")
		}
		ended, _ := w.done(sc, serr)
		if count > count0 || reg > reg0 {
			if !ended {
				why = "the compaction was recorded but the pane has not settled"
				return false, nil
			}
			return true, nil
		}
		return false, nil
	}, func() string {
		return fmt.Sprintf("%s (compactions.json count stayed %d, the registry's %d)", why, count0, reg0)
	}, nil)
}

func (f *Flow) waitReport(ctx context.Context, sent time.Time) error {
	w := &idleWatch{f: f, since: sent}
	how := ""
	return f.wait(ctx, 6, StepReport, f.PostWait, func() (bool, error) {
		sc, serr := f.Tmux.Capture(f.Target)
		ok, by := w.done(sc, serr)
		how = by
		return ok, nil
	}, func() string { return "the session did not finish its /postcompact turn" }, &how)
}
