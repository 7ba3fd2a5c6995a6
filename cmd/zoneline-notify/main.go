// Command zoneline-notify is zoneline's companion notifier: it shows one desktop notification
// and exits. The statusline spawns it detached (own session, stdio on /dev/null) after the line
// is printed and the marker written, so that a slow or stuck notification server never slows
// the statusline; `zoneline notify --test` runs it in the foreground. It is the only importer
// of gen2brain/beeep (and so of godbus): keeping them out of zoneline keeps its start-up lean.
//
//	zoneline-notify [-app NAME] [-urgency low|normal|critical] [-deadline 5s] [-state DIR] [--] TITLE BODY
//	zoneline-notify -version
//
// On Linux and the BSDs it does nothing unless a D-Bus session bus exists
// ($DBUS_SESSION_BUS_ADDRESS or $XDG_RUNTIME_DIR/bus): without one, godbus would run
// dbus-launch and leave a dbus-daemon behind on every call. It never beeps: nothing is written
// to stdout. Exit codes: 0 sent, 1 failed, 2 usage, 3 deadline passed, 4 no session bus.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/zoneline/zoneline/state"
)

// Exit codes.
const (
	exitOK       = 0
	exitFail     = 1
	exitUsage    = 2
	exitDeadline = 3
	exitNoBus    = 4
)

// version is stamped at build time, as zoneline's: -ldflags "-X main.version=v1.2.3".
var version = "dev"

// defaultDeadline bounds the whole run unless -deadline says otherwise.
const defaultDeadline = 5 * time.Second

func main() { os.Exit(run(os.Args[1:], os.Getenv, os.Stderr)) }

// message is one notification to show.
type message struct {
	app, urgency, title, body string
}

func run(args []string, getenv func(string) string, stderr io.Writer) int {
	fs := flag.NewFlagSet("zoneline-notify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	app := fs.String("app", "zoneline", "application name shown by the notification server")
	urgency := fs.String("urgency", "normal", "low | normal | critical")
	deadline := fs.Duration("deadline", defaultDeadline, "give up and exit after this long")
	stateDir := fs.String("state", "", "zoneline's state dir: failures are logged to its zoneline.log")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintln(stderr, "zoneline-notify "+version) // stdout stays empty, always
		return exitOK
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "usage: zoneline-notify [flags] [--] TITLE BODY")
		return exitUsage
	}
	switch *urgency {
	case "low", "normal", "critical":
	default:
		fmt.Fprintf(stderr, "zoneline-notify: -urgency %q: want low, normal or critical\n", *urgency)
		return exitUsage
	}
	logDir := state.Dir{Root: *stateDir}
	fail := func(code int, format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintln(stderr, "zoneline-notify: "+msg)
		logDir.Log("notify", "%s", msg)
		return code
	}
	// Whatever blocks (a stuck server, a fallback command), the process ends by the deadline.
	timer := time.AfterFunc(*deadline, func() {
		logDir.Log("notify", "gave up after %s (notification server stuck?)", *deadline)
		os.Exit(exitDeadline)
	})
	defer timer.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), *deadline)
	defer cancel()
	m := message{app: *app, urgency: *urgency, title: fs.Arg(0), body: fs.Arg(1)}
	err := send(ctx, m, getenv)
	switch {
	case errors.Is(err, errNoBus):
		return fail(exitNoBus, "%v", err)
	case errors.Is(err, context.DeadlineExceeded):
		return fail(exitDeadline, "gave up after %s: %v", *deadline, err)
	case err != nil:
		return fail(exitFail, "%v", err)
	}
	return exitOK
}

var errNoBus = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset and no $XDG_RUNTIME_DIR/bus): nothing sent")
