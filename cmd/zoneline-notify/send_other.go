//go:build !(linux || freebsd || netbsd || openbsd)

package main

import (
	"context"

	"github.com/gen2brain/beeep"
)

// send shows the notification through beeep's native path (macOS notification centre,
// Windows toast). beeep has no urgency levels outside D-Bus and no timeout: the process
// deadline in run bounds it.
func send(ctx context.Context, m message, getenv func(string) string) error {
	beeep.AppName = m.app
	return beeep.Notify(m.title, m.body, "")
}
