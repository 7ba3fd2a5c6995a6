package statusline

// Resume verdicts of View.Resume.
const (
	ResumeOnPlan  = "on"
	ResumeOffPlan = "off"
)

// resumeSegment shows whether the agent resumed the checkpoint's Next after the last restore:
// "on plan" in the smart colour, "OFF PLAN" in the dumb colour, until the next prompt.
type resumeSegment struct{}

func (resumeSegment) enabled(c *ctx) bool {
	return c.v.Resume == ResumeOnPlan || c.v.Resume == ResumeOffPlan
}

func (resumeSegment) render(c *ctx, dst []span) []span {
	if c.v.Resume == ResumeOnPlan {
		return append(dst, span{text: "on plan", style: styleSmart})
	}
	return append(dst, span{text: "OFF PLAN", style: styleDumb})
}
