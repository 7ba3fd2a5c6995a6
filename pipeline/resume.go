package pipeline

import (
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/state"
)

// resumeVerdict returns the resume check's verdict for the status line (hookevent.ReadVerdict:
// the hook's resume.json, which the next prompt removes): statusline.ResumeOnPlan,
// ResumeOffPlan (the same words as hookevent.OnPlan, OffPlan) or "". Only a session that was
// compacted reads it: one small read, else nothing.
func (c *Context) resumeVerdict(s *state.Session) string {
	if s.Compactions == 0 {
		return ""
	}
	_, v := hookevent.ReadVerdict(c.State, s.ID)
	return v
}
