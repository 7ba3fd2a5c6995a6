package statusline

import "strconv"

// costSegment shows the session's cost, "$1.23". Hidden when the payload has no cost or a
// nonsense one (negative, NaN, over maxUSD).
type costSegment struct{}

func (costSegment) enabled(c *ctx) bool {
	m := c.v.Facts.Cost
	return m.Known && sane(m.USD, maxUSD)
}

func (costSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: string(appendUSD(c.num[:0], c.v.Facts.Cost.USD))})
}

// durationSegment shows the session's wall time, "12m", "1h05m". Hidden at zero.
type durationSegment struct{}

func (durationSegment) enabled(c *ctx) bool {
	d := c.v.Facts.DurationMS
	return d >= 1000 && d <= maxDurationMS
}

func (durationSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: string(appendCountdown(c.num[:0], c.v.Facts.DurationMS/1000)), style: styleDim})
}

// linesSegment shows the lines changed this session, "+120 −37" ("+120 -37" in ascii), the
// added in the smart colour and the removed in the dumb one. Hidden while both are zero.
type linesSegment struct{}

func (linesSegment) enabled(c *ctx) bool {
	f := &c.v.Facts
	return f.LinesKnown && (f.LinesAdded > 0 || f.LinesDrop > 0) && f.LinesAdded <= maxLines && f.LinesDrop <= maxLines
}

func (linesSegment) render(c *ctx, dst []span) []span {
	f := &c.v.Facts
	add := strconv.AppendInt(append(c.num[:0], '+'), max(f.LinesAdded, 0), 10)
	minus := "−"
	if isASCII(c) {
		minus = "-"
	}
	var b []byte
	b = strconv.AppendInt(append(append(b, ' '), minus...), max(f.LinesDrop, 0), 10)
	return append(dst, span{text: string(add), style: styleSmart}, span{text: string(b)})
}

// effortSegment shows the reasoning effort, "effort high".
type effortSegment struct{}

func (effortSegment) enabled(c *ctx) bool { return c.v.Facts.Effort != "" }

func (effortSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "effort ", style: styleDim}, span{text: label(c.v.Facts.Effort)})
}

// styleSegment shows a non-default output style, "style Explanatory".
type styleSegment struct{}

func (styleSegment) enabled(c *ctx) bool {
	s := c.v.Facts.Style
	return s != "" && s != "default"
}

func (styleSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "style ", style: styleDim}, span{text: label(c.v.Facts.Style)})
}

// vimSegment shows the vim mode when vim mode is on: "NORMAL" (INSERT dimmed, the usual state).
type vimSegment struct{}

func (vimSegment) enabled(c *ctx) bool { return c.v.Facts.Vim != "" }

func (vimSegment) render(c *ctx, dst []span) []span {
	m := c.v.Facts.Vim
	st := styleHint
	if m == "INSERT" {
		st = styleDim
	}
	return append(dst, span{text: label(m), style: st})
}

// fastSegment shows "fast" while fast mode is on.
type fastSegment struct{}

func (fastSegment) enabled(c *ctx) bool { return c.v.Facts.Fast }

func (fastSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "fast", style: styleWarn})
}

// thinkingSegment shows "thinking" while extended thinking is on.
type thinkingSegment struct{}

func (thinkingSegment) enabled(c *ctx) bool { return c.v.Facts.Thinking }

func (thinkingSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "thinking", style: styleDim})
}
