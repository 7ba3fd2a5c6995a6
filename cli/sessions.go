package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/sessions"
)

// sessionsOptions are `zoneline sessions` flags.
type sessionsOptions struct {
	JSON  bool
	All   bool
	Since time.Duration
}

// runSessions is `zoneline sessions [-json] [-all] [-since 30m]`: the live sessions, most
// urgent first.
func runSessions(e *Env, args []string) int {
	fs := e.flags("sessions", "[-json] [-all] [-since 30m]")
	var o sessionsOptions
	fs.BoolVar(&o.JSON, "json", false, "print JSON (an array, most urgent first) for scripts")
	fs.BoolVar(&o.All, "all", false, "include sessions not seen within -since")
	fs.DurationVar(&o.Since, "since", sessions.DefaultSince, "a session is live when its status line rendered within this time")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "zoneline: unexpected argument %q (usage: zoneline sessions [-json] [-all] [-since 30m])\n", fs.Arg(0))
		return exitUsage
	}
	if o.Since <= 0 {
		fmt.Fprintln(e.Stderr, "zoneline: -since must be positive, e.g. -since 30m")
		return exitUsage
	}
	now := e.Now()
	e.collectGarbage()
	es, err := sessions.List(e.State, sessions.Options{Now: now, Since: o.Since, All: o.All})
	if err != nil {
		return e.fail(fmt.Errorf("zoneline: reading the sessions in %s: %w", e.State.Root, err))
	}
	if o.JSON {
		if es == nil {
			es = []sessions.Entry{}
		}
		out, err := json.MarshalIndent(es, "", "  ")
		if err != nil {
			return e.fail(err)
		}
		// The same values, with the C1 and bidi runes encoding/json leaves raw escaped.
		e.Stdout.Write(append(safetext.JSON(out), '\n'))
		return exitOK
	}
	if len(es) == 0 {
		what := fmt.Sprintf("seen in the last %s", o.Since)
		if o.All {
			what = "recorded"
		}
		fmt.Fprintf(e.Stderr, "zoneline: no sessions %s in %s (the status line records each session when it renders; -all shows stale ones)\n", what, e.State.Root)
		return exitOK
	}
	cfg, _ := config.Load(e.Paths.Config) // defaults when broken: colour is not worth failing for
	profile := e.personProfile(cfg.Color)
	if err := sessions.Render(e.Stdout, es, now, profile); err != nil {
		return e.fail(err)
	}
	return exitOK
}
