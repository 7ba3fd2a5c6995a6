//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/skills"
	"github.com/zoneline/zoneline/state"
)

// flowTimeout bounds each wait of compact-flow against the mock (a turn takes ~3 s).
const flowTimeout = 90 * time.Second

// prepTrigger is text of the /compact-prep skill: the mock answers the turn that carries it
// with a Write of the checkpoint.
const prepTrigger = "Prepare for compaction"

// manySession starts Claude Code in its own tmux server with zoneline as status line and
// hooks, the /compact-prep and /postcompact skills installed, Write allowed into the shared
// state dir, and TMUX / TMUX_PANE passed to claude so the status line records its pane.
func manySession(t *testing.T, name string, bins Binaries, stateDir, model string) *Session {
	t.Helper()
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	entry := func(matcher string) []any { return hookEntry(hookCmd, matcher) }
	s := Start(namedTB{t, t.Name() + "/" + name}, Options{
		Model: model,
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": ShellQuote(bins.Zoneline) + " statusline"},
			"hooks": map[string]any{
				"PreCompact":       entry(""),
				"PostCompact":      entry(""),
				"SessionStart":     entry("compact"),
				"UserPromptSubmit": entry(""),
			},
			"permissions": map[string]any{
				"allow":                 []any{"Write", "Read", "Bash(zoneline checkpoint:*)"},
				"additionalDirectories": []any{stateDir},
			},
		},
		Env: map[string]string{
			"ZONELINE_STATE_DIR": stateDir,
			"ZONELINE_CONFIG":    "{{WORK}}/no-such-dir/config.toml",
			"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
		},
		BeforeLaunch: func(s *Session) {
			for _, name := range []string{"compact-prep", "postcompact"} {
				data, err := skills.FS.ReadFile(name + "/SKILL.md")
				if err != nil {
					t.Fatal(err)
				}
				dir := filepath.Join(s.Home, ".claude", "skills", name)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// launch.sh starts claude under `env -i`: keep the pane's TMUX and TMUX_PANE.
			p := filepath.Join(s.Work, "launch.sh")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.Replace(b, []byte("exec env -i"), []byte(`exec env -i "TMUX=$TMUX" "TMUX_PANE=$TMUX_PANE"`), 1)
			if err := os.WriteFile(p, b, 0o755); err != nil {
				t.Fatal(err)
			}
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics (%s):\n%s", s.Proj, s.Diagnostics())
		}
	})
	return s
}

// namedTB gives each session of one test its own name, hence its own output dir under
// ZONELINE_E2E_OUT.
type namedTB struct {
	testing.TB
	name string
}

func (n namedTB) Name() string { return n.name }

// paneOf returns the pane id of the session's claude pane.
func paneOf(t *testing.T, s *Session) string {
	t.Helper()
	out, err := s.tmux("display", "-p", "-t", "cc", "#{pane_id}")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// zonelineCmd runs the built zoneline as a person would, outside tmux, against the shared
// state dir, and returns its combined output and exit code.
func zonelineCmd(t *testing.T, bins Binaries, stateDir string, timeout time.Duration, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.Zoneline, args...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "ZONELINE_STATE_DIR=" + stateDir,
		"ZONELINE_CONFIG=" + filepath.Join(stateDir, "no-config.toml"), "NO_COLOR=1",
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("zoneline %v: %v\n%s", args, err, out.String())
	}
	t.Logf("$ zoneline %s  (exit %d)\n%s", strings.Join(args, " "), code, out.String())
	return out.String(), code
}

// listed is what `zoneline sessions -json` says of one session.
type listed struct {
	ID     string `json:"session_id"`
	Zone   string `json:"zone"`
	Tokens int64  `json:"tokens"`
	Pane   string `json:"tmux_pane"`
	Socket string `json:"tmux_socket"`
}

// TestSessionsCompactFlow runs two Claude Code sessions, each in its own tmux server:
// `zoneline sessions` lists both with their zones and panes; compact-flow on one checkpoints
// (the mock writes a valid checkpoint with the Write tool), compacts (the mock sees the
// summarisation request) and restores (the first request after the compaction carries the
// checkpoint), while the other session is untouched; then compact-flow on the other, whose
// mock writes an invalid checkpoint, stops before /compact.
func TestSessionsCompactFlow(t *testing.T) {
	Require(t)
	bins := Build(t)
	stateDir, err := os.MkdirTemp("", "zl-e2e-state-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(stateDir) })
	const model = "claude-sonnet-4-5-20250929"
	a := manySession(t, "a", bins, stateDir, model)
	b := manySession(t, "b", bins, stateDir, model)

	a.MockUsage(Context(125_000))
	a.Prompt("worker A: fix the login loop")
	b.MockUsage(Context(20_000))
	b.Prompt("worker B: update the docs")
	idA, idB := sessionID(t, a), sessionID(t, b)
	paneA, paneB := paneOf(t, a), paneOf(t, b)

	// 1. zoneline sessions: both, most urgent first, with zones and panes.
	var got []listed
	for end := time.Now().Add(statusWait); ; time.Sleep(300 * time.Millisecond) {
		out, code := zonelineCmd(t, bins, stateDir, 10*time.Second, "sessions", "-json")
		got = nil
		if code == 0 && json.Unmarshal([]byte(out), &got) == nil && len(got) == 2 &&
			got[0].Pane != "" && got[1].Pane != "" && got[0].Zone == "dumb" {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("zoneline sessions -json never listed both sessions with panes: %+v", got)
		}
	}
	wantA := listed{ID: idA, Zone: "dumb", Tokens: 125_000, Pane: paneA, Socket: a.Sock}
	wantB := listed{ID: idB, Zone: "smart", Tokens: 20_000, Pane: paneB, Socket: b.Sock}
	if got[0] != wantA || got[1] != wantB {
		t.Fatalf("sessions -json =\n%+v\nwant\n%+v", got, []listed{wantA, wantB})
	}
	// The UserPromptSubmit hook recorded each prompt, and the render after the turn is newer:
	// both sessions are idle at their prompt.
	for _, id := range []string{idA, idB} {
		e, err := sessions.Load(state.Dir{Root: stateDir}, id, time.Now(), 0)
		if idle, known := e.Idle(); err != nil || !known || !idle {
			t.Errorf("session %s: idle=%v known=%v (%v): want idle by the state files", id, idle, known, err)
		}
	}
	table, code := zonelineCmd(t, bins, stateDir, 10*time.Second, "sessions")
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "ZONE") ||
		!strings.HasPrefix(lines[1], "DUMB") || !strings.Contains(lines[1], paneA) || !strings.Contains(lines[1], idA[:8]) ||
		!strings.HasPrefix(lines[2], "SMART") || !strings.Contains(lines[2], paneB) || !strings.Contains(lines[2], idB[:8]) {
		t.Fatalf("zoneline sessions table:\n%s", table)
	}

	// 2. compact-flow on A with a mock that writes a valid checkpoint.
	ckA, _ := checkpoint.Path(state.Dir{Root: stateDir}, idA)
	a.MockConfig(map[string]any{"write_checkpoint": map[string]any{
		"path": ckA, "content": goodCheckpointE2E(t, idA, a.Proj), "trigger": prepTrigger}})
	bBefore := len(b.Requests())
	out, code := zonelineCmd(t, bins, stateDir, 4*flowTimeout, "compact-flow", "-pane", paneA, "-socket", a.Sock, "-timeout", flowTimeout.String())
	a.Capture("after-compact-flow")
	if code != 0 {
		t.Fatalf("compact-flow on A failed (exit %d):\n%s", code, out)
	}
	reqs := a.Requests()
	ci := -1
	for i, r := range reqs {
		if r.Kind == KindCompact {
			if ci >= 0 {
				t.Fatalf("more than one summarisation request reached A's mock")
			}
			ci = i
		}
	}
	if ci < 0 {
		t.Fatal("no summarisation request reached A's mock: /compact was not run")
	}
	// The prep turn came before the compaction and wrote the checkpoint with Write.
	sawWrite := false
	for _, r := range reqs[:ci] {
		if r.Kind == KindToolResult && strings.Contains(bodyText(t, r), ckA) {
			sawWrite = true
		}
	}
	if !sawWrite {
		t.Errorf("no Write tool result for %s before the compaction", ckA)
	}
	for _, r := range reqs[ci+1:] {
		if r.Kind == KindToolResult {
			t.Errorf("a tool ran after the compaction (the mock should have written the checkpoint once)")
		}
	}
	// The first turn after the compaction carries the checkpoint (the restore) and is /postcompact.
	var first *Request
	for i := ci + 1; i < len(reqs); i++ {
		if reqs[i].Kind == KindMain || reqs[i].Kind == KindToolResult {
			first = &reqs[i]
			break
		}
	}
	if first == nil {
		t.Fatal("no request after the compaction: /postcompact was not sent")
	}
	body := bodyText(t, *first)
	for _, want := range []string{hookevent.RestoreHeading, "E2E-GOAL-7731", "postcompact"} {
		if !strings.Contains(body, want) {
			t.Errorf("the first request after the compaction lacks %q", want)
		}
	}
	// B is untouched: no request, no checkpoint, no compaction.
	if n := len(b.Requests()); n != bBefore {
		t.Errorf("B's mock saw %d new requests during A's flow", n-bBefore)
	}
	ckB, _ := checkpoint.Path(state.Dir{Root: stateDir}, idB)
	if _, err := os.Stat(ckB); err == nil {
		t.Errorf("B has a checkpoint after A's flow")
	}

	// 3. compact-flow on B with a mock that writes an invalid checkpoint: /compact is never sent.
	b.MockConfig(map[string]any{"write_checkpoint": map[string]any{
		"path": ckB, "content": "# zoneline checkpoint\nsession: " + idB + "\n\n## Goal\nTODO\n", "trigger": prepTrigger}})
	out, code = zonelineCmd(t, bins, stateDir, 2*flowTimeout, "compact-flow", "-session", idB[:8], "-timeout", flowTimeout.String())
	b.Capture("after-invalid-flow")
	if code == 0 {
		t.Fatalf("compact-flow on B succeeded with an invalid checkpoint:\n%s", out)
	}
	for _, want := range []string{"step 2", "fails checkpoint verify", "nothing more was sent", "the pane shows:"} {
		if !strings.Contains(out, want) {
			t.Errorf("compact-flow's failure lacks %q", want)
		}
	}
	if _, err := os.Stat(ckB); err != nil {
		t.Errorf("B's mock did not write the (invalid) checkpoint: %v", err)
	}
	time.Sleep(3 * time.Second)
	if n := len(b.Requests(KindCompact)); n != 0 {
		t.Fatalf("%d summarisation requests reached B's mock: /compact was sent after a failed verify", n)
	}
	if sc := b.Screen(false); strings.Contains(sc, "/compact ") {
		t.Errorf("B's screen shows a /compact line:\n%s", sc)
	}
	if n := len(a.Requests(KindCompact)); n != 1 {
		t.Errorf("A's mock saw %d summarisation requests, want 1", n)
	}
}
