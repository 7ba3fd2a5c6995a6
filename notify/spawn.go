package notify

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/detach"
	"github.com/zoneline/zoneline/internal/safetext"
)

// Companion is the notifier binary's name, installed beside zoneline.
const Companion = "zoneline-notify"

// CompanionDeadline is how long the companion may take before it gives up and exits: beeep and
// D-Bus calls have no timeout of their own, and a stuck server must not leave it running.
const CompanionDeadline = 5 * time.Second

// Notification is one desktop notification.
type Notification struct {
	Title   string
	Body    string
	AppName string
	Urgency string // low | normal | critical
}

// NotificationFor builds the notification of a marker: the title names the zone (or the
// imminent auto-compact) and the project; the body the tokens, the model and the next step
// (/compact-prep, then /compact).
func NotificationFor(m *Marker, p Policy) Notification { return NotificationForStep(m, p, StepPrep) }

// ProjectName is how a notification's title names the project in dir: the folder's name;
// "Claude Code" when dir names none.
func ProjectName(dir string) string {
	project := filepath.Base(dir)
	if dir == "" || project == "." || project == string(filepath.Separator) {
		return "Claude Code"
	}
	return project
}

// NotificationForStep is NotificationFor naming step as the next one (NextStep): with a fresh
// checkpoint written, /compact.
func NotificationForStep(m *Marker, p Policy, step Step) Notification {
	project := ProjectName(m.Project)
	title := "zoneline: " + strings.ToUpper(m.Zone) + " zone · " + project
	if m.Tier == Imminent.String() {
		title = "zoneline: auto-compact imminent · " + project
	}
	body := Tokens(m.Tokens) + " tokens"
	if m.Model != "" {
		body += " on " + m.Model
	}
	if m.AutoCompact > 0 {
		body += ", ~" + Tokens(max(m.AutoCompact-m.Tokens, 0)) + " before auto-compact"
	}
	if step == StepCompact {
		body += ". Next: /compact (the checkpoint is written)."
	} else {
		body += ". Next: /compact-prep, then /compact."
	}
	return Notification{Title: title, Body: body, AppName: p.AppName, Urgency: p.Urgency}
}

// The longest title and body handed to the companion, in runes.
const (
	maxTitle = 200
	maxBody  = 600
)

// Args returns the companion's command line for n (without the program name).
func (n Notification) Args(stateDir string) []string {
	args := []string{"-app", n.AppName, "-urgency", n.Urgency, "-deadline", CompanionDeadline.String()}
	if stateDir != "" {
		args = append(args, "-state", stateDir)
	}
	// The title and body carry a payload's cwd and model, a transcript's command: one line
	// each, sanitized and redacted, whoever built them.
	return append(args, "--", safetext.Field(n.Title, maxTitle), safetext.Field(n.Body, maxBody))
}

// HaveBus reports whether a D-Bus session bus is there to notify on: $DBUS_SESSION_BUS_ADDRESS,
// or the socket $XDG_RUNTIME_DIR/bus. Without one, godbus would run dbus-launch, which starts a
// dbus-daemon that never exits, on every call. Other systems notify without D-Bus.
func HaveBus(getenv func(string) string) bool {
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" && runtime.GOOS != "openbsd" && runtime.GOOS != "netbsd" {
		return true
	}
	if getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return true
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		if fi, err := os.Stat(filepath.Join(d, "bus")); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return true
		}
	}
	return false
}

// ErrNoBus reports that no notification was attempted for want of a session bus.
var ErrNoBus = errors.New("zoneline: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus): notification skipped")

// CompanionHint says how to get the companion beside zoneline: the one text ErrNoCompanion,
// doctor and install give.
const CompanionHint = "install.sh, npm i -g zoneline and the release archives install it beside zoneline; after go install: go install github.com/zoneline/zoneline/cmd/" + Companion + "@latest"

// ErrNoCompanion reports that zoneline-notify was found neither beside zoneline nor on PATH.
var ErrNoCompanion = errors.New("zoneline: " + Companion + " not found beside zoneline or on PATH: " + CompanionHint)

// Spawner starts the companion detached.
type Spawner struct {
	Getenv   func(string) string
	StateDir string // handed to the companion for its log
	// Exe is the running executable ("" = os.Executable()); the companion is looked for in
	// its folder first, then on $PATH.
	Exe string
}

// FindCompanion returns the companion's path: beside the running executable, else on $PATH.
func (s Spawner) FindCompanion() (string, error) {
	name := Companion
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe := s.Exe
	if exe == "" {
		if e, err := os.Executable(); err == nil {
			exe = e
		}
	}
	if exe != "" {
		if p := filepath.Join(filepath.Dir(exe), name); isExec(p) {
			return p, nil
		}
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			if p := filepath.Join(filepath.Dir(r), name); isExec(p) {
				return p, nil
			}
		}
	}
	for _, d := range filepath.SplitList(s.Getenv("PATH")) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if p := filepath.Join(d, name); isExec(p) {
			return p, nil
		}
	}
	return "", ErrNoCompanion
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0)
}

// Spawn starts the companion for n in its own session with stdio on /dev/null and does not
// wait for it: the statusline's time does not depend on the notification server. Everything
// goes through argv; no shell is involved.
func (s Spawner) Spawn(n Notification) error {
	if !HaveBus(s.Getenv) {
		return ErrNoBus
	}
	bin, err := s.FindCompanion()
	if err != nil {
		return err
	}
	return detach.Start(bin, n.Args(s.StateDir)) // its own session; on Windows no console, out of the job
}
