package tune

// Tuning numbers.
const (
	// MaxLine is the longest transcript line read. A longer line (a pasted image, a huge tool
	// result) is skipped without being held in memory and counted in Totals.HugeLines. Each
	// worker holds one buffer of this size.
	MaxLine = 4 << 20

	// DefaultLead is how many responses ahead of an auto-compact a warning must come to count
	// as "in time" (-lead).
	DefaultLead = 3

	// InTimeGoal is the share of auto-compactions the suggested prep threshold warns in time.
	InTimeGoal = 0.90

	// ManualPercentile is the percentile of the user's manual compaction points taken as the
	// suggested dumb threshold: low, so that the zone turns red before the user usually acts.
	ManualPercentile = 0.25

	// MinManual is how many manual compactions a model needs before they move the dumb
	// threshold; with fewer the current value stays.
	MinManual = 3

	// MinAuto is how many auto-compactions a model needs before they move the prep threshold.
	MinAuto = 3

	// DumbLow and DumbHigh bound a suggested dumb threshold to this fraction of the default.
	DumbLow  = 0.5
	DumbHigh = 1.5

	// Round is the granularity of suggested thresholds, in tokens.
	Round = 5_000
)
