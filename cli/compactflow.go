package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/compactflow"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

var cmdCompactFlow = &Command{
	Name: "compact-flow", UsageLine: "compact-flow (-pane PANE [-socket PATH] | -session ID) [flags]",
	Short: "checkpoint → /compact → /postcompact in another session's tmux pane, stopping at a failed step",
	Long: `Drive another Claude Code session, running in a tmux pane, through a compaction it survives:
/compact-prep (the checkpoint, then verified), /compact with the config's compact_instructions,
then /postcompact; each step waits for the pane and the state dir, and the flow stops at the
first step that fails. Name the session by its pane or its id, as 'zoneline sessions' shows
them.`,
	Parse: parseCompactFlow,
}

// compactFlowOptions are `zoneline compact-flow` flags.
type compactFlowOptions struct {
	Pane    string
	Socket  string
	Session string
	DryRun  bool
	Timeout time.Duration // every wait; 0 = the config's [flow.timeouts]
}

// newTmux is the tmux the flows drive; tests replace it.
var newTmux = func() compactflow.Tmux { return compactflow.Exec{} }

func parseCompactFlow(e *Env, fs *flag.FlagSet) func([]string) error {
	var o compactFlowOptions
	fs.StringVar(&o.Pane, "pane", "", "the tmux pane of the session, e.g. %3 (as 'zoneline sessions' shows it)")
	fs.StringVar(&o.Socket, "socket", "", "the tmux server's socket, when two servers have the same pane id")
	fs.StringVar(&o.Session, "session", "", "the session id (or a unique prefix of it, as 'zoneline sessions' shows it)")
	fs.BoolVar(&o.DryRun, "dry-run", false, "print the plan and send nothing")
	fs.DurationVar(&o.Timeout, "timeout", 0, "time allowed for each wait (default: [flow.timeouts] in the config)")
	return func(args []string) error {
		if len(args) > 0 || (o.Pane == "") == (o.Session == "") {
			return usagef("name one session: -pane PANE or -session ID")
		}
		return e.runCompactFlow(o)
	}
}

// runCompactFlow is `zoneline compact-flow`: checkpoint → compact → restore in another
// session's tmux pane, stopping at the first step that fails.
func (e *Env) runCompactFlow(o compactFlowOptions) error {
	ctx, stop := e.paneDriver()
	defer stop()
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	entry, err := e.resolveSession(o)
	if err != nil {
		return err
	}
	f, err := e.newFlow(cfg, entry, o.Timeout)
	if err != nil {
		return err
	}
	if o.DryRun {
		fmt.Fprintf(e.Stdout, "compact-flow plan for session %s (%s, project %s):\n", entry.ID, f.Target, safetext.Line(entry.Project))
		for _, l := range f.Plan() {
			fmt.Fprintln(e.Stdout, "  "+safetext.Line(l))
		}
		return nil
	}
	return e.runFlow(ctx, f) // its error quotes what the pane shows: exitCode makes it safe
}

// paneDriver starts a command that types into other panes (compact-flow, watch): its context
// ends at SIGINT or SIGTERM. It may outlive its reader (`… | head`, a closed terminal): a write
// to a gone reader fails with EPIPE instead of killing the process between a step sent and its
// record.
func (e *Env) paneDriver() (context.Context, context.CancelFunc) {
	if e.process {
		ignoreSIGPIPE()
	}
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// runFlow runs f holding its pane's lock.
func (e *Env) runFlow(ctx context.Context, f *compactflow.Flow) error {
	release, err := compactflow.Lock(e.State, f.Target, f.Session, f.MaxDuration(), e.Now())
	if err != nil {
		return err
	}
	defer release()
	e.State.Info("compact-flow", "start: session %s, %s", f.Session, f.Target)
	err = f.Run(ctx)
	if err != nil {
		e.State.Log("compact-flow", "session %s: %s", f.Session, safetext.Field(err.Error(), 0))
	} else {
		e.State.Info("compact-flow", "done: session %s", f.Session)
	}
	return err
}

// resolveSession finds the session a flow is for: by id (or unique prefix) in the registry, or
// by pane among the live sessions.
func (e *Env) resolveSession(o compactFlowOptions) (sessions.Entry, error) {
	now := e.Now()
	if o.Session != "" {
		id := strings.ToLower(o.Session)
		if !state.ValidSessionID(id) {
			all, err := sessions.List(e.State, sessions.Options{Now: now, All: true})
			if err != nil {
				return sessions.Entry{}, err
			}
			var match []sessions.Entry
			for _, s := range all {
				if len(id) >= 4 && strings.HasPrefix(s.ID, id) {
					match = append(match, s)
				}
			}
			switch len(match) {
			case 0:
				return sessions.Entry{}, fmt.Errorf("zoneline: no session %q in %s: run 'zoneline sessions -all' for the ids", o.Session, e.State.Root)
			case 1:
				id = match[0].ID
			default:
				return sessions.Entry{}, fmt.Errorf("zoneline: %q matches %d sessions: give more of the id", o.Session, len(match))
			}
		}
		s, err := sessions.Load(e.State, id, now, 0)
		if err != nil {
			return s, fmt.Errorf("zoneline: session %s has no registry entry in %s (%v): its status line must have rendered at least once", id, e.State.Root, err)
		}
		if s.Pane == "" {
			return s, fmt.Errorf("zoneline: session %s recorded no tmux pane: compact-flow needs a session running inside tmux (TMUX_PANE)", id)
		}
		if now.Sub(s.Updated) > sessions.DefaultSince {
			// tmux reuses pane ids: a stale session's pane may now run something else.
			return s, fmt.Errorf("zoneline: session %s was last seen %s ago: its pane %s may now run something else; run it on a live session (zoneline sessions)", id, now.Sub(s.Updated).Round(time.Minute), s.Pane)
		}
		return s, nil
	}
	live, err := sessions.List(e.State, sessions.Options{Now: now})
	if err != nil {
		return sessions.Entry{}, err
	}
	match := sessions.Find(live, o.Pane, o.Socket)
	switch len(match) {
	case 0:
		return sessions.Entry{}, fmt.Errorf("zoneline: no live session runs in pane %s: run 'zoneline sessions' to see the panes", o.Pane)
	case 1:
		return match[0], nil
	}
	var b strings.Builder
	for _, m := range match {
		fmt.Fprintf(&b, "\n  %s on %s (seen %s ago)", m.ID, m.TmuxSocket, sessions.Ago(now.Sub(m.Updated)))
	}
	return sessions.Entry{}, fmt.Errorf("zoneline: %d live sessions ran in pane %s:%s\nzoneline: pick one with -socket or -session", len(match), o.Pane, b.String())
}

// newFlow builds a flow for a session from the config; timeout, when positive, bounds every wait.
func (e *Env) newFlow(cfg *config.Config, s sessions.Entry, timeout time.Duration) (*compactflow.Flow, error) {
	f := &compactflow.Flow{
		State: e.State, Tmux: newTmux(), Session: s.ID,
		Target: compactflow.Target{Socket: s.TmuxSocket, Pane: s.Pane},
		Budget: cfg.Checkpoint.Budget, Log: e.Stdout,
	}
	f.Compact = checkpoint.CompactLine(cfg.Flow.CompactInstructions)
	for _, w := range []struct {
		dst *time.Duration
		key string
		v   string
	}{{&f.PrepWait, "prep", cfg.Flow.Timeouts.Prep}, {&f.CompactWait, "compact", cfg.Flow.Timeouts.Compact}, {&f.PostWait, "postcompact", cfg.Flow.Timeouts.Postcompact}} {
		d, err := time.ParseDuration(w.v)
		if err != nil {
			return nil, fmt.Errorf("zoneline: [flow.timeouts] %s = %q: %v", w.key, w.v, err)
		}
		*w.dst = d
		if timeout > 0 {
			*w.dst = timeout
		}
	}
	if s.Pane == "" {
		return nil, errors.New("zoneline: session " + s.ID + " recorded no tmux pane")
	}
	return f, nil
}
