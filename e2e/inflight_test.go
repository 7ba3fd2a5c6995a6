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

	"github.com/zoneline/zoneline/hook"
	"github.com/zoneline/zoneline/notify/notifytest"
)

// inflightSession runs Claude Code with zoneline as the statusLine and `zoneline hook` for the
// compaction events, UserPromptSubmit and Stop, tools allowed without a prompt, and the mock
// scripted to answer trigger words with tool calls. busAddr, when not "", is the session bus.
func inflightSession(t *testing.T, busAddr string, script []map[string]any) (*Session, Binaries) {
	t.Helper()
	Require(t)
	bins := Build(t)
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	entry := func(matcher string) []any {
		e := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookCmd, "timeout": 10}}}
		if matcher != "" {
			e["matcher"] = matcher
		}
		return []any{e}
	}
	env := map[string]string{
		"ZONELINE_STATE_DIR":  "{{WORK}}/state",
		"ZONELINE_CONFIG":     "{{WORK}}/zoneline.toml",
		"XDG_RUNTIME_DIR":     "{{WORK}}/xdg/run",
		"RUNEWIDTH_EASTASIAN": "0",
		// 2.1.332 disables TodoWrite ("No such tool available: TodoWrite. TodoWrite is disabled
		// for this session") unless asked for.
		"CLAUDE_CODE_ENABLE_TODO_TOOLS": "1",
	}
	if busAddr != "" {
		env["DBUS_SESSION_BUS_ADDRESS"] = busAddr
	}
	s := Start(t, Options{
		Settings: map[string]any{
			"statusLine":  map[string]any{"type": "command", "command": ShellQuote(bins.Zoneline) + " statusline"},
			"permissions": map[string]any{"allow": []string{"Bash", "Agent", "Read", "Write", "Edit", "TodoWrite", "TaskCreate", "TaskUpdate"}},
			"hooks": map[string]any{
				"PreCompact":       entry(""),
				"PostCompact":      entry(""),
				"SessionStart":     entry("compact"),
				"UserPromptSubmit": entry(""),
				"Stop":             entry(""),
			},
		},
		Env: env,
		// Auto mode (the default for an API-key user) sends each subagent call to a server-side
		// safety check the mock cannot answer: default mode with allow rules instead.
		ClaudeArgs: []string{"--permission-mode", "default"},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.MockConfig(map[string]any{"tool_script": script})
	return s, bins
}

// writeCheckpointE2E writes a verified checkpoint for the session where `zoneline checkpoint
// path` says, with next as its Next section.
func writeCheckpointE2E(t *testing.T, s *Session, bins Binaries, next string) string {
	t.Helper()
	id := sessionID(t, s)
	env := append(os.Environ(), "CLAUDE_CODE_SESSION_ID="+id, "ZONELINE_STATE_DIR="+filepath.Join(s.Work, "state"), "ZONELINE_CONFIG="+filepath.Join(s.Work, "zoneline.toml"))
	out, err := exec.Command(bins.Zoneline, "checkpoint", "path").Output()
	cmd := exec.Command(bins.Zoneline, "checkpoint", "path")
	cmd.Env = env
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("zoneline checkpoint path: %v", err)
	}
	ckPath := strings.TrimSpace(string(out))
	ck := goodCheckpointE2E(t, id, s.Proj)
	ck = regexp.MustCompile(`(?s)## Next\n.*?\n\n`).ReplaceAllString(ck, "## Next\n"+next+"\n\n")
	if err := os.WriteFile(ckPath, []byte(ck), 0o600); err != nil {
		t.Fatal(err)
	}
	verify := exec.Command(bins.Zoneline, "checkpoint", "verify")
	verify.Env = env
	if out, err := verify.CombinedOutput(); err != nil {
		t.Fatalf("zoneline checkpoint verify: %v\n%s\n%s", err, out, ck)
	}
	return ckPath
}

// firstAfter returns the first main or tool-result request after t0.
func firstAfter(t *testing.T, s *Session, t0 float64) Request {
	t.Helper()
	for _, r := range s.Requests(KindMain, KindToolResult) {
		if r.T > t0 {
			return r
		}
	}
	t.Fatal("no request after the compaction")
	return Request{}
}

// togglePlanMode presses Shift+Tab until the screen shows plan mode.
func togglePlanMode(t *testing.T, s *Session, on bool) {
	t.Helper()
	re := regexp.MustCompile(`(?i)plan mode on`)
	for i := 0; i < 6; i++ {
		if re.MatchString(s.Screen(false)) == on {
			return
		}
		s.Keys("BTab")
		time.Sleep(700 * time.Millisecond)
	}
	s.Capture("plan-mode")
	t.Fatalf("plan mode did not turn %v after Shift+Tab", on)
}

// TestInFlightRestore: the mock answers with a run_in_background Bash call, an Agent
// (subagent) call, a TodoWrite and a TaskCreate, with plan mode on for the last part of the
// session; after /compact the first request to the mock carries a restore that lists the
// background command with its id and output file, the subagent, the task items with their
// status, and that plan mode was on.
func TestInFlightRestore(t *testing.T) {
	s, bins := inflightSession(t, "", []map[string]any{
		{"trigger": "IF-TODO", "tools": []any{map[string]any{"name": "TodoWrite", "input": map[string]any{"todos": []any{
			map[string]any{"content": "E2E-TODO-1 write the fix", "status": "completed", "activeForm": "Writing the fix"},
			map[string]any{"content": "E2E-TODO-2 run the tests", "status": "in_progress", "activeForm": "Running the tests"},
		}}}}},
		{"trigger": "IF-TASK", "tools": []any{map[string]any{"name": "TaskCreate", "input": map[string]any{"subject": "E2E-TASK-1 review the PR", "description": "Review it", "activeForm": "Reviewing"}}}},
		{"trigger": "IF-BG", "tools": []any{map[string]any{"name": "Bash", "input": map[string]any{"command": "sleep 300", "description": "E2E-BG long build", "run_in_background": true}}}},
		{"trigger": "IF-AGENT", "tools": []any{map[string]any{"name": "Agent", "input": map[string]any{"description": "E2E-AGENT survey", "prompt": "Look at the project and report in one line.", "subagent_type": "general-purpose"}}}},
	})
	for _, p := range []string{"IF-TODO keep a list", "IF-TASK add a task", "IF-BG start the build", "IF-AGENT dispatch a helper"} {
		s.Prompt(p)
	}
	togglePlanMode(t, s, true)
	s.Prompt("a turn in plan mode")
	writeCheckpointE2E(t, s, bins, "- Action: edit auth/session.go, then run `go test ./auth`\n- Expected: TestRedirect passes")

	nCompact := len(s.Requests(KindCompact))
	s.Command("/compact")
	if got := len(s.Requests(KindCompact)); got != nCompact+1 {
		t.Fatalf("%d summarisation requests, want %d", got, nCompact+1)
	}
	compactAt := s.Requests(KindCompact)[nCompact].T
	s.Prompt("after the compaction")
	first := bodyText(t, firstAfter(t, s, compactAt))
	i := strings.Index(first, hook.InFlightHeading)
	if i < 0 {
		t.Fatalf("the first request after /compact has no work in flight:\n%s", first)
	}
	restore := first[i:]
	t.Logf("restore's work in flight:\n%s", restore[:min(len(restore), 4000)])
	bgID := regexp.MustCompile("  - ([A-Za-z0-9_-]+): `sleep 300` \"E2E-BG long build\", output (\\S+),").FindStringSubmatch(restore)
	if bgID == nil {
		t.Errorf("the restore does not list the background command with its id and output file")
	} else if !strings.Contains(bodyTextAll(t, s), "Command running in background with ID: "+bgID[1]) {
		t.Errorf("background id %q is not the one Claude Code reported", bgID[1])
	}
	for _, want := range []string{"E2E-AGENT survey", "(general-purpose)", "E2E-TODO-1 write the fix", "[completed]", "[in_progress] E2E-TODO-2 run the tests",
		"PLAN MODE WAS ON at PreCompact", "check each unfinished item"} {
		if !strings.Contains(restore, want) {
			t.Errorf("the restore lacks %q", want)
		}
	}
}

// bodyTextAll is every request body's text.
func bodyTextAll(t *testing.T, s *Session) string {
	var b strings.Builder
	for _, r := range s.Requests() {
		if len(r.Body) > 0 && r.Body[0] == '{' {
			b.WriteString(bodyText(t, r))
		}
	}
	return b.String()
}

var _ = notifytest.Answer
