package hookevent

import (
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
)

// sessionStart handles SessionStart. With source "compact" (after the summary, before
// PostCompact) it puts the restore into the model's context and records that compaction
// Count+1 was delivered, so neither PostCompact nor UserPromptSubmit delivers it again. Other
// sources get no output.
func sessionStart(c *Context, h *payload.Hook) (Output, error) {
	if h.Source == "startup" {
		collectGarbage(c) // gc.go: at most once a day
	}
	if h.Source != "compact" || !state.ValidSessionID(h.SessionID) {
		return Output{}, nil
	}
	// Build the text before recording the delivery, so a deadline cannot fall between the
	// record and the print (which would lose the restore: PostCompact would see it delivered).
	built := 0
	text := ""
	if cs, err := loadCompactions(c.State, h.SessionID); err == nil {
		built = cs.Count + 1
		text = buildRestore(c, h.SessionID, restoreNumber(c, h.SessionID, built), "", c.now(), nil)
	}
	var n int
	twin := false
	_, err := updateCompactions(c.State, h.SessionID, func(cs *compactions) bool {
		n = cs.Count + 1
		// Registered twice (the plugin's hooks and settings.json's both run): the first of the
		// two delivers, the twin prints nothing.
		if h.PromptID != "" && cs.DeliveredPrompt == h.PromptID && cs.Delivered == n {
			twin = true
			return false
		}
		cs.Delivered, cs.DeliveredPrompt = n, h.PromptID
		if cs.Pending != 0 && cs.Pending <= n {
			cs.Pending = 0
		}
		return true
	})
	if twin {
		c.State.Info("hook", "SessionStart: restore for compaction %d already delivered by a twin entry", n)
		return Output{}, nil
	}
	if err != nil {
		// Deliver anyway (a duplicate from UserPromptSubmit is better than no restore), but fail
		// closed: with the compaction state not recorded, no checkpoint is known to follow the
		// last compaction, so none is presented as ground truth.
		c.State.Log("hook", "SessionStart: recording the restore: %v", err)
		n = max(built, 1)
		if cs, lerr := loadCompactions(c.State, h.SessionID); lerr == nil {
			n = cs.Count + 1
		}
		text = buildRestore(c, h.SessionID, restoreNumber(c, h.SessionID, n), "", c.now(), err)
	} else if n != built { // the state moved between the read and the update (or could not be read)
		text = buildRestore(c, h.SessionID, restoreNumber(c, h.SessionID, n), "", c.now(), nil)
	}
	armResume(c, h, n, text, false) // resume.go: also removes an older compaction's check
	if text == "" {
		return Output{}, nil
	}
	return AdditionalContext("SessionStart", text), nil
}
