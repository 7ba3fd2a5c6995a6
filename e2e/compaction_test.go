//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
)

// compactionSession runs Claude Code with `zoneline hook` registered for the compaction
// events and UserPromptSubmit, and zoneline's state and config inside the run dir. config is
// the TOML written to the config file ("" for none); claudeArgs are extra claude arguments.
func compactionSession(t *testing.T, model, config string, env map[string]string, claudeArgs ...string) (*Session, Binaries) {
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
	s := Start(t, Options{
		Model: model,
		Settings: map[string]any{
			"hooks": map[string]any{
				"PreCompact":       entry(""),
				"PostCompact":      entry(""),
				"SessionStart":     entry("compact"),
				"UserPromptSubmit": entry(""),
			},
		},
		Env:        allEnv,
		ClaudeArgs: claudeArgs,
	})
	if config != "" {
		if err := os.WriteFile(filepath.Join(s.Work, "zoneline.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	return s, bins
}

// sessionID is the session id Claude Code sends with every request.
func sessionID(t *testing.T, s *Session) string {
	t.Helper()
	for _, r := range s.Requests(KindMain) {
		for k, v := range r.Headers {
			if strings.EqualFold(k, "x-claude-code-session-id") && state.ValidSessionID(v) {
				return v
			}
		}
	}
	t.Fatal("no x-claude-code-session-id header in the mock's log")
	return ""
}

// bodyText returns every string in a request body, joined by newlines.
func bodyText(t *testing.T, r Request) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// TestCompactionRestore plays the agent: it writes a checkpoint where `zoneline checkpoint
// path` says, runs /compact, and checks that the first request after the compaction carries
// the checkpoint verbatim and the recovery instructions exactly once, that the next turn does
// not carry them again, and that the snapshot holds the prompts typed.
func TestCompactionRestore(t *testing.T) {
	s, bins := compactionSession(t, "", "", nil)
	prompts := []string{"first prompt about the login loop", "second prompt: the cookie path"}
	for _, p := range prompts {
		s.Prompt(p)
	}
	id := sessionID(t, s)
	stateDir := filepath.Join(s.Work, "state")

	cmd := exec.Command(bins.Zoneline, "checkpoint", "path")
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_SESSION_ID="+id, "ZONELINE_STATE_DIR="+stateDir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zoneline checkpoint path: %v", err)
	}
	ckPath := strings.TrimSpace(string(out))
	ck := goodCheckpointE2E(t, id, s.Proj)
	if err := os.WriteFile(ckPath, []byte(ck), 0o600); err != nil {
		t.Fatal(err)
	}
	verify := exec.Command(bins.Zoneline, "checkpoint", "verify")
	verify.Env = cmd.Env
	if out, err := verify.CombinedOutput(); err != nil {
		t.Fatalf("zoneline checkpoint verify: %v\n%s", err, out)
	}

	nCompact := len(s.Requests(KindCompact))
	s.Command("/compact")
	if got := len(s.Requests(KindCompact)); got != nCompact+1 {
		t.Fatalf("%d summarisation requests, want %d", got, nCompact+1)
	}
	compactAt := s.Requests(KindCompact)[nCompact].T

	s.Prompt("third prompt after the compaction")
	s.Prompt("fourth prompt")
	var after []Request
	for _, r := range s.Requests(KindMain, KindToolResult) {
		if r.T > compactAt {
			after = append(after, r)
		}
	}
	if len(after) < 2 {
		t.Fatalf("%d main requests after the compaction, want 2", len(after))
	}
	first, next := bodyText(t, after[0]), bodyText(t, after[1])
	if n := strings.Count(first, ck); n != 1 {
		t.Errorf("first request after /compact carries the checkpoint %d times, want exactly 1", n)
	}
	if n := strings.Count(first, hookevent.RecoveryInstructions); n != 1 {
		t.Errorf("first request after /compact carries the recovery instructions %d times, want 1", n)
	}
	if n := strings.Count(next, hookevent.RestoreHeading); n != strings.Count(first, hookevent.RestoreHeading) {
		t.Errorf("the next turn carries the restore %d times, the first %d: it was delivered again", n, strings.Count(first, hookevent.RestoreHeading))
	}
	if n := strings.Count(next, ck); n > 1 {
		t.Errorf("the next turn carries the checkpoint %d times", n)
	}

	_, snap, err := snapshot.Latest(state.Dir{Root: stateDir}, id)
	if err != nil {
		t.Fatalf("no snapshot: %v", err)
	}
	var typed []string
	for _, p := range snap.Prompts {
		typed = append(typed, p.Text)
	}
	for _, p := range prompts {
		if !strings.Contains(strings.Join(typed, "\n"), p) {
			t.Errorf("snapshot prompts %q lack %q", typed, p)
		}
	}
	if snap.Trigger != "manual" {
		t.Errorf("snapshot trigger %q", snap.Trigger)
	}
}

// TestCompactionHoldOnce: with hold_once on and no checkpoint, an auto compaction is blocked
// once, Claude Code receives the hold's reason, and the next attempt goes through.
//
// The reason does not reach the screen, and cannot in 2.1.332: an auto compaction whose threshold
// comes from the environment (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, the only way to make it fire
// against the mock) is routed through reactive compaction, and that path shows its "not
// compacted · …" notice only when the skip reason does not start with "Compaction blocked by
// PreCompact hook"; a hook's block is logged to the --debug log alone. Tried, with the same
// result: the JSON block, exit 2 with the reason on stderr, both, systemMessage, and a turn at
// 95k (past the 90k auto-compact point, short of the blocking limit; the turn then simply goes
// out uncompacted). So the test checks the reason in Claude Code's debug log, and the screen
// for Claude Code's own "Context limit reached" (the session sits at the blocking level).
func TestCompactionHoldOnce(t *testing.T) {
	s, _ := compactionSession(t, "claude-sonnet-4-5-20250929", "[precompact]\nhold_once = true\n", map[string]string{
		"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50",
		"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "200000",
	}, "--debug")
	s.Prompt("a1 small")
	s.MockUsage(Context(190000), Context(190000), Context(190000))
	s.Prompt("a2 reports 190k")
	time.Sleep(2 * time.Second)

	s.Type("a3 next prompt", true)
	s.WaitScreen(regexp.MustCompile(`held once|Context limit reached`), CompactTimeout)
	s.WaitIdle(CompactTimeout)
	s.Capture("held")
	if n := len(s.Requests(KindCompact)); n != 0 {
		t.Fatalf("%d summarisation requests after the hold, want 0", n)
	}
	if log := zonelineLogTail(s); !strings.Contains(log, "held auto-compaction") {
		t.Errorf("zoneline did not record the hold:\n%s", log)
	}
	debug := claudeDebugLog(t, s)
	if !strings.Contains(debug, "blocked by PreCompact hook") || !strings.Contains(debug, hookevent.HoldReason) {
		t.Errorf("Claude Code's debug log has no PreCompact block with the hold's reason %q", hookevent.HoldReason)
	}
	screen := strings.Join(strings.Fields(s.Screen(false)), " ")
	if strings.Contains(screen, "/compact-prep") {
		t.Logf("the hold's reason is on screen: this Claude Code now shows it; assert it here")
	}

	s.Type("a4 after the hold", true)
	deadline := time.Now().Add(CompactTimeout)
	for len(s.Requests(KindCompact)) == 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	s.WaitIdle(CompactTimeout)
	s.Capture("after-second-attempt")
	if n := len(s.Requests(KindCompact)); n != 1 {
		t.Fatalf("%d summarisation requests on the second attempt, want 1", n)
	}
}

// claudeDebugLog returns the --debug logs Claude Code wrote under the session's HOME, joined.
func claudeDebugLog(t *testing.T, s *Session) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.Home, ".claude", "debug", "*.txt"))
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	if b.Len() == 0 {
		t.Fatalf("no Claude Code debug log under %s", filepath.Join(s.Home, ".claude", "debug"))
	}
	return b.String()
}

// goodCheckpointE2E is a checkpoint that passes verify, for session id in dir.
func goodCheckpointE2E(t *testing.T, id, dir string) string {
	t.Helper()
	return "# zoneline checkpoint\nsession: " + id + "\nmodel: claude-opus-5-5\ncwd: " + dir + "\ntime: " +
		time.Now().UTC().Format(time.RFC3339) + "\ncompactions: 0\n\n" +
		"## Goal\n\"Fix the login redirect loop (E2E-GOAL-7731).\"\n\n" +
		"## State\n- done: reproduced with `go test ./auth`\n\n" +
		"## Next\n- Action: edit auth/session.go, then run `go test ./auth`\n- Expected: TestRedirect passes\n\n" +
		"## Decisions\n- keep the cookie name — yes — mobile reads it\n\n" +
		"## Abandoned\nnone\n\n## Rules\n- never push to main\n\n" +
		"## External state\n| system | identifier | applied | idempotent | verify |\n|---|---|---|---|---|\n" +
		"| git | branch fix/login on origin | no | no | `git ls-remote --exit-code origin refs/heads/fix/login >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s` |\n\n" +
		"## Skills\nnone\n\n## Pointers\n- auth/session.go\n"
}
