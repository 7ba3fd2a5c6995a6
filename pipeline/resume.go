package pipeline

import (
	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
)

// resumeVerdict returns the resume check's verdict for the status line (the hook's
// resume.json, which the next prompt removes): statusline.ResumeOnPlan, ResumeOffPlan or "".
// Only a session that was compacted reads it: one small read, else nothing.
func (c *Context) resumeVerdict(s *state.Session) string {
	if s.Compactions == 0 {
		return ""
	}
	path, err := c.State.SessionFile(s.ID, hookevent.ResumeFile)
	if err != nil {
		return ""
	}
	data, err := state.ReadFile(path, 4096)
	if err != nil {
		return ""
	}
	var v string
	jsonscan.DecodeFields(data, &v, verdictFields[:])
	switch v {
	case hookevent.OnPlan:
		return statusline.ResumeOnPlan
	case hookevent.OffPlan:
		return statusline.ResumeOffPlan
	}
	return ""
}

// verdictFields is the part of resume.json the line shows (jsonscan.Field).
var verdictFields = [...]jsonscan.Field[string]{{Key: "verdict", Read: func(s *jsonscan.Scanner, v *string) error { return s.String(v) }}}
