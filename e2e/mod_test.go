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

	"github.com/zoneline/zoneline/ccmod"
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/notify/notifytest"
)

// modSonnet is the model the mod's end-to-end tests run (a 200k window).
const modSonnet = "claude-sonnet-4-5"

// modDir writes the embedded mod (what `zoneline install -mod` ships) into a temp Claude folder
// and returns the mod's folder, naming bin as the zoneline it runs.
func modDir(t *testing.T, bin string) string {
	t.Helper()
	dir, _, err := install.InstallMod(t.TempDir(), bin, ccmod.FS, ccmod.Root, false)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// claudeRun runs the claude binary with args and a throwaway config dir.
func claudeRun(t *testing.T, claude string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(claude, args...)
	cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+t.TempDir(), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestModPluginValidateAndTest: the shipped mod passes `claude plugin validate` (no type error:
// the engine type-checks the module against its own declarations) and its own tests under
// `claude plugin test`.
func TestModPluginValidateAndTest(t *testing.T) {
	claude := Require(t)
	dir := modDir(t, "/usr/bin/false")
	out, err := claudeRun(t, claude, "plugin", "validate", dir)
	if err != nil || !strings.Contains(out, "Validation passed") {
		t.Fatalf("claude plugin validate %s: %v\n%s", dir, err, out)
	}
	if strings.Contains(out, "error TS") {
		t.Errorf("claude plugin validate reports type errors:\n%s", out)
	}
	out, err = claudeRun(t, claude, "plugin", "test", dir)
	if err != nil || !strings.Contains(out, " 0 fail") {
		t.Fatalf("claude plugin test %s: %v\n%s", dir, err, out)
	}
	if !regexp.MustCompile(`\b12 pass\b`).MatchString(out) {
		t.Errorf("claude plugin test ran other than the mod's 12 tests:\n%s", out)
	}
}

// modSession runs Claude Code with the mod (--plugin-dir), zoneline's hooks, and another status
// line; config is zoneline's config ("" for none).
func modSession(t *testing.T, config string, env map[string]string, mockArgs ...string) (*Session, Binaries) {
	t.Helper()
	Require(t)
	bins := Build(t)
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	entry := func(matcher string) []any { return hookEntry(hookCmd, matcher) }
	allEnv := map[string]string{
		"ZONELINE_STATE_DIR": "{{WORK}}/state",
		"ZONELINE_CONFIG":    "{{WORK}}/zoneline.toml",
		"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
	}
	for k, v := range env {
		allEnv[k] = v
	}
	dir := modDir(t, bins.Zoneline)
	opts := Options{
		Model: modSonnet,
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": "printf 'OTHER-STATUS-LINE'"},
			"hooks": map[string]any{
				"PreCompact":       entry(""),
				"PostCompact":      entry(""),
				"SessionStart":     entry("compact"),
				"UserPromptSubmit": entry(""),
			},
		},
		Env:        allEnv,
		MockArgs:   mockArgs,
		ClaudeArgs: []string{"--plugin-dir", dir},
		BeforeLaunch: func(s *Session) {
			if config != "" {
				if err := os.WriteFile(filepath.Join(s.Work, "zoneline.toml"), []byte(config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		},
	}
	s := Start(t, opts)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	return s, bins
}

// TestModZoneRow: at 140k of 200k on Sonnet 4.5 the mod's row above the prompt shows zoneline's
// zone word, tokens and distance while another program is the status line.
func TestModZoneRow(t *testing.T) {
	s, _ := modSession(t, "", nil, "--base=140000", "--step=0")
	s.Prompt("hello from the mod test")
	screen, ok := s.Poll(30*time.Second, false, func(sc string) bool {
		return strings.Contains(sc, "● DUMB") && strings.Contains(sc, "140k/200k") && strings.Contains(sc, "OTHER-STATUS-LINE")
	})
	if !ok {
		t.Fatalf("the screen lacks the zone row (● DUMB 140k/200k) beside the other status line:\n%s", screen)
	}
	// The row is above the prompt box; the other status line is below it.
	lines := strings.Split(screen, "\n")
	row, other := -1, -1
	for i, l := range lines {
		if strings.Contains(l, "● DUMB") && row < 0 {
			row = i
		}
		if strings.Contains(l, "OTHER-STATUS-LINE") {
			other = i
		}
	}
	if row < 0 || other < 0 || row > other {
		t.Errorf("zone row on line %d, other status line on line %d: want the row above\n%s", row, other, screen)
	}
	if !strings.Contains(lines[row], "to compact") {
		t.Errorf("the row lacks the distance to auto-compact: %q", lines[row])
	}
}

// TestModAutoCompactInstructions: an automatic compaction (as in the harness's README: 80% of a
// 200k window, compacting at the sixth prompt) with the mod and the hooks sends a summarisation
// request that carries zoneline's instructions after "Additional Instructions:", once (the
// PreCompact hook's; the mod adds none).
func TestModAutoCompactInstructions(t *testing.T) {
	s, _ := modSession(t, "", map[string]string{
		"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "80",
		"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "200000",
	}, "--base=20000", "--step=40000")
	for i := 1; i <= 6 && len(s.Requests(KindCompact)) == 0; i++ {
		s.Prompt("prompt number " + string(rune('0'+i)))
	}
	cs := s.Requests(KindCompact)
	if len(cs) == 0 {
		t.Fatal("no summarisation request after six prompts")
	}
	body := bodyText(t, cs[0])
	i := strings.Index(body, "Additional Instructions:")
	if i < 0 {
		t.Fatalf("the summarisation request has no \"Additional Instructions:\"")
	}
	if n := strings.Count(body[i:], hookevent.NothingToKeep); n != 1 {
		t.Errorf("the instructions after \"Additional Instructions:\" carry zoneline's line %d times, want once:\n%.1200s", n, body[i:])
	}
}

// forkTrigger is the start of zoneline's fork prompt: the mock answers a request carrying it.
const forkTrigger = "[zoneline] This conversation is about to be compacted"

// TestModCompactAt: with [mod] compact_at = "prep", once the session is past its prep tier the
// mod forks (the mock answers with a checkpoint), the checkpoint file is written and verified,
// the compaction request carries the ready instruction line, and the next request carries the
// restore once.
func TestModCompactAt(t *testing.T) {
	s, _ := modSession(t, "[mod]\ncompact_at = \"prep\"\n", nil, "--base=20000", "--step=40000")
	s.Prompt("first prompt about the login loop")
	id := sessionID(t, s)
	ck := goodCheckpointE2E(t, id, s.Proj)
	s.MockConfig(map[string]any{"fork_answer": map[string]any{"trigger": forkTrigger, "text": ck}})
	for i := 2; i <= 4; i++ {
		s.Prompt("prompt number " + string(rune('0'+i)))
	}
	if !waitRequests(s, KindCompact, 1, 120*time.Second) {
		t.Fatalf("no compaction request after the prep tier (forks: %d)", len(s.Requests(KindFork)))
	}
	if n := len(s.Requests(KindFork)); n != 1 {
		t.Errorf("%d fork requests, want 1", n)
	}
	ckPath := filepath.Join(s.Work, "state", "sessions", id, "checkpoint.md")
	got, err := os.ReadFile(ckPath)
	if err != nil {
		t.Fatalf("the checkpoint was not written: %v", err)
	}
	if string(got) != ck {
		t.Errorf("checkpoint file differs from the fork's answer:\n%s", got)
	}
	cs := s.Requests(KindCompact)
	body := bodyText(t, cs[0])
	want := "Keep verbatim the path of zoneline's checkpoint, which is put back after this compaction: " + ckPath
	if i := strings.Index(body, "Additional Instructions:"); i < 0 || !strings.Contains(body[i:], want) || strings.Count(body[i:], hookevent.InstructionsHead) != 1 {
		t.Errorf("the compaction request lacks the PreCompact hook's instructions naming the checkpoint once (%q)", want)
	}
	if f := s.Requests(KindFork); len(f) > 0 && f[0].T > cs[0].T {
		t.Errorf("the fork came after the compaction request")
	}
	s.Prompt("prompt after the compaction")
	s.Prompt("one more prompt")
	var after []Request
	for _, r := range s.Requests(KindMain, KindToolResult) {
		if r.T > cs[0].T {
			after = append(after, r)
		}
	}
	if len(after) < 2 {
		t.Fatalf("%d main requests after the compaction, want 2", len(after))
	}
	first, next := bodyText(t, after[0]), bodyText(t, after[1])
	if n := strings.Count(first, ck); n != 1 {
		t.Errorf("the first request after the compaction carries the checkpoint %d times, want 1", n)
	}
	if strings.Count(next, hookevent.RestoreHeading) != strings.Count(first, hookevent.RestoreHeading) {
		t.Errorf("the restore was delivered again on the next request")
	}
	// The receipt on the row: tokens before and after, and the checkpoint restored.
	if screen, ok := s.Poll(20*time.Second, false, func(sc string) bool {
		return regexp.MustCompile(`✓ compacted \d+k → \d+k · checkpoint restored`).MatchString(sc)
	}); !ok {
		t.Errorf("the row shows no receipt with the checkpoint restored:\n%s", screen)
	}
}

// TestModCompactAtVerifyFails: a fork answer that fails verify is not written (mod
// save-checkpoint verifies before it replaces checkpoint.md), sends no compaction request, and
// the row says why.
func TestModCompactAtVerifyFails(t *testing.T) {
	s, _ := modSession(t, "[mod]\ncompact_at = \"prep\"\n", nil, "--base=20000", "--step=40000")
	s.Prompt("first prompt about the login loop")
	id := sessionID(t, s)
	bad := strings.Replace(goodCheckpointE2E(t, id, s.Proj), "## Next\n", "## Nxt\n", 1)
	s.MockConfig(map[string]any{"fork_answer": map[string]any{"trigger": forkTrigger, "text": bad}})
	for i := 2; i <= 4; i++ {
		s.Prompt("prompt number " + string(rune('0'+i)))
	}
	if !waitRequests(s, KindFork, 1, 120*time.Second) {
		t.Fatal("no fork request after the prep tier")
	}
	screen, ok := s.Poll(60*time.Second, false, func(sc string) bool { return strings.Contains(sc, "checkpoint was not written") })
	if !ok {
		t.Errorf("the row does not say the checkpoint was not written:\n%s", screen)
	}
	if _, err := os.Stat(filepath.Join(s.Work, "state", "sessions", id, "checkpoint.md")); !os.IsNotExist(err) {
		t.Errorf("a checkpoint that fails verify was written (%v)", err)
	}
	s.Prompt("prompt number 5")
	if n := len(s.Requests(KindCompact)); n != 0 {
		t.Errorf("%d compaction requests after a checkpoint that failed verify, want 0", n)
	}
	if n := len(s.Requests(KindFork)); n != 1 {
		t.Errorf("%d fork requests, want 1 (the flow stops after a failed step)", n)
	}
}

// waitRequests waits until the mock logged at least n requests of kind.
func waitRequests(s *Session, kind string, n int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if len(s.Requests(kind)) >= n {
			return true
		}
		time.Sleep(500 * time.Millisecond)
	}
	return len(s.Requests(kind)) >= n
}

// TestModInstalled: `zoneline install -mod` alone (no --plugin-dir) makes the next Claude Code
// session load the mod: its row shows above the prompt. uninstall takes it away again.
func TestModInstalled(t *testing.T) {
	Require(t)
	bins := Build(t)
	run := func(s *Session, args ...string) string {
		cmd := exec.Command(bins.Zoneline, args...)
		cmd.Env = append(userEnv(s.Home), "HOME="+s.Home, "ZONELINE_STATE_DIR="+filepath.Join(s.Work, "state"), "ZONELINE_CONFIG="+filepath.Join(s.Work, "zoneline.toml"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("zoneline %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	s := Start(t, Options{
		Model:    modSonnet,
		MockArgs: []string{"--base=140000", "--step=0"},
		Env: map[string]string{
			"ZONELINE_STATE_DIR": "{{WORK}}/state",
			"ZONELINE_CONFIG":    "{{WORK}}/zoneline.toml",
		},
		BeforeLaunch: func(s *Session) {
			out := run(s, "install", "-mod")
			if !strings.Contains(out, "mod: wrote") {
				t.Fatalf("install -mod wrote no mod:\n%s", out)
			}
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.Prompt("hello with the installed mod")
	screen, ok := s.Poll(30*time.Second, false, func(sc string) bool {
		return strings.Contains(sc, "● DUMB") && strings.Contains(sc, "to compact")
	})
	if !ok {
		t.Fatalf("the installed mod's row does not show:\n%s", screen)
	}
	if out := run(s, "uninstall"); !strings.Contains(out, "mod: removed") {
		t.Errorf("uninstall did not remove the mod:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(s.Home, ".claude", "skills", "zoneline-mod")); !os.IsNotExist(err) {
		t.Errorf("the mod's folder is still there after uninstall: %v", err)
	}
}

// TestModBesideHooks: zoneline's status line, its UserPromptSubmit hook and the mod all run the
// warning loop; a crossing still gives exactly one notification and one nudge, and the mod's row
// shows the same zone as the status line.
func TestModBesideHooks(t *testing.T) {
	Require(t)
	bins := Build(t)
	bins.RequireNotify(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	s := Start(t, Options{
		Model: modSonnet,
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": ShellQuote(bins.Zoneline) + " statusline"},
			"hooks": map[string]any{
				"UserPromptSubmit": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookCmd, "timeout": 10}}}},
			},
		},
		Env: map[string]string{
			"ZONELINE_STATE_DIR":       "{{WORK}}/state",
			"ZONELINE_CONFIG":          "{{WORK}}/no-such-dir/config.toml",
			"XDG_RUNTIME_DIR":          "{{WORK}}/xdg/run",
			"DBUS_SESSION_BUS_ADDRESS": bus.Addr,
		},
		ClaudeArgs: []string{"--plugin-dir", modDir(t, bins.Zoneline)},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.MockUsage(Context(20_000))
	s.Prompt("turn one")
	s.MockUsage(Context(125_000))
	s.Prompt("turn two")
	screen, ok := s.Poll(20*time.Second, false, func(sc string) bool {
		return strings.Count(sc, "● DUMB") >= 2 && strings.Contains(sc, "125k/200k")
	})
	if !ok {
		t.Errorf("the screen lacks the zone in both the row and the status line:\n%s", screen)
	}
	rcv.Wait(t, 1, 20*time.Second)
	s.MockUsage(Context(130_000))
	s.Prompt("turn three")
	s.MockUsage(Context(135_000))
	s.Prompt("turn four")
	time.Sleep(2 * time.Second) // a second notification, were there one, the time to arrive
	if n := len(rcv.Records()); n != 1 {
		t.Errorf("%d notifications, want 1 (the status line and the mod cross the same tier)", n)
	}
	rs := s.Requests(KindMain)
	if got := strings.Count(bodyText(t, rs[len(rs)-1]), nudgeMark); got != 1 {
		t.Errorf("the last request carries the nudge %d times, want 1 (delivered once)", got)
	}
}
