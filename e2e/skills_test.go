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
)

// skillCommandRE finds the commands an installed skill tells the agent to run.
var skillCommandRE = regexp.MustCompile("`([^`\n]* checkpoint (?:path|template|verify))`")

// TestSkillsWithoutPath installs zoneline (`zoneline install`) from a folder with a space in
// its name that is not on the PATH Claude Code gets, then runs /compact-prep in a real Claude
// Code session (Sonnet 4.5, permission mode "default", nothing allowed in settings): the mock
// plays the agent and runs exactly the commands the installed skill names — checkpoint path,
// template, the Write of the checkpoint, verify. Each must run (no "not found", no permission
// prompt: the skill's allowed-tools pattern must match its own commands), and the checkpoint
// must be written where `checkpoint path` says and pass verify.
//
// How 2.1.332 matches the pattern (tried here by hand, 2026-12-01): with the installed skill's
// Bash('<dir with a space>/zoneline' checkpoint:*) every step ran unasked; with the pattern
// taken out, the first step stopped at "This command requires approval", offering the rule
// "<dir with a space>/zoneline checkpoint *" (it matches the parsed words, quotes undone); with
// the old skill (bare `zoneline checkpoint …`) each step failed with "zoneline: command not
// found" (exit 127).
func TestSkillsWithoutPath(t *testing.T) {
	Require(t)
	bins := Build(t)
	const path = "/usr/local/bin:/usr/bin:/bin"
	if p, err := lookIn("zoneline", path); err == nil {
		t.Fatalf("zoneline is on %s (%s): the test needs a PATH without it", path, p)
	}
	var zl, stateDir string
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		Env: map[string]string{
			"PATH":               path,
			"ZONELINE_STATE_DIR": "{{WORK}}/state",
			"ZONELINE_CONFIG":    "{{WORK}}/config/zoneline.toml",
			"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
		},
		BeforeLaunch: func(s *Session) {
			stateDir = filepath.Join(s.Work, "state")
			zl = filepath.Join(s.Work, "zoneline bin", "zoneline")
			if err := os.MkdirAll(filepath.Dir(zl), 0o755); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(bins.Zoneline)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(zl, data, 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(zl, "install")
			cmd.Env = []string{"PATH=" + path, "HOME=" + s.Home, "ZONELINE_STATE_DIR=" + stateDir,
				"ZONELINE_CONFIG=" + filepath.Join(s.Work, "config", "zoneline.toml")}
			out, err := cmd.CombinedOutput()
			t.Logf("zoneline install:\n%s", out)
			if err != nil {
				t.Fatalf("zoneline install: %v", err)
			}
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	skill, err := os.ReadFile(filepath.Join(s.Home, ".claude", "skills", "compact-prep", "SKILL.md"))
	if err != nil {
		t.Fatalf("the /compact-prep skill is not installed: %v", err)
	}
	var cmds []string
	for _, m := range skillCommandRE.FindAllStringSubmatch(string(skill), -1) {
		if !strings.Contains(strings.Join(cmds, "\n"), m[1]) {
			cmds = append(cmds, m[1])
		}
	}
	if len(cmds) != 3 || !strings.HasPrefix(cmds[0], "'"+zl+"' checkpoint path") {
		t.Fatalf("the installed skill's commands are %q, want path, template and verify run by '%s'", cmds, zl)
	}

	s.MockUsage(Context(30_000))
	s.Prompt("hello before the checkpoint")
	id := sessionID(t, s)
	ckPath := filepath.Join(stateDir, "sessions", id, "checkpoint.md")
	ck := goodCheckpointE2E(t, id, s.Proj)
	steps := []map[string]any{
		{"name": "Bash", "input": map[string]any{"command": cmds[0], "description": "Print the checkpoint path"}},
		{"name": "Bash", "input": map[string]any{"command": cmds[1], "description": "Print the checkpoint skeleton"}},
		{"name": "Write", "input": map[string]any{"file_path": ckPath, "content": ck}},
		{"name": "Bash", "input": map[string]any{"command": cmds[2], "description": "Verify the checkpoint"}},
	}
	s.MockConfig(map[string]any{"script": map[string]any{
		"trigger": prepTrigger, "steps": steps, "final": "E2E-PREP-DONE: the checkpoint is written and verified.",
	}})
	before := len(s.Requests(KindToolResult))
	s.CommandExpect("/compact-prep", KindMain)
	s.WaitScreen(regexp.MustCompile(`E2E-PREP-DONE`), CompactTimeout)

	results := s.Requests(KindToolResult)[before:]
	if len(results) != len(steps) {
		t.Fatalf("%d tool results reached the mock, want %d (one per step)", len(results), len(steps))
	}
	outs := make([]string, len(results))
	for i, r := range results {
		outs[i] = lastToolResult(t, r)
		t.Logf("step %d result: %q", i+1, outs[i])
		if strings.Contains(outs[i], "not found") || strings.Contains(outs[i], "No such file") || strings.Contains(strings.ToLower(outs[i]), "permission") {
			t.Errorf("step %d (%v) failed: %q", i+1, steps[i]["input"], outs[i])
		}
	}
	if !strings.Contains(outs[0], ckPath) {
		t.Errorf("`checkpoint path` printed %q, want %s", outs[0], ckPath)
	}
	if !strings.Contains(outs[1], "## Goal") || !strings.Contains(outs[1], id) {
		t.Errorf("`checkpoint template` printed no skeleton for this session: %q", outs[1])
	}
	if !strings.Contains(outs[3], "checkpoint OK") {
		t.Errorf("`checkpoint verify` printed %q, want checkpoint OK", outs[3])
	}
	if got, err := os.ReadFile(ckPath); err != nil || string(got) != ck {
		t.Errorf("the checkpoint at %s is not the one written (%v)", ckPath, err)
	}
	verify := exec.Command(zl, "checkpoint", "verify")
	verify.Env = []string{"PATH=" + path, "HOME=" + s.Home, "ZONELINE_STATE_DIR=" + stateDir, "CLAUDE_CODE_SESSION_ID=" + id}
	if out, err := verify.CombinedOutput(); err != nil {
		t.Errorf("zoneline checkpoint verify: %v\n%s", err, out)
	}

}

// lastToolResult returns the text of the tool_result in the request's last message.
func lastToolResult(t *testing.T, r Request) string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	for i := len(body.Messages) - 1; i >= 0; i-- {
		m := body.Messages[i]
		if m.Role != "user" {
			continue
		}
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type != "tool_result" {
				continue
			}
			var s string
			if json.Unmarshal(b.Content, &s) == nil {
				return s
			}
			var parts []struct {
				Text string `json:"text"`
			}
			json.Unmarshal(b.Content, &parts)
			var out []string
			for _, p := range parts {
				out = append(out, p.Text)
			}
			return strings.Join(out, "\n")
		}
		return ""
	}
	return ""
}

// lookIn finds name in the PATH value given.
func lookIn(name, path string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		if p, err := exec.LookPath(filepath.Join(d, name)); err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
