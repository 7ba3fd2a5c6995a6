//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestInstallFromNpm installs zoneline the way a user without Go does: `npm i -g zoneline`
// from a registry (scripts/release-test.sh publishes the release's npm tarballs to a local one
// and sets ZONELINE_E2E_NPM_REGISTRY), with an empty HOME, then `zoneline install`. The real
// Claude Code must then run the native binary npm installed (never node) as its status line
// and hooks: zoneline's line follows the context and a /compact leaves a PreCompact snapshot.
func TestInstallFromNpm(t *testing.T) {
	registry := os.Getenv("ZONELINE_E2E_NPM_REGISTRY")
	if registry == "" {
		t.Skip("ZONELINE_E2E_NPM_REGISTRY is not set: scripts/release-test.sh runs this test against its local registry")
	}
	Require(t)
	var prefix string
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		BeforeLaunch: func(s *Session) {
			prefix = filepath.Join(s.Work, "npm-global")
			env := append(userEnv(s.Home), "npm_config_registry="+registry, "npm_config_cache="+filepath.Join(s.Work, "npm-cache"))
			for _, args := range [][]string{
				{"npm", "i", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", "zoneline"},
				{filepath.Join(prefix, "bin", "zoneline"), "install"},
			} {
				cmd := exec.Command(args[0], args[1:]...)
				cmd.Dir, cmd.Env = s.Proj, env
				out, err := cmd.CombinedOutput()
				t.Logf("%s:\n%s", strings.Join(args, " "), out)
				if err != nil {
					t.Fatalf("%s: %v", strings.Join(args, " "), err)
				}
			}
		},
	})
	settings, err := os.ReadFile(filepath.Join(s.Home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	native := filepath.Join("node_modules", "zoneline-"+runtime.GOOS+"-"+arch, "zoneline statusline")
	if !strings.Contains(string(settings), native) || strings.Contains(string(settings), ".js") {
		t.Fatalf("settings.json does not run npm's native binary (…/%s):\n%s", native, settings)
	}

	_, plain := installStatus(s, zonelineLineRE.MatchString)
	if !zonelineLineRE.MatchString(plain) {
		t.Fatalf("startup: the status line is not zoneline's: %q", plain)
	}
	s.MockUsage(Context(130_000))
	s.Prompt("hello from the npm install test")
	_, plain = installStatus(s, func(p string) bool { return strings.Contains(p, "DUMB") && strings.Contains(p, "130k/200k") })
	if !strings.Contains(plain, "DUMB") || !strings.Contains(plain, "130k/200k") {
		t.Errorf("after a 130k turn: status line %q, want DUMB 130k/200k", plain)
	}
	s.CommandExpect("/compact", KindCompact)
	s.WaitIdle(CompactTimeout)
	stateDir := filepath.Join(s.Home, ".local", "state", "zoneline")
	var snaps []string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && len(snaps) == 0; time.Sleep(200 * time.Millisecond) {
		snaps, _ = filepath.Glob(filepath.Join(stateDir, "snapshots", "*.json"))
	}
	if len(snaps) == 0 {
		t.Errorf("no PreCompact snapshot in %s/snapshots after /compact: the npm-installed hooks did not run", stateDir)
	}
}
