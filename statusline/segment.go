package statusline

import "github.com/zoneline/zoneline/zones"

// span is a run of text in one style. w is its display width (exact reports whether w is
// exact or an upper bound; see fastWidth); the renderer fills both in.
type span struct {
	text  string
	style style
	w     int
	exact bool
}

// ctx is what segments see during one render.
type ctx struct {
	v    *View
	g    *glyphs
	bar  int  // gauge cells
	east bool // East-Asian ambiguous runes are wide
	num  [48]byte
}

// segment is one piece of the line.
type segment interface {
	// enabled reports whether the segment has something to show. It is cheap: no formatting.
	enabled(c *ctx) bool
	// render appends the segment's text, as spans with style names, to dst. It never emits an
	// escape code.
	render(c *ctx, dst []span) []span
}

// group names segments that sit together: two adjacent segments of the same group are joined
// by one space instead of the separator ("● DUMB 142k/200k ▰▰▱ 71%", "project ⎇ main").
type group uint8

const (
	groupNone  group = iota
	groupGauge       // zone, tokens, bar, percent
	groupPlace       // dir, branch
	groupNudge       // the pending step and its tail (the cache's word on it)
)

// tailer is a segment with a droppable tail: rendered as an item of its own in the segment's
// group, at PriorityTail, so width fitting drops the tail long before the segment.
type tailer interface {
	renderTail(c *ctx, dst []span) []span
}

// shortener is a segment with a short form (the ⚠ segment's), which width fitting puts in the
// full form's place before it drops any other segment.
type shortener interface {
	renderShort(c *ctx, dst []span) []span
}

// Segment is one row of the segment table: the one place a segment is named, placed on the
// default line or not, ranked for width fitting, grouped and described. The config validates
// layouts against it and docs/segments.md is generated from it.
type Segment struct {
	Name    string // as used in Options.Lines and the config's statusline.lines
	Default bool   // on the default line, in table order; else off until a layout names it
	// Priority decides what width fitting drops first: the lowest goes first; PriorityPinned
	// and above are never dropped, only cut.
	Priority int
	Doc      string // one line for docs/segments.md: what it shows, and when it hides
	seg      segment
	group    group
}

// Group names the segments it sits with ("gauge", "place", "nudge"; "" for none): adjacent
// segments of one group are joined by a space instead of the separator.
func (s *Segment) Group() string {
	switch s.group {
	case groupGauge:
		return "gauge"
	case groupPlace:
		return "place"
	case groupNudge:
		return "nudge"
	}
	return ""
}

// segments is the segment table, in the default line's order, then the optional segments.
// Static data (zero-size segment values): nothing is built at init.
var segments = [...]Segment{
	{"zone", true, PriorityPinned, `the zone: "● DUMB" in the zone's colour, "○ --" dimmed before the first reply`, zoneSegment{}, groupGauge},
	{"tokens", true, 90, `the context's tokens against the window, "142k/200k", in the zone's colour`, tokensSegment{}, groupGauge},
	{"bar", true, 30, `a gauge of the tokens over the window (statusline.bar_width cells), the filled part in the zone's colour`, barSegment{}, groupGauge},
	{"percent", true, 70, `the tokens as a percent of the window, "71%" (not capped: 130% past the window)`, percentSegment{}, groupGauge},
	{"compact", true, 80, `the distance to Claude Code's auto-compact point, "~25k to compact" ("~": an estimate), "compact due", "auto-compact off"; in the warn colour as the point nears, the dumb colour when it is imminent`, compactSegment{}, groupNone},
	{"nudge", true, PriorityPinned, `the pending step: "⚑ /compact-prep" once a warning tier is crossed, "⚑ /compact" once a fresh checkpoint is written; with the prompt cache known, whether now is a good moment`, nudgeSegment{}, groupNudge},
	{"limits", true, 65, `the account's rate limits, "5h 42% (2h13m) 7d 91% (3d4h)", or a gateway's spend limit; hidden when the payload has none (API-key sessions)`, limitsSegment{}, groupNone},
	{"model", true, 60, `the model's display name, "Opus 5.5"`, modelSegment{}, groupNone},
	{"dir", true, 50, `the project directory's base name`, dirSegment{}, groupPlace},
	{"branch", true, 40, `the git branch (or short HEAD), "⎇ main", read from .git without running git`, branchSegment{}, groupPlace},
	{"compactions", true, 20, `the compactions seen in this session, dimmed, and the tokens they reclaimed: "↻2 -280k"`, compactionsSegment{}, groupNone},
	{"resume", true, 85, `after a restore, whether the agent resumed the checkpoint's Next: "on plan" or "OFF PLAN", until the next prompt`, resumeSegment{}, groupNone},
	{"problems", true, PriorityPinned, `zoneline's own problems (config, payload, state), "⚠ …" in the warn colour: never dropped; on a narrow line it shortens first ("⚠ zoneline config check"), then is cut, and never pushes out the zone, the tokens or the distance to compact`, problemsSegment{}, groupNone},

	{"cache", false, 45, `the prompt cache: "cache 4m12s 98% hit" while warm, "cache cold" once cold, the last miss's cause; hidden when caching was never seen`, cacheSegment{}, groupNone},
	{"cost", false, 35, `the session's cost, "$1.23"`, costSegment{}, groupNone},
	{"duration", false, 15, `the session's wall time, "12m", "1h05m"`, durationSegment{}, groupNone},
	{"lines", false, 14, `the lines changed this session, "+120 −37"`, linesSegment{}, groupNone},
	{"git", false, 39, `the worktree's state from the git cache, "*3 ↑1 ↓2" or "clean" (refreshed in the background, never on the render); "git ?" when git failed there`, gitSegment{}, groupPlace},
	{"pr", false, 33, `the branch's open pull request, "PR #1234 approved", the review state coloured`, prSegment{}, groupNone},
	{"repo", false, 18, `the repository from the origin remote, "anthropics/claude-code"`, repoSegment{}, groupNone},
	{"worktree", false, 19, `the worktree's name, "wt my-feature"`, worktreeSegment{}, groupNone},
	{"agent", false, 25, `the --agent the session runs as, "agent code-architect"`, agentSegment{}, groupNone},
	{"effort", false, 12, `the reasoning effort, "effort high"`, effortSegment{}, groupNone},
	{"style", false, 10, `a non-default output style, "style Explanatory"`, styleSegment{}, groupNone},
	{"vim", false, 55, `the vim mode when vim mode is on, "NORMAL" (INSERT dimmed)`, vimSegment{}, groupNone},
	{"fast", false, 11, `"fast" while fast mode is on`, fastSegment{}, groupNone},
	{"thinking", false, 11, `"thinking" while extended thinking is on`, thinkingSegment{}, groupNone},
}

// Segments returns the segment table, in its order (the default line's, then the optional
// segments). The caller must not modify it.
func Segments() []Segment { return segments[:] }

// lookupSegment returns the table row named name, or nil.
func lookupSegment(name string) *Segment {
	for i := range segments {
		if segments[i].Name == name {
			return &segments[i]
		}
	}
	return nil
}

// IsSegment reports whether name is a segment.
func IsSegment(name string) bool { return lookupSegment(name) != nil }

// SegmentNames returns every segment name in table order, for the config to validate
// Options.Lines against. Render skips names not in this list.
func SegmentNames() []string { return names(func(*Segment) bool { return true }) }

// DefaultLine returns the default line's segments (the layout Options.Lines nil means).
func DefaultLine() []string { return names(func(s *Segment) bool { return s.Default }) }

// OptionalSegments returns the segments off by default: a layout names them to turn them on.
func OptionalSegments() []string { return names(func(s *Segment) bool { return !s.Default }) }

func names(keep func(*Segment) bool) []string {
	var out []string
	for i := range segments {
		if keep(&segments[i]) {
			out = append(out, segments[i].Name)
		}
	}
	return out
}

// LayoutHas reports whether a layout (nil: the default line) names segment.
func LayoutHas(lines [][]string, segment string) bool {
	if lines == nil {
		s := lookupSegment(segment)
		return s != nil && s.Default
	}
	for _, l := range lines {
		for _, n := range l {
			if n == segment {
				return true
			}
		}
	}
	return false
}

// zoneStyle returns the colour of zone z.
func zoneStyle(z zones.Zone) style {
	switch z {
	case zones.Smart:
		return styleSmart
	case zones.Warn:
		return styleWarn
	case zones.Dumb:
		return styleDumb
	}
	return styleDim
}
