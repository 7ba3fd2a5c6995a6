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

	"github.com/zoneline/zoneline/hookevent"
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
	entry := func(matcher string) []any { return hookEntry(hookCmd, matcher) }
	env := map[string]string{
		"ZONELINE_STATE_DIR": "{{WORK}}/state",
		"ZONELINE_CONFIG":    "{{WORK}}/zoneline.toml",
		"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
		// 2.1.332 refuses the task tools ("No such tool available: TaskCreate. TaskCreate is
		// disabled for this session") unless this is set; TodoWrite stays refused.
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
	cmd := exec.Command(bins.Zoneline, "checkpoint", "path")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
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

// inflightScript makes the mock answer IF-TODO with a TodoWrite (which 2.1.332 refuses: "No
// such tool available: TodoWrite. TodoWrite is disabled for this session"), IF-TASK with two
// TaskCreate calls, IF-UPD with two TaskUpdate calls, IF-BG with a run_in_background Bash call
// and IF-AGENT with an Agent (subagent) call.
func inflightScript() []map[string]any {
	tool := func(name string, input map[string]any) map[string]any {
		return map[string]any{"name": name, "input": input}
	}
	return []map[string]any{
		{"trigger": "IF-TODO", "tools": []any{tool("TodoWrite", map[string]any{"todos": []any{
			map[string]any{"content": "E2E-TODO-0 refused list", "status": "pending", "activeForm": "Refusing"}}})}},
		{"trigger": "IF-TASK", "tools": []any{
			tool("TaskCreate", map[string]any{"subject": "E2E-TASK-1 write the fix", "description": "Write it", "activeForm": "Writing"}),
			tool("TaskCreate", map[string]any{"subject": "E2E-TASK-2 run the tests", "description": "Run them", "activeForm": "Running"})}},
		{"trigger": "IF-UPD", "tools": []any{
			tool("TaskUpdate", map[string]any{"taskId": "1", "status": "completed"}),
			tool("TaskUpdate", map[string]any{"taskId": "2", "status": "in_progress"})}},
		{"trigger": "IF-BG", "tools": []any{tool("Bash", map[string]any{"command": "sleep 300", "description": "E2E-BG long build", "run_in_background": true})}},
		{"trigger": "IF-AGENT", "tools": []any{tool("Agent", map[string]any{"description": "E2E-AGENT survey", "prompt": "Look at the project and report in one line.", "subagent_type": "general-purpose"})}},
	}
}

// runInFlight plays the part of the session before the compaction: the scripted tool calls,
// then plan mode on for the last turn, then a verified checkpoint whose Next is next, and
// /compact. It returns the time of the summarisation request.
func runInFlight(t *testing.T, s *Session, bins Binaries, next string) float64 {
	t.Helper()
	for _, p := range []string{"IF-TODO keep a list", "IF-TASK add tasks", "IF-UPD move them", "IF-BG start the build", "IF-AGENT dispatch a helper"} {
		s.Prompt(p)
	}
	togglePlanMode(t, s, true)
	s.Prompt("a turn in plan mode")
	writeCheckpointE2E(t, s, bins, next)
	nCompact := len(s.Requests(KindCompact))
	s.Command("/compact")
	if got := len(s.Requests(KindCompact)); got != nCompact+1 {
		t.Fatalf("%d summarisation requests, want %d", got, nCompact+1)
	}
	return s.Requests(KindCompact)[nCompact].T
}

// TestInFlightRestore: the mock answers with a run_in_background Bash call, an Agent
// (subagent) call, a TodoWrite and TaskCreate/TaskUpdate calls, with plan mode on for the last
// part of the session; after /compact the first request to the mock carries a restore that
// lists the background command with the id Claude Code gave it and its output file, the
// subagent, the task items with their status, and that plan mode was on.
func TestInFlightRestore(t *testing.T) {
	s, bins := inflightSession(t, "", inflightScript())
	compactAt := runInFlight(t, s, bins, "- Action: edit auth/session.go, then run `go test ./auth`\n- Expected: TestRedirect passes")
	s.Prompt("after the compaction")
	first := bodyText(t, firstAfter(t, s, compactAt))
	i := strings.Index(first, hookevent.InFlightHeading)
	if i < 0 {
		t.Fatalf("the first request after /compact has no work in flight:\n%s", first)
	}
	restore := first[i:]
	if j := strings.Index(restore, "\n\n"); j > 0 {
		restore = restore[:j]
	}
	t.Logf("the restore's work in flight:\n%s", restore)
	bg := regexp.MustCompile("  - ([A-Za-z0-9_-]+): `sleep 300` \"E2E-BG long build\", output (\\S+),").FindStringSubmatch(restore)
	if bg == nil {
		t.Errorf("the restore does not list the background command with its id and output file")
	} else if all := bodyTextAll(t, s); !strings.Contains(all, "Command running in background with ID: "+bg[1]+". Output is being written to: "+bg[2]) {
		t.Errorf("background id %q and output %q are not the ones Claude Code reported", bg[1], bg[2])
	}
	for _, want := range []string{"E2E-AGENT survey", "(general-purpose)",
		"[completed] #1 E2E-TASK-1 write the fix", "[in_progress] #2 E2E-TASK-2 run the tests",
		"PLAN MODE WAS ON at PreCompact", "check each unfinished item"} {
		if !strings.Contains(restore, want) {
			t.Errorf("the restore lacks %q", want)
		}
	}
	if strings.Contains(restore, "E2E-TODO-0") {
		t.Errorf("the restore lists the TodoWrite Claude Code refused")
	}
}

// TestResumeOnPlan: the mock's first tool call after the restore runs the checkpoint's Next:
// the status line shows "on plan" and no notification is sent.
func TestResumeOnPlan(t *testing.T) {
	testResume(t, "go test ./auth", "on plan", 0)
}

// TestResumeOffPlan: the mock's first tool call after the restore (past reading the checkpoint)
// runs another command: the status line shows "OFF PLAN" and exactly one notification arrives
// on the private bus.
func TestResumeOffPlan(t *testing.T) {
	testResume(t, "git push origin main", "OFF PLAN", 1)
}

func testResume(t *testing.T, firstCommand, want string, notes int) {
	bins := Build(t)
	bins.RequireNotify(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	script := append(inflightScript()[3:4], map[string]any{"trigger": "RESUME-NOW", "tools": []any{
		map[string]any{"name": "Read", "input": map[string]any{"file_path": "{{CHECKPOINT}}"}},
	}}, map[string]any{"trigger": "RESUME-NOW", "tools": []any{
		map[string]any{"name": "Bash", "input": map[string]any{"command": firstCommand, "description": "E2E first action"}},
	}})
	s, _ := inflightSession(t, bus.Addr, script)
	s.Prompt("IF-BG start the build")
	ckPath := writeCheckpointE2E(t, s, bins, "- Action: edit auth/session.go, then run `go test ./auth`\n- Expected: TestRedirect passes")
	script[1]["tools"].([]any)[0].(map[string]any)["input"].(map[string]any)["file_path"] = ckPath
	s.MockConfig(map[string]any{"tool_script": script})
	s.Command("/compact")
	// One turn: the mock reads the checkpoint (a recovery step), then, on the tool result's
	// turn… the scripted entries answer main turns only, so a second prompt runs the command.
	s.Prompt("RESUME-NOW read the checkpoint")
	s.Prompt("RESUME-NOW then act")
	var line string
	s.Poll(20*time.Second, false, func(sc string) bool {
		line = strings.Join(StatusArea(sc), " | ")
		return strings.Contains(line, want)
	})
	if !strings.Contains(line, want) {
		t.Errorf("the status line shows %q, want %q", line, want)
	}
	// The warning loop notifies too (the mock's context grows past the warn tier): count the
	// resume check's own.
	offPlan := func() []notifytest.Record {
		var out []notifytest.Record
		for _, r := range rcv.Records() {
			if strings.Contains(r.Summary, "off plan") {
				out = append(out, r)
			}
		}
		return out
	}
	for end := time.Now().Add(20 * time.Second); notes > 0 && len(offPlan()) < notes && time.Now().Before(end); {
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(3 * time.Second) // room for a second one that must not come
	recs := offPlan()
	if len(recs) != notes {
		t.Errorf("%d off-plan notifications, want %d (all: %+v)", len(recs), notes, rcv.Records())
	}
	if len(recs) > 0 && (!strings.Contains(recs[0].Body, firstCommand) || !strings.Contains(recs[0].Body, "go test ./auth")) {
		t.Errorf("notification: %+v", recs[0])
	}
	s.Prompt("the next prompt")
	s.Poll(10*time.Second, false, func(sc string) bool {
		line = strings.Join(StatusArea(sc), " | ")
		return !strings.Contains(line, want)
	})
	if strings.Contains(line, want) {
		t.Errorf("the status line still shows %q after the next prompt", want)
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
