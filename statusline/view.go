package statusline

import (
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/zones"
)

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
	// Payload is the statusline payload as decoded: the extra segments (seg_limits.go,
	// seg_session.go, seg_cache.go, seg_place.go) read its fields (payload.Extras, workspace's
	// repo and worktree) where it holds them; an absent one hides its segment. Its text is
	// outside input: the segments sanitize it.
	Payload payload.Statusline
	// Now is the render's time in Unix seconds, for the countdowns; 0 hides every countdown.
	Now int64
	// Git is the git cache's view of the worktree; zero hides the git segment.
	Git Git
	// Reclaimed is the tokens the session's compactions reclaimed (Σ preTokens − postTokens).
	Reclaimed int64
	// Problems are short diagnostics shown as a ⚠ segment, e.g. "config.toml:4:1 unknown key
	// 'colour'" or "payload: not JSON". The line still renders everything else it can.
	Problems []string
}

// Git is the git cache's view of the worktree: dirty files and distance to upstream.
type Git struct {
	Known         bool // a fresh enough cache entry exists
	Dirty         int  // changed and untracked files
	Ahead, Behind int
	Upstream      bool // the branch has an upstream (Ahead/Behind mean something)
	Failed        bool // git failed or timed out there (retried after a backoff): "git ?"
}
