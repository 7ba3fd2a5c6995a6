package hook

import (
	"unicode/utf8"

	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
)

var _ = register("PostCompact", postCompact)

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
