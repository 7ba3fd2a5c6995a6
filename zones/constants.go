package zones

// Windows and Claude Code 2.1.332's compaction arithmetic (CLAUDE-CODE.md section 3).
const (
	DefaultWindow      = 200_000   // window of an unknown model
	OneMillionWindow   = 1_000_000 // window of a "[1m]" model
	LargeWindow        = 500_000   // windows at least this large use the 1M thresholds
	MaxOutputReserve   = 20_000    // effective window = window − min(model max output, this)
	AutoCompactBuffer  = 13_000    // auto-compact point = effective window − this
	MinAutoCompactWin  = 100_000   // CLAUDE_CODE_AUTO_COMPACT_WINDOW below this is ignored
	PrepBeforeCompact  = 20_000    // the prep threshold is never later than auto-compact − this
	DefaultImminentGap = 20_000    // "imminent" tier: within this of the auto-compact point
	maxTokens          = 1 << 40   // larger token counts are nonsense
)
