package hookevent

import (
	"errors"

	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
)

// stop handles Stop (after every turn): it keeps what the payload says is in flight
// (background_tasks, session_crons) for the next PreCompact snapshot, runs the resume check
// when one is pending, and runs the warning loop (Context.Warn: the same tiers, markers,
// notification and pending nudge as a statusline render, so warnings work whatever draws the
// status line, or when none is drawn). With nothing in flight and no check pending the first
// two cost two failed opens. It prints nothing: Stop's stdout could block the end of the turn
// ({"decision":"block"}), so zoneline never answers it.
func stop(c *Context, h *payload.Hook) (Output, error) {
	if !state.ValidSessionID(h.SessionID) {
		return Output{}, state.ErrBadSession
	}
	err := snapshot.RecordStop(c.State, h.SessionID, &h.InFlight, c.now())
	resumeCheck(c, h)
	if c.Warn != nil {
		err = errors.Join(err, c.Warn(h))
	}
	return Output{}, err
}
