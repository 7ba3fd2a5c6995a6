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

// Priorities decide what width fitting drops first: the lowest priority goes first (each
// segment's is in the segment table, segment.go). Segments at PriorityPinned or above are never
// dropped, only truncated.
const (
	PriorityPinned = 100 // zone, the pending step, problems
	PriorityTail   = 56  // a segment's droppable tail (the pending step's cache hint): after the place, before the model
	// PriorityOverProblems: segments at or above it (the distance to compact, the resume
	// verdict, the tokens) are never pushed out by the ⚠ segment: it shortens, then is cut.
	PriorityOverProblems = 80
)
