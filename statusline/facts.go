package statusline

// Facts are what the extra segments (seg_limits.go, seg_session.go, seg_cache.go, seg_git.go,
// seg_place.go) show: the payload's fields beyond the context, the git cache, the compactions'
// reclaimed tokens. The caller (cli) fills them in; the zero value of each hides its segment.
// Text fields are outside input: the segments sanitize them.
type Facts struct {
	Now int64 // Unix seconds of the render, for the countdowns; 0 hides every countdown

	FiveHour, SevenDay Limit // rate-limit windows; Known false hides one
	Spend              Spend // a gateway's spend limit

	Cost                  Money // session cost in USD
	DurationMS            int64 // session wall time; <= 0 hides duration
	LinesKnown            bool  // the payload has cost.total_lines_*
	LinesAdded, LinesDrop int64 // lines added and removed
	Effort                string
	Style                 string // output style; "" and "default" hide it
	Vim                   string // vim mode; "" hides it
	Fast                  bool   // fast mode on
	Thinking              bool   // extended thinking on

	Cache Cache

	Git Git

	PRNumber int64  // 0 hides pr
	PRState  string // approved | pending | changes_requested | draft | ""
	PRKind   string // "mr" for a GitLab merge request
	Repo     string // "owner/name"
	Worktree string // worktree name (a --worktree session, or a linked git worktree)
	Agent    string // the --agent name

	Reclaimed int64 // tokens the session's compactions reclaimed (Σ preTokens − postTokens)
}

// Limit is one rate-limit window.
type Limit struct {
	Known    bool
	Pct      float64 // used, 0-100
	ResetsAt int64   // Unix seconds; 0 unknown
}

// Spend is a gateway's spend limit.
type Spend struct {
	Known          bool
	Pct            float64
	USDKnown       bool // Used and Limit are known
	Used, LimitUSD float64
	ResetsAt       int64
	Period         string // daily | weekly | monthly
}

// Money is an amount that may be unknown.
type Money struct {
	Known bool
	USD   float64
}

// Cache is the prompt cache's state (payload prompt_cache).
type Cache struct {
	Known     bool    // prompt_cache present and caching observed
	Warm      bool    // inside its TTL now
	ExpiresAt int64   // Unix seconds; 0 unknown
	HitRatio  float64 // 0-1; < 0 unknown
	MissCause string  // the last miss's first cause; "" none
	Misses    int64
	Recache   int64 // tokens the next request re-caches if cold; < 0 unknown
	TTL       string
}

// Git is the git cache's view of the worktree: dirty files and distance to upstream.
type Git struct {
	Known         bool // a fresh enough cache entry exists
	Dirty         int  // changed and untracked files
	Ahead, Behind int
	Upstream      bool // the branch has an upstream (Ahead/Behind mean something)
	Failed        bool // git failed or timed out there (retried after a backoff): "git ?"
}
