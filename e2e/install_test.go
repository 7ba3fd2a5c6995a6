//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/internal/termcolor"
)

// zonelineLineRE matches what only zoneline's status line shows: a zone word with a token
// figure over a window, or the unknown zone before the first reply.
var zonelineLineRE = regexp.MustCompile(`(SMART|WARN|DUMB) +\d+k/(200k|1M)|○ --|to compact`)

// TestInstallFromCleanClone installs zoneline the way a user does — ./install.sh from a clean
// clone of the committed tree into a throwaway HOME — then runs the real Claude Code with that
// HOME and nothing else configured: the status line must be zoneline's and the hooks must run
// (a /compact leaves a PreCompact snapshot). After `zoneline uninstall`, a new Claude Code
// session shows no zoneline line.
func TestInstallFromCleanClone(t *testing.T) {
	Require(t)
	root, err := procbench.Root()
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "zoneline")
	if out, err := exec.Command("git", "clone", "--quiet", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone %s: %v\n%s", root, err, out)
	}
	var prefix string
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		BeforeLaunch: func(s *Session) {
			prefix = filepath.Join(s.Work, "prefix")
			cmd := exec.Command("bash", filepath.Join(clone, "install.sh"), "--prefix", prefix)
			cmd.Dir = s.Proj
			cmd.Env = userEnv(s.Home)
			out, err := cmd.CombinedOutput()
			os.WriteFile(filepath.Join(s.Out, "install.log"), out, 0o644)
			if err != nil {
				t.Fatalf("install.sh: %v\n%s", err, out)
			}
			t.Logf("install.sh:\n%s", out)
		},
	})
	zl := filepath.Join(prefix, "bin", "zoneline")
	stateDir := filepath.Join(s.Home, ".local", "state", "zoneline")
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(stateDir, "zoneline.log"))
			t.Logf("zoneline.log:\n%s", b)
		}
	})

	// The status line is zoneline's from the start, then follows the context.
	_, plain := installStatus(s, zonelineLineRE.MatchString)
	if !zonelineLineRE.MatchString(plain) {
		t.Fatalf("startup: the status line is not zoneline's: %q", plain)
	}
	s.MockUsage(Context(42_000))
	s.Prompt("hello from the install test")
	_, plain = installStatus(s, func(p string) bool { return strings.Contains(p, "SMART") && strings.Contains(p, "42k/200k") })
	if !strings.Contains(plain, "SMART") || !strings.Contains(plain, "42k/200k") {
		t.Errorf("after a 42k turn: status line %q, want SMART 42k/200k", plain)
	}
	if _, err := os.Stat(filepath.Join(s.Home, ".claude", "skills", "compact-prep", "SKILL.md")); err != nil {
		t.Errorf("the /compact-prep skill is not installed: %v", err)
	}

	// The hooks run: /compact fires PreCompact, which writes a snapshot.
	s.CommandExpect("/compact", KindCompact)
	s.WaitIdle(CompactTimeout)
	var snaps []string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && len(snaps) == 0; time.Sleep(200 * time.Millisecond) {
		snaps, _ = filepath.Glob(filepath.Join(stateDir, "snapshots", "*.json"))
	}
	if len(snaps) == 0 {
		t.Errorf("no PreCompact snapshot in %s/snapshots after /compact: the hooks did not run", stateDir)
	}
	sessions, _ := filepath.Glob(filepath.Join(stateDir, "sessions", "*", "session.json"))
	if len(sessions) == 0 {
		t.Errorf("no session.json under %s/sessions", stateDir)
	}
	s.Close()

	// Uninstall, then a new session with the same settings file shows no zoneline line.
	cmd := exec.Command(zl, "uninstall")
	cmd.Env = userEnv(s.Home)
	out, err := cmd.CombinedOutput()
	t.Logf("zoneline uninstall:\n%s", out)
	if err != nil {
		t.Fatalf("zoneline uninstall: %v", err)
	}
	settings, err := os.ReadFile(filepath.Join(s.Home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(settings), "zoneline") {
		t.Fatalf("settings.json still names zoneline after uninstall:\n%s", settings)
	}
	s2 := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		BeforeLaunch: func(s2 *Session) {
			if err := os.WriteFile(filepath.Join(s2.Home, ".claude", "settings.json"), settings, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	})
	s2.MockUsage(Context(42_000))
	s2.Prompt("hello after uninstall")
	time.Sleep(2 * time.Second) // give a status line, were there one, the time to show
	screen := s2.Screen(false)
	if area := StatusArea(screen); zonelineLineRE.MatchString(strings.Join(area, "\n")) || strings.Contains(screen, "42k/200k") {
		t.Errorf("after uninstall the screen still shows a zoneline line:\n%s", screen)
	}
}

// userEnv is the environment of a user whose HOME is home, with the Go caches kept so
// install.sh builds quickly, and nothing of zoneline's or Claude Code's set.
func userEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "PREFIX" || strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "ZONELINE_") || strings.HasPrefix(k, "XDG_") {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if out, err := exec.Command("go", "env", k).Output(); err == nil {
			env = append(env, k+"="+strings.TrimSpace(string(out)))
		}
	}
	return append(env, "HOME="+home)
}

// installStatus waits up to 10 s for the status line area to satisfy ok and returns its plain
// text, lines joined by " | ".
func installStatus(s *Session, ok func(plain string) bool) ([]string, string) {
	var area []string
	var plain string
	s.Poll(10*time.Second, true, func(sc string) bool {
		area = StatusArea(sc)
		var ps []string
		for _, l := range area {
			ps = append(ps, strings.TrimSpace(termcolor.Strip(l)))
		}
		plain = strings.Join(ps, " | ")
		return len(area) > 0 && ok(plain)
	})
	return area, plain
}
