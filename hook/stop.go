package hook

import (
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
)

// stop handles Stop (after every turn): it keeps what the payload says is in flight
// (background_tasks, session_crons) for the next PreCompact snapshot, and runs the resume check
// when one is pending. With nothing in flight and no check pending it costs two failed opens.
// It prints nothing.
func stop(c *Context, h *payload.Hook) (Output, error) {
	if !state.ValidSessionID(h.SessionID) {
		return Output{}, state.ErrBadSession
	}
	err := snapshot.RecordStop(c.State, h.SessionID, &h.InFlight, c.now())
	resumeCheck(c, h)
	return Output{}, err
}
