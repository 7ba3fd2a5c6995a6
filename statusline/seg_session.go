package statusline

import "strconv"

// costSegment shows the session's cost, "$1.23". Hidden when the payload has no cost or a
// nonsense one (negative, NaN, over maxUSD).
type costSegment struct{}

func (costSegment) enabled(c *ctx) bool {
	m := c.v.Payload.Cost
	return m != nil && sane(float64(m.USD), maxUSD)
}

func (costSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: string(appendUSD(c.num[:0], float64(c.v.Payload.Cost.USD)))})
}

// durationSegment shows the session's wall time, "12m", "1h05m". Hidden at zero.
type durationSegment struct{}

func (durationSegment) enabled(c *ctx) bool {
	m := c.v.Payload.Cost
	return m != nil && m.DurationMS >= 1000 && m.DurationMS <= maxDurationMS
}

func (durationSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: string(appendCountdown(c.num[:0], int64(c.v.Payload.Cost.DurationMS)/1000)), style: styleDim})
}

// linesSegment shows the lines changed this session, "+120 −37" ("+120 -37" in ascii), the
// added in the smart colour and the removed in the dumb one. Hidden while both are zero.
type linesSegment struct{}

func (linesSegment) enabled(c *ctx) bool {
	m := c.v.Payload.Cost
	return m != nil && (m.LinesAdded > 0 || m.LinesRemoved > 0) && m.LinesAdded <= maxLines && m.LinesRemoved <= maxLines
}

func (linesSegment) render(c *ctx, dst []span) []span {
	m := c.v.Payload.Cost
	add := strconv.AppendInt(append(c.num[:0], '+'), max(int64(m.LinesAdded), 0), 10)
	minus := "−"
	if isASCII(c) {
		minus = "-"
	}
	var b []byte
	b = strconv.AppendInt(append(append(b, ' '), minus...), max(int64(m.LinesRemoved), 0), 10)
	return append(dst, span{text: string(add), style: styleSmart}, span{text: string(b)})
}

// effortSegment shows the reasoning effort, "effort high".
type effortSegment struct{}

func (effortSegment) enabled(c *ctx) bool { e := c.v.Payload.Effort; return e != nil && e.Level != "" }

func (effortSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "effort ", style: styleDim}, span{text: label(c.v.Payload.Effort.Level)})
}

// styleSegment shows a non-default output style, "style Explanatory".
type styleSegment struct{}

func (styleSegment) enabled(c *ctx) bool {
	s := c.v.Payload.OutputStyle
	return s != nil && s.Name != "" && s.Name != "default"
}

func (styleSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "style ", style: styleDim}, span{text: label(c.v.Payload.OutputStyle.Name)})
}

// vimSegment shows the vim mode when vim mode is on: "NORMAL" (INSERT dimmed, the usual state).
type vimSegment struct{}

func (vimSegment) enabled(c *ctx) bool { v := c.v.Payload.Vim; return v != nil && v.Mode != "" }

func (vimSegment) render(c *ctx, dst []span) []span {
	m := c.v.Payload.Vim.Mode
	st := styleHint
	if m == "INSERT" {
		st = styleDim
	}
	return append(dst, span{text: label(m), style: st})
}

// fastSegment shows "fast" while fast mode is on.
type fastSegment struct{}

func (fastSegment) enabled(c *ctx) bool { return isTrue(c.v.Payload.FastMode) }

func (fastSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "fast", style: styleWarn})
}

// thinkingSegment shows "thinking" while extended thinking is on.
type thinkingSegment struct{}

func (thinkingSegment) enabled(c *ctx) bool {
	t := c.v.Payload.Thinking
	return t != nil && isTrue(t.Enabled)
}

func (thinkingSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "thinking", style: styleDim})
}

// isTrue reports whether an optional flag of the payload is there and true.
func isTrue(b *bool) bool { return b != nil && *b }
