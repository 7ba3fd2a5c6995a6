package transcript

// Tuning numbers. Each bound exists so that a statusline render or a hook
// costs the same on a 1 kB transcript as on a 1 GB one.
const (
	// DefaultTailBytes is how far back from the end Tail reads when its
	// maxBytes is zero or negative.
	DefaultTailBytes int64 = 4 << 20

	// DefaultScanBytes is how much ScanCompactionsFrom reads in one call when its
	// maxBytes is zero or negative.
	DefaultScanBytes int64 = 4 << 20

	// DefaultFactBytes is how far back from the end Facts reads when its
	// maxBytes is zero or negative. Facts runs in the PreCompact hook, off
	// the statusline's hot path, so it may read more than Tail.
	DefaultFactBytes int64 = 8 << 20

	// tailFirstChunk is the size of Tail's first read from the end. Later
	// reads double, so a long line costs a linear number of copied bytes.
	// The last assistant reply is usually within the last few KiB; a 64 KiB
	// first read cost the statusline about 30 fresh pages on every render.
	tailFirstChunk int64 = 8 << 10

	// MaxTokens caps every token count this package reports (about 1.1e12,
	// far above any context window); larger values in a transcript are
	// treated as corrupt and clamped, never trusted to overflow a sum.
	MaxTokens int64 = 1 << 40

	// SyntheticModel is the message.model Claude Code writes on assistant
	// records it made up itself (errors, interruptions). They carry no real
	// usage and are ignored.
	SyntheticModel = "<synthetic>"
)

// Default limits for Facts, used for any FactLimits field that is zero or
// negative.
const (
	DefaultFactPrompts  = 10
	DefaultFactFiles    = 30
	DefaultFactCommands = 20
	DefaultFactSkills   = 20
)
