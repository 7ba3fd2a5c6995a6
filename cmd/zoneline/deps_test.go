package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// forbidden are the packages the statusline binary must not link (ARCHITECTURE.md, "The hot
// path"): their package inits, or the notifier's D-Bus code, would run in every render. A path
// is forbidden when it is one of these or below one.
var forbidden = []string{
	"regexp",                     // its parser makes unicode build its tables at init
	"text/template",              // and through it net/url
	"net",                        // net/url, net/netip: inits in every process
	"github.com/muesli/termenv",  // text/template; internal/termcolor replaces it
	"github.com/godbus/dbus",     // the notifier's, in cmd/zoneline-notify
	"github.com/gen2brain/beeep", // ditto
}

// deps lists the packages linked into the command at pkg for goos.
func deps(t *testing.T, goos, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=%s go list -deps %s: %v", goos, pkg, err)
	}
	return strings.Fields(string(out))
}

// banned returns the forbidden packages among list.
func banned(list []string) []string {
	var bad []string
	for _, p := range list {
		for _, f := range forbidden {
			if p == f || strings.HasPrefix(p, f+"/") {
				bad = append(bad, p)
			}
		}
	}
	return bad
}

// TestNoHeavyDeps: none of the forbidden packages is linked into zoneline, on any target.
func TestNoHeavyDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if bad := banned(deps(t, goos, ".")); len(bad) > 0 {
			t.Errorf("GOOS=%s: zoneline links %v; keep them off the statusline's path (ARCHITECTURE.md, \"The hot path\")", goos, bad)
		}
	}
	// The guard sees what it guards against: the companion notifier links beeep and godbus.
	if bad := banned(deps(t, "linux", "../zoneline-notify")); !strings.Contains(strings.Join(bad, " "), "github.com/godbus/dbus") {
		t.Errorf("the guard misses godbus in zoneline-notify: %v", bad)
	}
}
