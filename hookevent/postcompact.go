package hookevent

import (
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
)

// postCompact records the compaction in compactions.json (count, time, trigger, summary
// length) and sets "restore pending" unless SessionStart(compact) already delivered the
// restore for it; then it re-arms the warning loop. PostCompact cannot put anything into the
// model's context, and prints nothing.
func postCompact(c *Context, h *payload.Hook) (Output, error) {
	// zoneline install registers SessionStart for "compact" only, so the daily garbage
	// collection also runs here (a stamp check: one stat on all other days).
	collectGarbage(c)
	if !state.ValidSessionID(h.SessionID) {
		return Output{}, state.ErrBadSession
	}
	_, err := updateCompactions(c.State, h.SessionID, func(cs *compactions) bool {
		// Registered twice (the plugin's hooks and settings.json's both run): counted once.
		if isTwin(cs, h, c.now()) {
			return false
		}
		cs.Count++
		n := cs.Count
		rec := compactionRecord{N: n, Time: c.now().UTC(), Trigger: h.Trigger,
			SummaryChars: utf8.RuneCountInString(h.CompactSummary), PromptID: h.PromptID}
		if cs.Delivered >= n || (h.PromptID != "" && cs.DeliveredPrompt == h.PromptID) {
			rec.Restore = "session_start"
			cs.Delivered = max(cs.Delivered, n)
			cs.Pending = 0
		} else {
			cs.Pending = n
		}
		cs.Records = append(cs.Records, rec)
		return true
	})
	if rerr := notify.Rearm(c.State, h.SessionID); rerr != nil {
		c.State.Log("hook", "PostCompact: re-arming the warnings: %v", rerr)
	}
	return Output{}, err
}

// twinWindow is how close in time two PostCompacts of one compaction run (they run together).
const twinWindow = time.Minute

// isTwin reports whether h is a second PostCompact for the compaction last recorded: the same
// prompt_id, the same summary length, moments apart. (Two real compactions in one long turn
// share a prompt_id, but not their summary, nor the minute.)
func isTwin(cs *compactions, h *payload.Hook, now time.Time) bool {
	last := len(cs.Records) - 1
	if h.PromptID == "" || last < 0 {
		return false
	}
	r := cs.Records[last]
	d := now.Sub(r.Time)
	return r.PromptID == h.PromptID && r.SummaryChars == utf8.RuneCountInString(h.CompactSummary) && d >= -twinWindow && d <= twinWindow
}
