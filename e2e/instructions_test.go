//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
)

// instrSkillTrigger is in the body of the skill the instruction tests load by its slash command:
// the mock answers the turn that carries it with the scripted git push.
const instrSkillTrigger = "E2E-RELEASE-TRAIN"

// instrNext is the Next of the checkpoint the instruction tests write.
const instrNext = "- Action: edit auth/session.go, then run `go test ./auth`\n- Expected: TestRedirect passes"

// instrBranch is the branch the session pushes.
const instrBranch = "feat/e2e-instr"

// instructionsSession runs Claude Code with zoneline's hooks, a user skill "release-train", and a
// project that is a git repository on instrBranch with a local bare repository as origin (so the
// push the mock asks for really runs, offline). env and mockArgs go to Start.
func instructionsSession(t *testing.T, env map[string]string, mockArgs ...string) (*Session, Binaries) {
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
		Model: modSonnet,
		Settings: map[string]any{
			"permissions": map[string]any{"allow": []string{"Bash(git push:*)", "Bash(git status:*)"}},
			"hooks": map[string]any{
				"PreCompact":       entry(""),
				"PostCompact":      entry(""),
				"SessionStart":     entry("compact"),
				"UserPromptSubmit": entry(""),
			},
		},
		Env:        allEnv,
		MockArgs:   mockArgs,
		ClaudeArgs: []string{"--permission-mode", "default"},
		BeforeLaunch: func(s *Session) {
			skill := filepath.Join(s.Home, ".claude", "skills", "release-train", "SKILL.md")
			if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
				t.Fatal(err)
			}
			body := "---\nname: release-train\ndescription: Push the branch and open the PR, in order.\n---\n\n# Release train\n\n" +
				instrSkillTrigger + ": push the branch first, then open the PR; never push to main.\n"
			if err := os.WriteFile(skill, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			origin := filepath.Join(s.Work, "origin.git")
			git := func(dir string, args ...string) {
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
					"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+s.Home)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			git(s.Work, "init", "-q", "--bare", origin)
			git(s.Proj, "init", "-q", "-b", "main")
			if err := os.WriteFile(filepath.Join(s.Proj, "README"), []byte("e2e\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(s.Proj, "add", "README")
			git(s.Proj, "commit", "-q", "-m", "first")
			git(s.Proj, "remote", "add", "origin", origin)
			git(s.Proj, "checkout", "-q", "-b", instrBranch)
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.MockConfig(map[string]any{"tool_script": []any{map[string]any{
		"trigger": instrSkillTrigger,
		"tools": []any{map[string]any{"name": "Bash", "input": map[string]any{
			"command": "git push -u origin " + instrBranch, "description": "Push the branch"}}},
	}}})
	return s, bins
}

// loadSkillAndPush loads the skill through its slash command (the mock answers that turn with
// the push), waits for the push's result to reach the mock, and checks the branch is on origin.
func loadSkillAndPush(t *testing.T, s *Session) {
	t.Helper()
	n := len(s.Requests(KindToolResult))
	s.CommandExpect("/release-train", KindMain)
	deadline := time.Now().Add(CompactTimeout)
	for len(s.Requests(KindToolResult)) == n && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	rs := s.Requests(KindToolResult)
	if len(rs) == n {
		t.Fatal("the push's result never reached the mock")
	}
	t.Logf("push result: %q", lastToolResult(t, rs[len(rs)-1]))
	s.WaitIdle(s.opts.Timeout)
	out, err := exec.Command("git", "--git-dir", filepath.Join(s.Work, "origin.git"), "branch", "--list", instrBranch).CombinedOutput()
	if err != nil || !strings.Contains(string(out), instrBranch) {
		t.Fatalf("the branch is not on origin after the push (%v): %q", err, out)
	}
}

// additional returns what follows "Additional Instructions:" in the compaction request,
// up to Claude Code's reminder.
func additional(t *testing.T, r Request) string {
	t.Helper()
	body := bodyText(t, r)
	i := strings.Index(body, "Additional Instructions:")
	if i < 0 {
		t.Fatalf("the summarisation request has no \"Additional Instructions:\"")
	}
	add := body[i+len("Additional Instructions:"):]
	if j := strings.Index(add, "REMINDER:"); j >= 0 {
		add = add[:j]
	}
	return add
}

// checkInstructions: the compaction request's additional instructions carry zoneline's
// instructions once, naming the skill, the branch pushed and the checkpoint's Next, and no
// status text.
func checkInstructions(t *testing.T, add string, wantNext bool) {
	t.Helper()
	t.Logf("Additional Instructions:%s", add)
	if n := strings.Count(add, hookevent.InstructionsHead); n != 1 {
		t.Errorf("zoneline's instructions appear %d times, want once", n)
	}
	wants := []string{"release-train", "pushed " + instrBranch}
	if wantNext {
		wants = append(wants, "Keep verbatim the checkpoint's Next as the next step: "+strings.ReplaceAll(instrNext, "\n", " "))
	}
	for _, w := range wants {
		if !strings.Contains(add, w) {
			t.Errorf("the additional instructions lack %q", w)
		}
	}
	if strings.Contains(add, "snapshot saved") {
		t.Errorf("the additional instructions carry the old status line")
	}
}

// TestPreCompactInstructionsManual: a session loads a skill through its slash command, runs the
// push the mock asks for, has a fresh checkpoint, then /compact: the summarisation request's
// "Additional Instructions" are zoneline's, naming the skill, the branch and the checkpoint's
// Next; the user sees them under /compact.
func TestPreCompactInstructionsManual(t *testing.T) {
	s, bins := instructionsSession(t, nil)
	s.Prompt("first prompt: ship the branch")
	loadSkillAndPush(t, s)
	writeCheckpointE2E(t, s, bins, instrNext)
	n := len(s.Requests(KindCompact))
	screen := s.Command("/compact")
	cs := s.Requests(KindCompact)
	if len(cs) != n+1 {
		t.Fatalf("%d summarisation requests, want %d", len(cs), n+1)
	}
	checkInstructions(t, additional(t, cs[n]), true)
	if !strings.Contains(strings.Join(strings.Fields(screen), " "), "completed successfully: zoneline's instructions for this summary") {
		t.Errorf("the screen does not show the instructions under /compact:\n%s", screen)
	}
}

// TestPreCompactInstructionsFocus: with "/compact focus on X" both the user's words and
// zoneline's instructions reach the summarisation request.
func TestPreCompactInstructionsFocus(t *testing.T) {
	s, bins := instructionsSession(t, nil)
	s.Prompt("first prompt: ship the branch")
	loadSkillAndPush(t, s)
	writeCheckpointE2E(t, s, bins, instrNext)
	n := len(s.Requests(KindCompact))
	s.Command("/compact focus on the E2E-FOCUS-4417 cookie path")
	cs := s.Requests(KindCompact)
	if len(cs) != n+1 {
		t.Fatalf("%d summarisation requests, want %d", len(cs), n+1)
	}
	add := additional(t, cs[n])
	checkInstructions(t, add, true)
	words := strings.Index(add, "focus on the E2E-FOCUS-4417 cookie path")
	if words < 0 {
		t.Fatalf("the user's words are not in the additional instructions")
	}
	if words > strings.Index(add, hookevent.InstructionsHead) {
		t.Errorf("the user's words come after zoneline's instructions, want them first")
	}
}

// TestPreCompactInstructionsAuto: the same session compacted automatically (80% of a 200k
// window; the mock climbs 40k a turn): the automatic compaction's request carries zoneline's
// instructions too.
func TestPreCompactInstructionsAuto(t *testing.T) {
	s, bins := instructionsSession(t, map[string]string{
		"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "80",
		"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "200000",
	}, "--base=20000", "--step=40000")
	s.Prompt("first prompt: ship the branch")
	loadSkillAndPush(t, s)
	writeCheckpointE2E(t, s, bins, instrNext)
	for i := 1; i <= 6 && len(s.Requests(KindCompact)) == 0; i++ {
		s.Prompt("prompt number " + string(rune('0'+i)))
	}
	cs := s.Requests(KindCompact)
	if len(cs) == 0 {
		t.Fatal("no automatic compaction after six more prompts")
	}
	checkInstructions(t, additional(t, cs[0]), true)
	if _, snap, err := snapshot.Latest(state.Dir{Root: filepath.Join(s.Work, "state")}, sessionID(t, s)); err != nil || snap.Trigger != "auto" {
		t.Errorf("the compaction was not automatic: PreCompact's snapshot %v, %v", snap, err)
	}
}
