//go:build linux || freebsd || netbsd || openbsd

package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/gen2brain/beeep"
	"github.com/godbus/dbus/v5"
)

const (
	notifyDest   = "org.freedesktop.Notifications"
	notifyPath   = "/org/freedesktop/Notifications"
	notifyMethod = "org.freedesktop.Notifications.Notify"
)

// urgencies are the Desktop Notifications spec's urgency levels.
var urgencies = map[string]byte{"low": 0, "normal": 1, "critical": 2}

// busAddress returns the session bus's address, or "" when there is none. It never starts one.
func busAddress(getenv func(string) string) string {
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		p := filepath.Join(d, "bus")
		if fi, err := os.Stat(p); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + p
		}
	}
	return ""
}

// send makes one Notify call on the session bus, with the urgency hint and ctx's deadline
// (beeep has neither). When the call fails for another reason than the deadline (no server
// owns the name, say), beeep gets a go: it falls back to notify-send and kdialog.
func send(ctx context.Context, m message, getenv func(string) string) error {
	addr := busAddress(getenv)
	if addr == "" {
		return errNoBus
	}
	err := callNotify(ctx, addr, m)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		if ctx.Err() != nil && err != nil {
			return context.DeadlineExceeded
		}
		return err
	}
	// godbus (inside beeep) finds the same bus through this variable, never by dbus-launch.
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	beeep.AppName = m.app
	if berr := beeep.Notify(m.title, m.body, ""); berr != nil {
		return errors.Join(err, berr)
	}
	return nil
}

func callNotify(ctx context.Context, addr string, m message) error {
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx)) // Connect never autolaunches a bus
	if err != nil {
		return err
	}
	defer conn.Close()
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(urgencies[m.urgency])}
	call := conn.Object(notifyDest, notifyPath).CallWithContext(ctx, notifyMethod, 0,
		m.app, uint32(0), "", m.title, m.body, []string{}, hints, int32(-1))
	return call.Err
}
