//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/notify"
)

// Phrases of the two built-in nudges (notify.DefaultNudge, notify.DefaultReadyNudge).
const (
	prepNudgeMark  = "then run /compact-prep to write a checkpoint"
	readyNudgeMark = "A fresh /compact-prep checkpoint is written"
)

// messageStrings returns, in conversation order, every string of a request's messages that
// contains sub.
func messageStrings(t *testing.T, r Request, sub string) []string {
	t.Helper()
	var body struct {
		Messages []any `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, sub) {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, k := range []string{"role", "type", "text", "content"} { // in a fixed order
				if e, ok := x[k]; ok {
					walk(e)
				}
			}
		}
	}
	walk(body.Messages)
	return out
}

// TestSecondCompactionStale is issue 12 item 1 with the real Claude Code: /compact-prep's
// checkpoint, /compact (#1), the context grows again, then a second /compact with no new
// checkpoint. Checked: before #1 the statusline's hint and the nudge both say /compact (the
// checkpoint is fresh); after #1 both say /compact-prep (the checkpoint predates #1); and the
// restore of #2 reaching the mock reports the checkpoint as stale and does not present it as
// ground truth.
func TestSecondCompactionStale(t *testing.T) {
	Require(t)
	bins := Build(t)
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	entry := func(matcher string) []any { return hookEntry(hookCmd, matcher) }
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929", // 200k: prep 120k, auto-compact 167k (not reached)
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": ShellQuote(bins.Zoneline) + " statusline"},
			"hooks": map[string]any{
				"PreCompact":       entry(""),
				"PostCompact":      entry(""),
				"SessionStart":     entry("compact"),
				"UserPromptSubmit": entry(""),
			},
		},
		Env: map[string]string{
			"ZONELINE_STATE_DIR": "{{WORK}}/state",
			"ZONELINE_CONFIG":    "{{WORK}}/no-such-dir/config.toml",
			"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	lastMain := func() Request {
		rs := s.Requests(KindMain)
		if len(rs) == 0 {
			s.Fatalf("no main request")
		}
		return rs[len(rs)-1]
	}
	// newestNudge is the newest zoneline nudge in the last request: which step it names.
	newestNudge := func(step string) string {
		ns := messageStrings(t, lastMain(), "zoneline: this session's context is")
		if len(ns) == 0 {
			t.Fatalf("%s: the request carries no nudge", step)
		}
		n := ns[len(ns)-1]
		switch {
		case strings.Contains(n, prepNudgeMark):
			return string(notify.StepPrep)
		case strings.Contains(n, readyNudgeMark):
			return string(notify.StepCompact)
		}
		t.Fatalf("%s: a nudge naming no step: %q", step, n)
		return ""
	}
	// hint waits for the status line's ⚑ hint and returns the step it names.
	hint := func(step string) string {
		_, plain := statusArea(s, step, func(p string) bool { return strings.Contains(p, "⚑ /compact") })
		t.Logf("%s: status line %q", step, plain)
		switch {
		case strings.Contains(plain, "⚑ /compact-prep"):
			return string(notify.StepPrep)
		case strings.Contains(plain, "⚑ /compact"):
			return string(notify.StepCompact)
		}
		t.Fatalf("%s: no ⚑ hint on the status line: %q", step, plain)
		return ""
	}

	s.MockUsage(Context(20_000))
	s.Prompt("turn one about the login loop")
	id := sessionID(t, s)

	// /compact-prep, played by the test: the checkpoint where `zoneline checkpoint path` says.
	env := append(os.Environ(), "CLAUDE_CODE_SESSION_ID="+id, "ZONELINE_STATE_DIR="+s.Work+"/state", "ZONELINE_CONFIG="+s.Work+"/no-such-dir/config.toml")
	cmd := exec.Command(bins.Zoneline, "checkpoint", "path")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zoneline checkpoint path: %v", err)
	}
	ck := goodCheckpointE2E(t, id, s.Proj)
	if err := os.WriteFile(strings.TrimSpace(string(out)), []byte(ck), 0o600); err != nil {
		t.Fatal(err)
	}

	// Past the prep threshold with a fresh checkpoint: both say /compact.
	s.MockUsage(Context(125_000))
	s.Prompt("turn two")
	h1 := hint("fresh")
	s.MockUsage(Context(126_000))
	s.Prompt("turn three")
	if n1 := newestNudge("fresh"); h1 != string(notify.StepCompact) || n1 != h1 {
		t.Errorf("with a fresh checkpoint: hint %s, nudge %s; want both /compact", h1, n1)
	}

	// Compaction #1 restores the checkpoint as ground truth.
	nCompact := len(s.Requests(KindCompact))
	s.Command("/compact")
	compact1 := s.Requests(KindCompact)[nCompact].T
	s.MockUsage(Context(30_000))
	s.Prompt("turn four after the first compaction")
	var restore1 []string
	for _, r := range s.Requests(KindMain) {
		if r.T > compact1 {
			restore1 = messageStrings(t, r, hookevent.RestoreHeading+" #1")
			break
		}
	}
	if len(restore1) == 0 || !strings.Contains(restore1[0], hookevent.RecoveryInstructions) || !strings.Contains(restore1[0], "E2E-GOAL-7731") {
		t.Fatalf("compaction #1 did not restore the fresh checkpoint: %q", restore1)
	}

	// The context grows past the prep threshold again; the checkpoint predates #1: both say
	// /compact-prep (the issue saw "⚑ /compact" beside a nudge to run /compact-prep).
	s.MockUsage(Context(125_000))
	s.Prompt("turn five")
	h2 := hint("after-1")
	s.MockUsage(Context(126_000))
	s.Prompt("turn six")
	if n2 := newestNudge("after-1"); h2 != string(notify.StepPrep) || n2 != h2 {
		t.Errorf("after compaction #1 with the pre-#1 checkpoint: hint %s, nudge %s; want both /compact-prep", h2, n2)
	}

	// Compaction #2, no new checkpoint.
	nCompact = len(s.Requests(KindCompact))
	s.Command("/compact")
	compact2 := s.Requests(KindCompact)[nCompact].T
	s.MockUsage(Context(30_000))
	s.Prompt("turn seven after the second compaction")
	var restore2 []string
	for _, r := range s.Requests(KindMain) {
		if r.T > compact2 {
			restore2 = messageStrings(t, r, hookevent.RestoreHeading+" #2")
			break
		}
	}
	if len(restore2) != 1 {
		t.Fatalf("the first request after compaction #2 carries %d restores of #2, want 1", len(restore2))
	}
	r2 := restore2[0]
	t.Logf("restore #2: %s", r2)
	for _, bad := range []string{hookevent.RecoveryInstructions, "ground truth you wrote", "E2E-GOAL-7731", "<checkpoint "} {
		if strings.Contains(r2, bad) {
			t.Errorf("the restore of #2 presents the pre-#1 checkpoint as truth (%q)", bad)
		}
	}
	for _, want := range []string{"STALE CHECKPOINT", "before compaction #1"} {
		if !strings.Contains(r2, want) {
			t.Errorf("the restore of #2 lacks %q", want)
		}
	}
}
