//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/notify/notifytest"
)

// CcstatuslineVersion is the pinned ccstatusline the peer tests run (scripts/deps.sh installs
// it with npm into a cache prefix, like the claude CLI).
const CcstatuslineVersion = "2.2.30"

// ccstatusline returns the command line that runs the real ccstatusline (node and its
// installed script), failing t when it is not installed.
func ccstatusline(t *testing.T) string {
	t.Helper()
	cache := os.Getenv("CC_E2E_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "cc-e2e")
	}
	js := filepath.Join(cache, "ccstatusline-"+CcstatuslineVersion, "node_modules", "ccstatusline", "dist", "ccstatusline.js")
	if _, err := os.Stat(js); err != nil {
		t.Fatalf("e2e: ccstatusline %s is not installed (%v): run scripts/deps.sh", CcstatuslineVersion, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("e2e: node is not on PATH (ccstatusline needs it): %v", err)
	}
	return ShellQuote(node) + " " + ShellQuote(js)
}

// writeCcstatuslineConfig writes ccstatusline's settings ($HOME/.config/ccstatusline/
// settings.json, its default path) with its model and context widgets, and extra widgets.
func writeCcstatuslineConfig(t *testing.T, home string, extra ...map[string]any) {
	t.Helper()
	line := []any{
		map[string]any{"id": "1", "type": "model", "color": "cyan"},
		map[string]any{"id": "2", "type": "separator"},
		map[string]any{"id": "3", "type": "context-length", "color": "brightBlack"},
	}
	for _, w := range extra {
		line = append(line, map[string]any{"id": "s" + w["id"].(string), "type": "separator"}, w)
	}
	cfg := map[string]any{"version": 4, "lines": []any{line}}
	os.MkdirAll(filepath.Join(home, ".config", "ccstatusline"), 0o755)
	if err := writeJSON(filepath.Join(home, ".config", "ccstatusline", "settings.json"), cfg); err != nil {
		t.Fatal(err)
	}
}

// ccstatuslineWidgets matches ccstatusline's own widgets on the pane (its model widget).
const ccstatuslineModel = "Model: Sonnet 4.5"

// spaces turns ccstatusline's no-break spaces (it pads its widgets with U+00A0) into spaces.
func spaces(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }

// peerEnv is the zoneline environment of the peer tests: private state and config.
func peerEnv(extra map[string]string) map[string]string {
	env := map[string]string{
		"ZONELINE_STATE_DIR": "{{WORK}}/state",
		"ZONELINE_CONFIG":    "{{WORK}}/config.toml",
		"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
	}
	for k, v := range extra {
		env[k] = v
	}
	return env
}

// TestPeerStatuslineWarnings: ccstatusline draws the status line and zoneline runs only as
// hooks (UserPromptSubmit and Stop). After the context passes the prep threshold, the Stop
// hook writes the marker and notifies; the next request reaching the mock carries the nudge
// exactly once, the one after adds no copy, and the private bus got exactly one notification.
func TestPeerStatuslineWarnings(t *testing.T) {
	Require(t)
	bins := Build(t)
	bins.RequireNotify(t)
	ccs := ccstatusline(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	entry := []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookCmd, "timeout": 10}}}}
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929", // 200k: warn 80k, prep 120k
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": ccs},
			"hooks":      map[string]any{"UserPromptSubmit": entry, "Stop": entry},
		},
		Env:          peerEnv(map[string]string{"DBUS_SESSION_BUS_ADDRESS": bus.Addr}),
		BeforeLaunch: func(s *Session) { writeCcstatuslineConfig(t, s.Home) },
		Timeout:      90 * time.Second,
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	count := func() int {
		rs := s.Requests(KindMain)
		if len(rs) == 0 {
			s.Fatalf("no main request")
		}
		return strings.Count(bodyText(t, rs[len(rs)-1]), nudgeMark)
	}

	s.MockUsage(Context(20_000))
	s.Prompt("turn one")
	if n := count(); n != 0 {
		t.Errorf("turn one carries the nudge %d times", n)
	}
	s.MockUsage(Context(125_000))
	s.Prompt("turn two")
	if n := count(); n != 0 {
		t.Errorf("turn two carries the nudge %d times", n)
	}
	// The Stop hook ran after turn two: the notification arrives with no zoneline status line.
	recs := rcv.Wait(t, 1, 30*time.Second)
	if recs[0].Summary != "zoneline: DUMB zone · proj" || !strings.Contains(recs[0].Body, "125k tokens on Sonnet 4.5") {
		t.Errorf("notification: %+v", recs[0])
	}
	plain, _ := s.Poll(30*time.Second, false, func(sc string) bool { return strings.Contains(spaces(sc), ccstatuslineModel) })
	area := spaces(strings.Join(StatusArea(plain), " | "))
	if !strings.Contains(area, ccstatuslineModel) || zonelineLineRE.MatchString(area) {
		t.Errorf("the status area should be ccstatusline's alone: %q", area)
	}

	s.MockUsage(Context(130_000))
	s.Prompt("turn three")
	if n := count(); n != 1 {
		t.Errorf("the request after the crossing carries the nudge %d times, want 1", n)
	}
	s.MockUsage(Context(135_000))
	s.Prompt("turn four")
	if n := count(); n != 1 {
		t.Errorf("the turn after carries the nudge %d times, want 1 (the old one in the history)", n)
	}
	if n := len(rcv.Records()); n != 1 {
		t.Errorf("%d notifications, want 1", n)
	}
	log, _ := os.ReadFile(filepath.Join(s.Work, "state", "zoneline.log"))
	if !strings.Contains(string(log), "hook: warning: session") {
		t.Errorf("the log does not show the Stop hook's crossing:\n%s", log)
	}
}

// TestInstallWrapCcstatusline: `zoneline install -wrap` over a ccstatusline setting makes the
// pane show zoneline's zone word in its colour and ccstatusline's widgets on the same screen;
// `zoneline uninstall` puts the ccstatusline setting back byte for byte. ccstatusline (a node
// program, seconds to start on a contended machine) runs in the background, never within a
// render: with the default wrap_timeout and the statusLine's refreshInterval (kept by install
// -wrap) the pane catches up with the turn's numbers, with no ⚠ and nothing stale.
func TestInstallWrapCcstatusline(t *testing.T) {
	Require(t)
	bins := Build(t)
	ccs := ccstatusline(t)
	var original []byte
	env := peerEnv(nil)
	userEnv := func(s *Session) []string {
		e := []string{"HOME=" + s.Home, "PATH=" + os.Getenv("PATH"), "CLAUDE_CONFIG_DIR=" + filepath.Join(s.Home, ".claude")}
		for k, v := range env {
			e = append(e, k+"="+s.subst(v))
		}
		return e
	}
	run := func(t *testing.T, s *Session, args ...string) string {
		cmd := exec.Command(bins.Zoneline, args...)
		cmd.Env, cmd.Dir = userEnv(s), s.Proj
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("zoneline %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	s := Start(t, Options{
		Model:    "claude-sonnet-4-5-20250929",
		Settings: map[string]any{"statusLine": map[string]any{"type": "command", "command": ccs, "padding": 0, "refreshInterval": 2}},
		Env:      env,
		Timeout:  90 * time.Second,
		BeforeLaunch: func(s *Session) {
			writeCcstatuslineConfig(t, s.Home)
			var err error
			if original, err = os.ReadFile(filepath.Join(s.Home, ".claude", "settings.json")); err != nil {
				t.Fatal(err)
			}
			out := run(t, s, "install", "-wrap")
			t.Logf("zoneline install -wrap:\n%s", out)
			if !strings.Contains(out, "zoneline now wraps") {
				t.Errorf("install -wrap did not say it wraps ccstatusline:\n%s", out)
			}
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	settings, _ := os.ReadFile(filepath.Join(s.Home, ".claude", "settings.json"))
	var st struct {
		StatusLine struct{ Command string } `json:"statusLine"`
	}
	json.Unmarshal(settings, &st)
	if !strings.Contains(st.StatusLine.Command, "zoneline statusline -wrap ") || !strings.Contains(st.StatusLine.Command, "ccstatusline.js") {
		t.Fatalf("statusLine after install -wrap: %q", st.StatusLine.Command)
	}

	s.MockUsage(Context(100_000))
	s.Prompt("hello through the wrapped status line")
	ansi, _ := s.Poll(60*time.Second, true, func(sc string) bool {
		p := spaces(termcolor.Strip(sc))
		return strings.Contains(p, "● WARN") && strings.Contains(p, ccstatuslineModel) && strings.Contains(p, "100k/200k") && strings.Contains(p, "Ctx: 100")
	})
	ansi = spaces(ansi)
	plain := termcolor.Strip(ansi)
	area := strings.Join(StatusArea(plain), " | ")
	if !strings.Contains(area, "● WARN") || !strings.Contains(area, ccstatuslineModel) || !strings.Contains(area, "Ctx: 100") {
		t.Fatalf("the pane should show zoneline's WARN and ccstatusline's widgets: %q", area)
	}
	if strings.Contains(area, "(stale)") || strings.Contains(area, "⚠") {
		t.Errorf("the wrapped command failed: %q", area)
	}
	// No render waited for ccstatusline: the log names no timed-out or failed wrapped run.
	if log, _ := os.ReadFile(filepath.Join(s.Work, "state", "zoneline.log")); strings.Contains(string(log), "wrapped status line") {
		t.Errorf("the log shows a failed wrapped run:\n%s", log)
	}
	// zoneline's zone word in its colour (the warn yellow, 256-colour 221), as Claude Code draws it.
	if !strings.Contains(ansi, "221m● WARN") && !strings.Contains(ansi, "221m\u25cf WARN") {
		t.Errorf("WARN is not in its colour on the pane:\n%s", ansi)
	}
	s.Close()

	out := run(t, s, "uninstall")
	t.Logf("zoneline uninstall:\n%s", out)
	after, _ := os.ReadFile(filepath.Join(s.Home, ".claude", "settings.json"))
	if string(after) != string(original) {
		t.Errorf("uninstall did not restore the ccstatusline setting byte for byte:\nbefore %q\nafter  %q", original, after)
	}
}

// TestCcstatuslineCustomCommand: ccstatusline's Custom Command widget running `zoneline
// statusline -segments zone` shows the zone inside ccstatusline's line.
func TestCcstatuslineCustomCommand(t *testing.T) {
	Require(t)
	bins := Build(t)
	ccs := ccstatusline(t)
	s := Start(t, Options{
		Model:    "claude-sonnet-4-5-20250929",
		Settings: map[string]any{"statusLine": map[string]any{"type": "command", "command": ccs}},
		Env:      peerEnv(nil),
		Timeout:  90 * time.Second,
		BeforeLaunch: func(s *Session) {
			writeCcstatuslineConfig(t, s.Home, map[string]any{
				"id": "9", "type": "custom-command", "commandPath": ShellQuote(bins.Zoneline) + " statusline -segments zone",
				"preserveColors": true, "timeout": 20000,
			})
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.MockUsage(Context(125_000))
	s.Prompt("hello through ccstatusline's custom command")
	ansi, _ := s.Poll(60*time.Second, true, func(sc string) bool {
		p := spaces(termcolor.Strip(sc))
		return strings.Contains(p, "● DUMB") && strings.Contains(p, ccstatuslineModel)
	})
	ansi = spaces(ansi)
	area := StatusArea(termcolor.Strip(ansi))
	found := false
	for _, l := range area {
		if strings.Contains(l, ccstatuslineModel) && strings.Contains(l, "● DUMB") {
			found = true
		}
	}
	if !found {
		t.Fatalf("ccstatusline's line should hold zoneline's zone: %q", area)
	}
	if !strings.Contains(ansi, "203m● DUMB") {
		t.Errorf("DUMB is not in its colour (preserveColors):\n%s", ansi)
	}
}
