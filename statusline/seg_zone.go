package statusline

import "github.com/zoneline/zoneline/zones"

// zoneSegment shows the zone: "● DUMB" in the zone's colour, "○ --" dimmed before the first
// reply, followed by " ⚑ /compact-prep" when a checkpoint is due (View.Tier set).
type zoneSegment struct{}

func (zoneSegment) enabled(*ctx) bool { return true }

func (zoneSegment) render(c *ctx, dst []span) []span {
	z := c.v.Zone
	if z < zones.Unknown || z > zones.Dumb {
		z = zones.Unknown
	}
	dst = append(dst, span{text: c.g.zoneText[z], style: zoneStyle(z)})
	if c.v.Tier != "" {
		dst = append(dst, span{text: c.g.hintText, style: styleHint})
	}
	return dst
}
