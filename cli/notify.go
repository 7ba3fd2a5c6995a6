package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/notify"
)

// notifyTestTimeout bounds a test notification (notify --test, doctor -notify) beyond the
// companion's own deadline.
const notifyTestTimeout = notify.CompanionDeadline + 2*time.Second

var cmdNotify = &Command{
	Name: "notify", UsageLine: "notify -test",
	Short: "send one desktop notification to check they reach you",
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
	if err := sendTest(bin, n, ""); err != nil {
		return fmt.Errorf("zoneline: the test notification failed (%s): %v; is a notification daemon running?", bin, err)
	}
	if !cfg.Notify.Enabled {
		fmt.Fprintln(e.Stdout, "sent (note: [notify] enabled = false, so warnings will not be sent)")
		return nil
	}
	fmt.Fprintf(e.Stdout, "sent %q through %s: check your desktop\n", n.Title, bin)
	return nil
}

// sendTest runs the companion bin in the foreground with n (doctor -notify, notify -test) and
// returns why it failed, with what it said, or that it did not answer within notifyTestTimeout.
func sendTest(bin string, n notify.Notification, stateDir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), notifyTestTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, n.Args(stateDir)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	switch msg := strings.TrimSpace(out.String()); {
	case ctx.Err() != nil:
		return fmt.Errorf("no answer after %s", notifyTestTimeout)
	case err != nil && msg != "":
		return fmt.Errorf("%v: %s", err, msg)
	}
	return err
}
