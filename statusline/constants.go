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

	// LimitWarnPct and LimitDumbPct colour a rate-limit window as the zones are coloured:
	// smart below LimitWarnPct, warn below LimitDumbPct, dumb from there.
	LimitWarnPct = 70
	LimitDumbPct = 90

	// CacheSoon is the time left (seconds) under which a warm prompt cache counts as expiring
	// before the next turn is likely: the cache segment turns the warn colour and the pending
	// step says it is a good moment to compact.
	CacheSoon = 90
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

	// The extra segments, off by default; once in the layout they go in this order.
	PriorityLimits   = 65
	PriorityVim      = 55
	PriorityCache    = 45
	PriorityGit      = 39
	PriorityCost     = 35
	PriorityPR       = 33
	PriorityAgent    = 25
	PriorityWorktree = 19
	PriorityRepo     = 18
	PriorityDuration = 15
	PriorityLines    = 14
	PriorityEffort   = 12
	PriorityFlags    = 11 // fast, thinking
	PriorityStyle    = 10

	PriorityTail = 56 // a segment's droppable tail (the pending step's cache hint): after the place, before the model
)
