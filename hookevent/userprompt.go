package hookevent

import (
	"strings"
	"time"

	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

// userPromptSubmit puts what the agent must know before this prompt into its context: the
// restore after a compaction (restore.go) and the nudge to /compact-prep (nudge). With neither
// it prints nothing; with no nudge pending the nudge costs one stat.
func userPromptSubmit(c *Context, h *payload.Hook) (Output, error) {
	if state.ValidSessionID(h.SessionID) { // for watch: a prompt newer than the last render is mid-turn
		if err := sessions.RecordPrompt(c.State, h.SessionID, h.PromptID, c.now()); err != nil {
			c.State.Log("hook", "UserPromptSubmit: recording the prompt: %v", err)
		}
		clearVerdict(c.State, h.SessionID) // the resume verdict shows until the next prompt (resume.go)
	}
	var parts []string
	if s := restoreText(c, h); s != "" {
		parts = append(parts, s)
	}
	if s, ok := nudge(c, h); ok {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return Output{}, nil
	}
	return AdditionalContext("UserPromptSubmit", strings.Join(parts, "\n\n")), nil
}

// restoreText is the restore-after-compaction part of the UserPromptSubmit answer (restore.go);
// a variable so that a test can stand in for it.
var restoreText = pendingRestore

// nudge returns the /compact-prep nudge when a marker of this session waits undelivered, and
// marks it delivered (exactly once, whatever races). A prompt that is itself /compact,
// /compact-prep or a request for a checkpoint consumes the nudge without showing it.
func nudge(c *Context, h *payload.Hook) (string, bool) {
	cfg := c.cfg()
	if !cfg.Warning.Nudge || !state.ValidSessionID(h.SessionID) {
		return "", false
	}
	m, err := notify.TakeNudge(c.State, h.SessionID)
	if err != nil {
		c.State.Log("hook", "UserPromptSubmit: nudge: %v", err)
	}
	if m == nil {
		return "", false
	}
	if notify.Skip(h.Prompt) {
		c.State.Info("hook", "UserPromptSubmit: nudge (%s) consumed: the prompt already asks for it", m.Tier)
		return "", false
	}
	// The step the statusline's ⚑ hint names too (notify.NextStep).
	step := notify.NextStep(c.State, h.SessionID, c.now(), time.Duration(cfg.Checkpoint.StaleMinutes)*time.Minute)
	return notify.Text(cfg.Warning.NudgeText, m, step), true
}
