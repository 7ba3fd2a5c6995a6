package statusline

import (
	"slices"

	"github.com/zoneline/zoneline/zones"
)

// DefaultLines is the layout used when Options.Lines is nil: one line with every segment.
var DefaultLines = [][]string{{"zone", "tokens", "bar", "percent", "compact", "nudge", "limits", "model", "dir", "branch", "compactions", "resume", "problems"}}

// OptionalSegments are the registered segments off by default: a layout (config
// statusline.lines) names them to turn them on.
var OptionalSegments = []string{"cache", "cost", "duration", "lines", "git", "pr", "repo", "worktree", "agent", "effort", "style", "vim", "fast", "thinking"}

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

// registered is a registry entry: the segment, its priority for width fitting (lowest dropped
// first; PriorityPinned and above never dropped) and its group.
type registered struct {
	seg      segment
	priority int
	group    group
}

// registry maps each segment name, as used in Options.Lines and the config, to its segment. It
// is the one list of segments: no init-time self-registration.
var registry = map[string]registered{
	"zone":        {zoneSegment{}, PriorityPinned, groupGauge},
	"tokens":      {tokensSegment{}, PriorityTokens, groupGauge},
	"bar":         {barSegment{}, PriorityBar, groupGauge},
	"percent":     {percentSegment{}, PriorityPercent, groupGauge},
	"compact":     {compactSegment{}, PriorityCompact, groupNone},
	"nudge":       {nudgeSegment{}, PriorityNudge, groupNudge},
	"model":       {modelSegment{}, PriorityModel, groupNone},
	"dir":         {dirSegment{}, PriorityDir, groupPlace},
	"branch":      {branchSegment{}, PriorityBranch, groupPlace},
	"compactions": {compactionsSegment{}, PriorityCompactions, groupNone},
	"resume":      {resumeSegment{}, PriorityResume, groupNone},
	"problems":    {problemsSegment{}, PriorityPinned, groupNone},
	// The extra segments (seg_limits.go, seg_session.go, seg_cache.go, seg_place.go): off until
	// named in the layout.
	"limits":   {limitsSegment{}, PriorityLimits, groupNone},
	"cost":     {costSegment{}, PriorityCost, groupNone},
	"duration": {durationSegment{}, PriorityDuration, groupNone},
	"lines":    {linesSegment{}, PriorityLines, groupNone},
	"effort":   {effortSegment{}, PriorityEffort, groupNone},
	"style":    {styleSegment{}, PriorityStyle, groupNone},
	"vim":      {vimSegment{}, PriorityVim, groupNone},
	"fast":     {fastSegment{}, PriorityFlags, groupNone},
	"thinking": {thinkingSegment{}, PriorityFlags, groupNone},
	"cache":    {cacheSegment{}, PriorityCache, groupNone},
	"git":      {gitSegment{}, PriorityGit, groupPlace},
	"pr":       {prSegment{}, PriorityPR, groupNone},
	"repo":     {repoSegment{}, PriorityRepo, groupNone},
	"worktree": {worktreeSegment{}, PriorityWorktree, groupNone},
	"agent":    {agentSegment{}, PriorityAgent, groupNone},
}

// SegmentNames returns the names of all segments, sorted, for the config to validate
// Options.Lines against. Render skips names not in this list.
func SegmentNames() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
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
