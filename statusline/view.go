package statusline

import "github.com/zoneline/zoneline/zones"

// TierReady is View.Tier once the session's checkpoint is written: "⚑ /compact".
const TierReady = "ready"

// View is everything one render shows. The caller (cli) builds it from the payload, the
// transcript, the config and the state; Render only formats it.
type View struct {
	Zone        zones.Zone
	Tokens      int64 // context tokens; meaningful when Zone != zones.Unknown
	Window      int64 // context window (200000, 1000000, …)
	Compact     zones.Compact
	Thresholds  zones.Thresholds
	Model       string // display name, e.g. "Opus 5.5"; "" to hide
	Dir         string // project directory's base name; "" to hide
	Branch      string // git branch (or short HEAD when detached); "" to hide
	Compactions int    // compactions seen in this session
	// Resume is the resume check's verdict after the last restore (ResumeOnPlan, ResumeOffPlan),
	// "" when there is none to show.
	Resume string
	// Tier is the warning tier the session has crossed ("" none, "warn", "dumb" (prep),
	// "imminent"): a /compact-prep is due. TierReady: a fresh checkpoint is written, so the next
	// step is /compact.
	Tier string
	// Facts feed the extra segments (limits, cost, cache, git, pr, …); zero hides them.
	Facts Facts
	// Problems are short diagnostics shown as a ⚠ segment, e.g. "config.toml:4:1 unknown key
	// 'colour'" or "payload: not JSON". The line still renders everything else it can.
	Problems []string
}
