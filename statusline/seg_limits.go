package statusline

import "github.com/zoneline/zoneline/payload"

// limitsSegment shows the rate limits the account reports: "5h 42% (2h13m) 7d 91% (3d4h)",
// each percentage coloured by the zones' rule (pctStyle), the time to reset dimmed; a
// gateway's spend limit as "$12/$50 monthly" (or "spend 24%"). Hidden when the payload has
// none of them (API-key sessions), and a window whose figure is nonsense is left out.
type limitsSegment struct{}

func (limitsSegment) enabled(c *ctx) bool {
	rl := c.v.Payload.RateLimits
	return rl != nil && (saneLimit(rl.FiveHour) || saneLimit(rl.SevenDay) || saneSpend(rl.Spend))
}

func saneLimit(w *payload.RateWindow) bool { return w != nil && sane(float64(w.UsedPct), maxPct) }

func saneSpend(s *payload.SpendLimit) bool {
	return s != nil && (sane(float64(s.UsedPct), maxPct) || spendUSD(s))
}

// spendUSD reports whether the spend limit's dollars are known and sane.
func spendUSD(s *payload.SpendLimit) bool {
	return s.UsedUSD != nil && s.LimitUSD != nil && sane(float64(*s.UsedUSD), maxUSD) && sane(float64(*s.LimitUSD), maxUSD)
}

func (limitsSegment) render(c *ctx, dst []span) []span {
	rl := c.v.Payload.RateLimits
	start := len(dst)
	dst = appendLimit(c, dst, start, "5h ", rl.FiveHour)
	dst = appendLimit(c, dst, start, "7d ", rl.SevenDay)
	if s := rl.Spend; saneSpend(s) {
		if len(dst) > start {
			dst = append(dst, span{text: " "})
		}
		var b []byte
		pct := float64(s.UsedPct)
		st := pctStyle(pct)
		if spendUSD(s) {
			used, limit := float64(*s.UsedUSD), float64(*s.LimitUSD)
			b = appendUSD(nil, used)
			b = append(b, '/')
			b = appendUSD(b, limit)
			if s.Period != "" {
				b = append(append(b, ' '), label(s.Period)...)
			}
			if !sane(pct, maxPct) && limit > 0 {
				st = pctStyle(used / limit * 100)
			}
		} else {
			b = appendPct(append(b, "spend "...), pct)
		}
		dst = append(dst, span{text: string(b), style: st})
		dst = appendReset(c, dst, int64(s.ResetsAt))
	}
	return dst
}

func appendLimit(c *ctx, dst []span, start int, name string, w *payload.RateWindow) []span {
	if !saneLimit(w) {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, span{text: " "})
	}
	pct := float64(w.UsedPct)
	dst = append(dst, span{text: name, style: styleDim}, span{text: string(appendPct(nil, pct)), style: pctStyle(pct)})
	return appendReset(c, dst, int64(w.ResetsAt))
}

// appendReset appends " (2h13m)", the time left until at, dimmed; nothing when the render's
// time or at is unknown, past, or absurdly far.
func appendReset(c *ctx, dst []span, at int64) []span {
	now := c.v.Now
	if now <= 0 || at <= now || at-now > maxCountdown {
		return dst
	}
	b := append(c.num[:0], " ("...)
	b = appendCountdown(b, at-now)
	b = append(b, ')')
	return append(dst, span{text: string(b), style: styleDim})
}
