package cli

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/zoneline/zoneline/compactflow"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/sessions"
)

// watchOptions are `zoneline watch` flags.
type watchOptions struct {
	Auto     bool
	Interval time.Duration
	Once     bool
	Since    time.Duration
}

var cmdWatch = &Command{
	Name: "watch", UsageLine: "watch [flags]",
	Short: "notify (or run compact-flow) for idle sessions past their prep tier",
	Long: `Every -interval, read the registry and, for a session past its prep tier that is idle at
its prompt, send a desktop notification, or with -auto run compact-flow on it (only in the
projects listed in the config's [watch] projects). Runs until interrupted, or once with -once.`,
	Parse:  parseWatch,
	NoArgs: true,
}

func parseWatch(e *Env, fs *flag.FlagSet) func([]string) error {
	var o watchOptions
	fs.BoolVar(&o.Auto, "auto", false, "run compact-flow (projects in [watch] projects only) instead of notifying (default: [watch] auto in the config)")
	fs.DurationVar(&o.Interval, "interval", 0, "how often to read the registry (default: [watch] interval in the config, 5s)")
	fs.BoolVar(&o.Once, "once", false, "check once and exit")
	fs.DurationVar(&o.Since, "since", sessions.DefaultSince, "sessions seen within this time are watched")
	return func([]string) error {
		if isSet(fs, "interval") && o.Interval <= 0 {
			return usagef("-interval %s: want a positive duration, e.g. 5s", o.Interval)
		}
		// The config is loaded after the command line is read: a broken one cannot stop -h.
		cfg, err := e.loadConfig()
		if err != nil {
			return err
		}
		if !isSet(fs, "auto") {
			o.Auto = cfg.Watch.Auto
		}
		if !isSet(fs, "interval") {
			if o.Interval, err = time.ParseDuration(cfg.Watch.Interval); err != nil {
				return fmt.Errorf("zoneline: [watch] interval = %q: %v", cfg.Watch.Interval, err)
			}
			if o.Interval <= 0 {
				return fmt.Errorf("zoneline: [watch] interval = %q: want a positive duration, e.g. \"5s\"", cfg.Watch.Interval)
			}
		}
		return e.runWatch(cfg, o)
	}
}

// runWatch is `zoneline watch`: every interval it reads the registry and, for a session past
// its prep tier that is idle at its prompt, notifies or (auto, allowed project) runs
// compact-flow on it.
func (e *Env) runWatch(cfg *config.Config, o watchOptions) error {
	ctx, stop := e.paneDriver()
	defer stop()
	if o.Auto && len(cfg.Watch.Projects) == 0 {
		fmt.Fprintf(e.Stderr, "zoneline: -auto runs compact-flow only in the projects listed in [watch] projects of %s, and none is: it will only notify\n", e.Paths.Config)
	}
	spawner := notify.Spawner{Getenv: e.Getenv, StateDir: e.State.Root}
	w := &compactflow.Watcher{
		State: e.State, Tmux: newTmux(), Auto: o.Auto, Projects: cfg.Watch.Projects, Since: o.Since, Now: e.Now,
		Notify: func(s sessions.Entry) error {
			return spawner.Spawn(watchNotification(s, cfg.Notify.AppName, cfg.Notify.Urgency))
		},
		Flow: func(ctx context.Context, s sessions.Entry) error {
			f, err := e.newFlow(cfg, s, 0)
			if err == nil {
				err = e.runFlow(ctx, f)
			}
			if err != nil {
				fmt.Fprintf(e.Stderr, "%s\n", safetext.Text(err.Error()))
			}
			return err
		},
	}
	fmt.Fprintf(e.Stdout, "zoneline: watching %s every %s (%s)\n", e.State.Root, o.Interval, map[bool]string{true: "auto: compact-flow in allowed projects", false: "notify only"}[o.Auto])
	for {
		ds, err := w.Tick(ctx)
		if err != nil {
			fmt.Fprintf(e.Stderr, "zoneline: reading the registry: %v\n", err)
		}
		for _, d := range ds {
			if d.Action == compactflow.ActSkip {
				continue
			}
			line := fmt.Sprintf("%s %s: %s %s (%s)", e.Now().Format(time.TimeOnly), d.Action, shortSession(d.Entry.ID), filepath.Base(d.Entry.Project), d.Reason)
			fmt.Fprintln(e.Stdout, safetext.Line(line))
			e.State.Info("watch", "%s", line)
		}
		if o.Once {
			w.Wait()
			return nil
		}
		select {
		case <-ctx.Done():
			w.Wait()
			return nil
		case <-time.After(o.Interval):
		}
	}
}

func shortSession(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// watchNotification is the desktop notification for an idle session past its prep tier.
func watchNotification(s sessions.Entry, app, urgency string) notify.Notification {
	project := filepath.Base(s.Project)
	if s.Project == "" {
		project = "Claude Code"
	}
	body := fmt.Sprintf("%s zone, %s tokens, idle at its prompt.", s.Zone, notify.Tokens(s.Tokens))
	if s.Pane != "" {
		body += " Run: zoneline compact-flow -session " + shortSession(s.ID)
	} else {
		body += " Next: /compact-prep, then /compact."
	}
	return notify.Notification{Title: "zoneline: " + project + " is ready to compact", Body: body, AppName: app, Urgency: urgency}
}
