package cli

import (
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/statusline"
)

// warning is what the statusline's warning check needs from a render.
type warning struct {
	levels notify.Levels
	policy notify.Policy
	known  bool // the render knows the token count
	tokens int64
}

// warningFor computes a render's warning levels and policy; it is pure.
func warningFor(cfg *config.Config, v statusline.View, prep int64, known bool) warning {
	return warning{
		levels: notify.LevelsFor(v.Thresholds, prep, v.Compact, cfg.Warning.ImminentDistance),
		policy: notify.PolicyFor(cfg),
		known:  known,
		tokens: v.Tokens,
	}
}

// hint returns the View.Tier to show: the nudge tier the session has reached, "" for none.
func (w warning) hint() string {
	return notify.Hint(w.tokens, w.known, w.levels, w.policy).String()
}

// checkWarning runs the warning loop after the line is printed and the session saved: markers,
// re-arming, the pending nudge, and the detached notifier. Problems go to the log only.
func (e *Env) checkWarning(r rendered) {
	sp := notify.Spawner{Getenv: e.Getenv, StateDir: e.State.Root}
	spawned := false
	step := notify.StepPrep // the step the line's hint names (render: notify.NextStep)
	if r.view.Tier == statusline.TierReady {
		step = notify.StepCompact
	}
	route := r.route
	if route == "" {
		route = "statusline"
	}
	res, err := notify.Check(e.State, notify.Input{
		Step:    step,
		Session: r.session, Known: r.warning.known, Levels: r.warning.levels, Policy: r.warning.policy,
		PrevCompactions: r.prevCompactions, PrevWindow: r.prevWindow, PrevKnown: r.prevKnown,
		Now: e.Now(),
		Spawn: func(n notify.Notification) error {
			spawned = true
			return sp.Spawn(n)
		},
	})
	switch {
	case errors.Is(err, notify.ErrNoBus):
		e.State.Info(route, "notify: %v", err) // doctor's notify check warns about a missing bus
	case err != nil:
		e.State.Log(route, "warning: %v", err)
	}
	if len(res.Created) > 0 || res.Rearmed {
		// Built without fmt: this runs on the render that crosses a tier.
		created := make([]string, len(res.Created))
		for i, t := range res.Created {
			created[i] = t.String()
		}
		e.State.InfoLine(route, "warning: session "+r.session.ID+" epoch "+strconv.Itoa(res.Epoch)+
			": created ["+strings.Join(created, " ")+"], notified \""+res.Notified.String()+"\" (spawned "+
			strconv.FormatBool(spawned && err == nil)+"), re-armed "+strconv.FormatBool(res.Rearmed))
	}
}

// notifyTestTimeout bounds `zoneline notify --test` beyond the companion's own deadline.
const notifyTestTimeout = notify.CompanionDeadline + 2*time.Second

var cmdNotify = &Command{
	Name: "notify", UsageLine: "notify --test",
	Short: "notify --test: send one desktop notification to check they reach you",
	Long: `Send one test desktop notification through the companion zoneline-notify, in the
foreground, so you can check that the warnings before auto-compact reach your desktop.`,
	Parse: parseNotify,
}

func parseNotify(e *Env, fs *flag.FlagSet) func([]string) error {
	test := fs.Bool("test", false, "send one test notification now")
	return func(args []string) error {
		if !*test || len(args) > 0 {
			return usagef("notify sends a test notification: zoneline notify --test")
		}
		return e.runNotify()
	}
}

// runNotify is `zoneline notify --test`: one notification through the companion, in the
// foreground, so a person can check that warnings reach their desktop.
func (e *Env) runNotify() error {
	cfg, err := config.Load(e.Paths.Config)
	if err != nil {
		fmt.Fprintf(e.Stderr, "zoneline: %v\n(the defaults are used; run 'zoneline config check')\n", err)
	}
	if !notify.HaveBus(e.Getenv) {
		return errors.New(notify.ErrNoBus.Error() + "; run this from your desktop session's terminal")
	}
	sp := notify.Spawner{Getenv: e.Getenv, StateDir: e.State.Root}
	bin, err := sp.FindCompanion()
	if err != nil {
		return err
	}
	n := notify.Notification{
		Title:   "zoneline: test notification",
		Body:    "Warnings before auto-compact will look like this. Next step in a real one: /compact-prep, then /compact.",
		AppName: cfg.Notify.AppName, Urgency: cfg.Notify.Urgency,
	}
	cmd := exec.Command(bin, n.Args("")...)
	cmd.Stdout, cmd.Stderr = e.Stderr, e.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("zoneline: starting %s: %v", bin, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(notifyTestTimeout):
		cmd.Process.Kill()
		err = fmt.Errorf("no answer after %s", notifyTestTimeout)
	}
	if err != nil {
		return fmt.Errorf("zoneline: the test notification failed (%s): %v; is a notification daemon running?", bin, err)
	}
	if !cfg.Notify.Enabled {
		fmt.Fprintln(e.Stdout, "sent (note: [notify] enabled = false, so warnings will not be sent)")
		return nil
	}
	fmt.Fprintf(e.Stdout, "sent %q through %s: check your desktop\n", n.Title, bin)
	return nil
}
