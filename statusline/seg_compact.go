package statusline

import "github.com/zoneline/zoneline/zones"

// compactSegment shows the distance to Claude Code's auto-compact point: "~25k to compact"
// ("~" when the point is an estimate), "compact due" once the tokens reach it, "auto-compact
// off" when it is disabled. It turns the warn colour within CompactNear tokens of the point and
// the dumb colour within CompactImminent or past it. A zero Compact (no Source: the caller did
// not compute one) shows nothing.
type compactSegment struct{}

func (compactSegment) enabled(c *ctx) bool {
	cp := c.v.Compact
	if !cp.Enabled {
		return cp.Source != ""
	}
	return cp.Point > 0 && c.v.Zone != zones.Unknown
}

func (compactSegment) render(c *ctx, dst []span) []span {
	cp := c.v.Compact
	if !cp.Enabled {
		return append(dst, span{text: "auto-compact off", style: styleDim})
	}
	left := cp.Point - c.v.Tokens
	if left <= 0 {
		return append(dst, span{text: "compact due", style: styleDumb})
	}
	b := c.num[:0]
	if cp.Estimate {
		b = append(b, c.g.approx...)
	}
	b = appendTokens(b, left)
	b = append(b, " to compact"...)
	st := stylePlain
	switch {
	case left <= CompactImminent:
		st = styleDumb
	case left <= CompactNear:
		st = styleWarn
	}
	return append(dst, span{text: string(b), style: st})
}
