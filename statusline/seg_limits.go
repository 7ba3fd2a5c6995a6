package statusline

// limitsSegment shows the rate limits the account reports: "5h 42% (2h13m) 7d 91% (3d4h)",
// each percentage coloured by the zones' rule (pctStyle), the time to reset dimmed; a
// gateway's spend limit as "$12/$50 monthly" (or "spend 24%"). Hidden when the payload has
// none of them (API-key sessions), and a window whose figure is nonsense is left out.
type limitsSegment struct{}

func (limitsSegment) enabled(c *ctx) bool {
	f := &c.v.Facts
	return saneLimit(f.FiveHour) || saneLimit(f.SevenDay) || saneSpend(f.Spend)
}

func saneLimit(l Limit) bool { return l.Known && sane(l.Pct, maxPct) }

func saneSpend(s Spend) bool {
	return s.Known && (sane(s.Pct, maxPct) || s.USDKnown && sane(s.Used, maxUSD) && sane(s.LimitUSD, maxUSD))
}

func (limitsSegment) render(c *ctx, dst []span) []span {
	f := &c.v.Facts
	start := len(dst)
	dst = appendLimit(c, dst, start, "5h ", f.FiveHour)
	dst = appendLimit(c, dst, start, "7d ", f.SevenDay)
	if s := f.Spend; saneSpend(s) {
		if len(dst) > start {
			dst = append(dst, span{text: " "})
		}
		var b []byte
		st := pctStyle(s.Pct)
		if s.USDKnown && sane(s.Used, maxUSD) && sane(s.LimitUSD, maxUSD) {
			b = appendUSD(nil, s.Used)
			b = append(b, '/')
			b = appendUSD(b, s.LimitUSD)
			if s.Period != "" {
				b = append(append(b, ' '), label(s.Period)...)
			}
			if !sane(s.Pct, maxPct) && s.LimitUSD > 0 {
				st = pctStyle(s.Used / s.LimitUSD * 100)
			}
		} else {
			b = appendPct(append(b, "spend "...), s.Pct)
		}
		dst = append(dst, span{text: string(b), style: st})
		dst = appendReset(c, dst, s.ResetsAt)
	}
	return dst
}

func appendLimit(c *ctx, dst []span, start int, name string, l Limit) []span {
	if !saneLimit(l) {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, span{text: " "})
	}
	dst = append(dst, span{text: name, style: styleDim}, span{text: string(appendPct(nil, l.Pct)), style: pctStyle(l.Pct)})
	return appendReset(c, dst, l.ResetsAt)
}

// appendReset appends " (2h13m)", the time left until at, dimmed; nothing when the render's
// time or at is unknown, past, or absurdly far.
func appendReset(c *ctx, dst []span, at int64) []span {
	now := c.v.Facts.Now
	if now <= 0 || at <= now || at-now > maxCountdown {
		return dst
	}
	b := append(c.num[:0], " ("...)
	b = appendCountdown(b, at-now)
	b = append(b, ')')
	return append(dst, span{text: string(b), style: styleDim})
}
