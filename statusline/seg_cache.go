package statusline

import "github.com/zoneline/zoneline/payload"

// cacheSegment shows the prompt cache: "cache 4m12s 98% hit" while warm (the countdown to
// expires_at, in the warn colour under CacheSoon), "cache cold 87% hit" once cold, and the
// last miss's cause, "miss ttl_expired_5m", when one was diagnosed. Hidden when the payload
// has no prompt_cache or caching was never observed (a provider that reports no cache tokens
// is not "cold").
type cacheSegment struct{}

func (cacheSegment) enabled(c *ctx) bool { return cacheOf(c) != nil }

// cacheOf returns the payload's prompt cache when caching was observed, else nil.
func cacheOf(c *ctx) *payload.PromptCache {
	if k := c.v.Payload.PromptCache; k != nil && isTrue(k.CachingObserved) {
		return k
	}
	return nil
}

// warmUnknown reports whether the cache k says it is warm but its expiry or the render's time
// is unknown.
func warmUnknown(c *ctx, k *payload.PromptCache) bool {
	return isTrue(k.Warm) && (k.ExpiresAt == nil || *k.ExpiresAt <= 0 || c.v.Now <= 0)
}

func (cacheSegment) render(c *ctx, dst []span) []span {
	k := cacheOf(c)
	dst = append(dst, span{text: "cache ", style: styleDim})
	left, ok := cacheLeft(c)
	switch {
	case ok:
		st := styleSmart
		if left < CacheSoon {
			st = styleWarn
		}
		dst = append(dst, span{text: string(appendCountdown(c.num[:0], left)), style: st})
	case warmUnknown(c, k):
		dst = append(dst, span{text: "warm", style: styleSmart})
	default:
		dst = append(dst, span{text: "cold", style: styleWarn})
	}
	if r := k.HitRatio; r != nil && *r >= 0 && *r <= 1 {
		b := appendPct(append(c.num[:0], ' '), float64(*r)*100)
		dst = append(dst, span{text: string(append(b, " hit"...))})
	}
	if m := k.LastMissCause; m != nil && len(m.Causes) > 0 && m.Causes[0] != "" {
		dst = append(dst, span{text: " miss " + label(m.Causes[0]), style: styleDim})
	}
	return dst
}

// cacheLeft returns the seconds until the warm cache expires; ok is false when it is cold, the
// expiry or the render's time is unknown, or the figure is nonsense.
func cacheLeft(c *ctx) (left int64, ok bool) {
	k, now := cacheOf(c), c.v.Now
	if k == nil || !isTrue(k.Warm) || k.ExpiresAt == nil || *k.ExpiresAt <= 0 || now <= 0 {
		return 0, false
	}
	left = int64(*k.ExpiresAt) - now
	if left <= 0 || left > maxCountdown {
		return 0, false
	}
	return left, true
}

// appendCacheHint is what the pending-step segment adds once a warning tier is crossed: the
// cache decides whether now is a good moment to compact. Cold, or expiring within CacheSoon
// (before the next turn is likely): "(cache cold: good moment)" (compacting now re-caches
// nothing that is still warm); warm: " (cache 4m12s left)", how long is left. Nothing
// without a known cache.
func appendCacheHint(c *ctx, dst []span) []span {
	k := cacheOf(c)
	if k == nil {
		return dst
	}
	left, ok := cacheLeft(c)
	switch {
	case ok && left >= CacheSoon:
		b := appendCountdown(append(c.num[:0], "(cache "...), left)
		return append(dst, span{text: string(append(b, " left)"...)), style: styleDim})
	case ok:
		return append(dst, span{text: "(cache expiring: good moment)", style: styleHint})
	case warmUnknown(c, k):
		return append(dst, span{text: "(cache warm)", style: styleDim})
	}
	return append(dst, span{text: "(cache cold: good moment)", style: styleHint})
}
