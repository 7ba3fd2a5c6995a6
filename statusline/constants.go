package statusline

// Tuning numbers of the renderer, in one place.
const (
	// DefaultBarWidth is the gauge's cells when Options.BarWidth is 0.
	DefaultBarWidth = 10
	// MaxBarWidth caps Options.BarWidth; the gauge is sliced from a constant string this long.
	MaxBarWidth = 40

	// CompactNear is the distance to the auto-compact point (tokens) under which the compact
	// segment turns the warn colour; under CompactImminent it turns the dumb colour.
	CompactNear     = 40_000
	CompactImminent = 20_000 // zones.DefaultImminentGap
)

// Priorities decide what width fitting drops first: the lowest priority goes first. Segments
// at PriorityPinned or above are never dropped, only truncated.
const (
	PriorityPinned      = 100 // zone, problems
	PriorityTokens      = 90
	PriorityNudge       = PriorityPinned // the pending /compact-prep action is never dropped
	PriorityCompact     = 80
	PriorityPercent     = 70
	PriorityModel       = 60
	PriorityDir         = 50
	PriorityBranch      = 40
	PriorityBar         = 30
	PriorityCompactions = 20
	PriorityResume      = 85 // on / off plan after a restore: shown until the next prompt
)
