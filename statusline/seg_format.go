package statusline

import (
	"math"
	"strconv"
)

// Formatting shared by the extra segments. Everything appends to a caller's buffer: no fmt.

// Bounds past which a payload number is nonsense and its segment hides.
const (
	maxUSD        = 1e7                      // a session's cost
	maxDurationMS = 10 * 365 * 24 * 3600_000 // ten years
	maxCountdown  = 400 * 24 * 3600          // a countdown longer than this is not shown
	maxPct        = 1000                     // a percentage shown (spend limits pass 100)
	maxLabel      = 40                       // runes of a label from outside (repo, agent, …)
	maxLines      = 1e9                      // lines added or removed in a session
)

// appendCountdown appends a duration in seconds in two units at most: "45s", "12m", "4m12s"
// under 10 minutes, "2h13m", "3d4h". Non-positive shows "0s".
func appendCountdown(b []byte, secs int64) []byte {
	switch {
	case secs <= 0:
		return append(b, "0s"...)
	case secs < 60:
		return append(strconv.AppendInt(b, secs, 10), 's')
	case secs < 600:
		b = append(strconv.AppendInt(b, secs/60, 10), 'm')
		if s := secs % 60; s != 0 {
			b = append(appendTwo(b, s), 's')
		}
		return b
	case secs < 3600:
		return append(strconv.AppendInt(b, secs/60, 10), 'm')
	case secs < 86400:
		b = append(strconv.AppendInt(b, secs/3600, 10), 'h')
		return append(appendTwo(b, secs%3600/60), 'm')
	}
	b = append(strconv.AppendInt(b, secs/86400, 10), 'd')
	if h := secs % 86400 / 3600; h != 0 {
		b = append(strconv.AppendInt(b, h, 10), 'h')
	}
	return b
}

// appendTwo appends n (0-99) with two digits.
func appendTwo(b []byte, n int64) []byte {
	return append(b, byte('0'+n/10%10), byte('0'+n%10))
}

// appendPct appends p (a percentage) rounded to a whole number, "42%".
func appendPct(b []byte, p float64) []byte {
	return append(strconv.AppendInt(b, int64(math.Round(p)), 10), '%')
}

// appendUSD appends an amount: "$0.19", "$12.35", and whole dollars from $1000 ("$1234").
func appendUSD(b []byte, usd float64) []byte {
	b = append(b, '$')
	if usd >= 1000 {
		return strconv.AppendInt(b, int64(usd), 10)
	}
	cents := int64(math.Round(usd * 100))
	b = strconv.AppendInt(b, cents/100, 10)
	return appendTwo(append(b, '.'), cents%100)
}

// sane reports whether f is a finite number in [0, limit].
func sane(f, limit float64) bool { return f >= 0 && f <= limit && !math.IsNaN(f) }

// label returns outside text as one clean line of at most maxLabel runes.
func label(s string) string {
	s = clean(s)
	n := 0
	for i := range s {
		if n == maxLabel {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// pctStyle colours a usage percentage by the zones' rule: smart under LimitWarnPct, warn under
// LimitDumbPct, dumb from there.
func pctStyle(p float64) style {
	switch {
	case p >= LimitDumbPct:
		return styleDumb
	case p >= LimitWarnPct:
		return styleWarn
	}
	return styleSmart
}

// isASCII reports whether the render uses the ASCII glyph set (the extra segments pick their
// few non-ASCII marks by it).
func isASCII(c *ctx) bool { return c.g == &glyphSets[setASCII] }
