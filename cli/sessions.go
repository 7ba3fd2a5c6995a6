package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/sessions"
)

// sessionsOptions are `zoneline sessions` flags.
type sessionsOptions struct {
	JSON   bool
	All    bool
	Since  time.Duration
	Active time.Duration
}

var cmdSessions = &Command{
	Name: "sessions", UsageLine: "sessions [flags]",
	Short: "the live sessions, most urgent first: zone, tokens, distance to auto-compact, pane",
	Long: `List the live sessions, most urgent first: zone, tokens, distance to auto-compact, the
project and the tmux pane. A session is live when its status line rendered within -since; the
status line records each session when it renders.

Its status says what is known: "active 2m ago" when it rendered or took a prompt within
-active, else "idle since 14:02". Claude Code renders the status line after each turn and never
while idle, so an idle session is waiting at its prompt, or has ended: nothing tells which.
Active sessions come first.`,
	Parse:  parseSessions,
	NoArgs: true,
}

func parseSessions(e *Env, fs *flag.FlagSet) func([]string) error {
	var o sessionsOptions
	fs.BoolVar(&o.JSON, "json", false, "print JSON (an array, most urgent first) for scripts")
	fs.BoolVar(&o.All, "all", false, "include sessions not seen within -since")
	fs.DurationVar(&o.Since, "since", sessions.DefaultSince, "a session is live when its status line rendered within this time")
	fs.DurationVar(&o.Active, "active", sessions.DefaultActive, "a session is active when it rendered or took a prompt within this time")
	return func([]string) error {
		if o.Since <= 0 || o.Active <= 0 {
			return usagef("-since and -active must be positive, e.g. -since 30m")
		}
		return e.runSessions(o)
	}
}

// runSessions is `zoneline sessions`: the live sessions, most urgent first.
func (e *Env) runSessions(o sessionsOptions) error {
	now := e.Now()
	e.collectGarbage()
	es, err := sessions.List(e.State, sessions.Options{Now: now, Since: o.Since, Active: o.Active, All: o.All})
	if err != nil {
		return fmt.Errorf("zoneline: reading the sessions in %s: %w", e.State.Root, err)
	}
	if o.JSON {
		if es == nil {
			es = []sessions.Entry{}
		}
		return e.printJSON(es)
	}
	if len(es) == 0 {
		what := fmt.Sprintf("seen in the last %s", o.Since)
		if o.All {
			what = "recorded"
		}
		fmt.Fprintf(e.Stderr, "zoneline: no sessions %s in %s (the status line records each session when it renders; -all shows stale ones)\n", what, e.State.Root)
		return nil
	}
	cfg, _ := config.Load(e.Paths.Config) // defaults when broken: colour is not worth failing for
	profile := e.personProfile(cfg.Color)
	return sessions.Render(e.Stdout, es, now, profile)
}

// printJSON prints v as indented JSON for -json (sessions, tune, report), with the C1 and bidi
// runes encoding/json leaves raw escaped (safetext.JSON): its strings come from payloads and
// transcripts.
func (e *Env) printJSON(v any) error {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("zoneline: %v", err)
	}
	e.Stdout.Write(append(safetext.JSON(out), '\n'))
	return nil
}
