package statusline

import (
	"strconv"

	"github.com/zoneline/zoneline/zones"
)

// tokensSegment shows "142k/200k" (or "142k" with no window) in the zone's colour.
type tokensSegment struct{}

func (tokensSegment) enabled(c *ctx) bool { return c.v.Zone != zones.Unknown }

func (tokensSegment) render(c *ctx, dst []span) []span {
	b := appendTokens(c.num[:0], c.v.Tokens)
	if c.v.Window > 0 {
		b = append(b, '/')
		b = appendTokens(b, c.v.Window)
	}
	return append(dst, span{text: string(b), style: zoneStyle(c.v.Zone)})
}

// barSegment is a gauge of tokens over the window, BarWidth cells: the filled part in the
// zone's colour, the rest dimmed.
type barSegment struct{}

func (barSegment) enabled(c *ctx) bool { return c.v.Zone != zones.Unknown && c.v.Window > 0 }

func (barSegment) render(c *ctx, dst []span) []span {
	filled := filledCells(c.v.Tokens, c.v.Window, c.bar)
	if filled > 0 {
		dst = append(dst, span{text: c.g.fullRun[:filled*len(c.g.full)], style: zoneStyle(c.v.Zone)})
	}
	if filled < c.bar {
		dst = append(dst, span{text: c.g.emptyRun[:(c.bar-filled)*len(c.g.empty)], style: styleDim})
	}
	return dst
}

// filledCells returns the gauge's filled cells: tokens/window of cells, rounded, in [0, cells].
func filledCells(tokens, window int64, cells int) int {
	if tokens <= 0 || window <= 0 {
		return 0
	}
	if tokens >= window {
		return cells
	}
	// tokens < window here, so tokens*cells cannot overflow for any sane cells.
	return int((tokens*int64(cells)*2 + window) / (window * 2))
}

// percentSegment shows tokens as a percent of the window, "71%", rounded, in the zone's colour.
// It is not capped: 260k of 200k shows "130%".
type percentSegment struct{}

func (percentSegment) enabled(c *ctx) bool { return c.v.Zone != zones.Unknown && c.v.Window > 0 }

func (percentSegment) render(c *ctx, dst []span) []span {
	b := strconv.AppendInt(c.num[:0], percent(c.v.Tokens, c.v.Window), 10)
	b = append(b, '%')
	return append(dst, span{text: string(b), style: zoneStyle(c.v.Zone)})
}

// percent returns 100 × tokens / window, rounded half up; 0 for a non-positive count.
func percent(tokens, window int64) int64 {
	if tokens <= 0 || window <= 0 {
		return 0
	}
	if tokens > (1<<62)/200 { // would overflow; such counts are nonsense anyway
		return tokens / window * 100
	}
	return (tokens*200 + window) / (window * 2)
}

// appendTokens appends a token count in short form: below 1000 as is ("950"), below 10k with
// one decimal ("9.5k", "1k"), below 1M in thousands ("142k"), below 10M with one decimal
// ("1M", "1.2M"), then in millions ("12M"). Digits are cut, not rounded, so a count never
// shows more than it is (199999 is "199k", not "200k"). Negative counts show as 0.
func appendTokens(b []byte, n int64) []byte {
	switch {
	case n <= 0:
		return append(b, '0')
	case n < 1_000:
		return strconv.AppendInt(b, n, 10)
	case n < 10_000:
		return appendTenths(b, n/100, 'k')
	case n < 1_000_000:
		return append(strconv.AppendInt(b, n/1_000, 10), 'k')
	case n < 10_000_000:
		return appendTenths(b, n/100_000, 'M')
	}
	return append(strconv.AppendInt(b, n/1_000_000, 10), 'M')
}

// appendTenths appends tenths/10 with one decimal, the decimal dropped when it is 0, and unit.
func appendTenths(b []byte, tenths int64, unit byte) []byte {
	b = strconv.AppendInt(b, tenths/10, 10)
	if d := tenths % 10; d != 0 {
		b = append(b, '.', byte('0'+d))
	}
	return append(b, unit)
}
