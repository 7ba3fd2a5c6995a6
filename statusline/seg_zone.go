package statusline

import "github.com/zoneline/zoneline/zones"

// zoneSegment shows the zone: "● DUMB" in the zone's colour, "○ --" dimmed before the first
// reply.
type zoneSegment struct{}

func (zoneSegment) enabled(*ctx) bool { return true }

func (zoneSegment) render(c *ctx, dst []span) []span {
	z := c.v.Zone
	if z < zones.Unknown || z > zones.Dumb {
		z = zones.Unknown
	}
	return append(dst, span{text: c.g.zoneText[z], style: zoneStyle(z)})
}

// nudgeSegment shows "⚑ /compact-prep" while a warning tier is crossed and not yet acted on
// (View.Tier set), and "⚑ /compact" once a fresh checkpoint is written (View.Tier "ready"):
// the one action the line asks of the user.
type nudgeSegment struct{}

func (nudgeSegment) enabled(c *ctx) bool { return c.v.Tier != "" }

func (nudgeSegment) render(c *ctx, dst []span) []span {
	text := c.g.hintText
	if c.v.Tier == TierReady {
		text = c.g.readyText
	}
	return append(dst, span{text: text, style: styleHint})
}

// renderTail is the step's droppable tail: the cache says whether now is a good moment
// (seg_cache.go).
func (nudgeSegment) renderTail(c *ctx, dst []span) []span { return appendCacheHint(c, dst) }
