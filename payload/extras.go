package payload

import (
	"errors"
	"math"
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// Extras are the statusline payload's fields beyond the context, which the extra segments show:
// cost, effort, the rate limits, the prompt cache, the PR, … (the CLI's own statusLine
// documentation, CLAUDE-CODE.md section 6). Every object is a pointer: nil when Claude Code leaves it out (most are
// optional: rate_limits only for subscribers or behind a gateway, prompt_cache after the first
// response, vim with vim mode on, agent with --agent, pr with an open PR, worktree in a
// --worktree session) or sends null.
type Extras struct {
	SessionName string       `json:"session_name"` // "" unless set with /rename
	OutputStyle *OutputStyle `json:"output_style"`
	Cost        *Cost        `json:"cost"`
	Effort      *Effort      `json:"effort"` // nil when the model has no reasoning effort
	Thinking    *Thinking    `json:"thinking"`
	FastMode    *bool        `json:"fast_mode"`
	RateLimits  *RateLimits  `json:"rate_limits"`
	PromptCache *PromptCache `json:"prompt_cache"`
	Vim         *Vim         `json:"vim"`
	Agent       *Agent       `json:"agent"`
	PR          *PR          `json:"pr"`
	Worktree    *Worktree    `json:"worktree"`
}

// Repo is workspace.repo: the repository identity from the origin remote.
type Repo struct {
	Host  string `json:"host"`
	Owner string `json:"owner"`
	Name  string `json:"name"`
}

// OutputStyle is output_style.
type OutputStyle struct {
	Name string `json:"name"` // "default", "Explanatory", "Learning", …
}

// Cost is the session's cost and activity so far.
type Cost struct {
	USD           Float `json:"total_cost_usd"`
	DurationMS    Num   `json:"total_duration_ms"`
	APIDurationMS Num   `json:"total_api_duration_ms"`
	LinesAdded    Num   `json:"total_lines_added"`
	LinesRemoved  Num   `json:"total_lines_removed"`
}

// Effort is the live reasoning effort.
type Effort struct {
	Level string `json:"level"` // low | medium | high | xhigh | max
}

// Thinking says whether extended thinking is on.
type Thinking struct {
	Enabled *bool `json:"enabled"` // nil when absent
}

// RateLimits are the subscription's usage windows or a gateway's spend limit. Each window is
// nil when the API does not report it (or its reset has passed).
type RateLimits struct {
	FiveHour *RateWindow `json:"five_hour"`
	SevenDay *RateWindow `json:"seven_day"`
	Spend    *SpendLimit `json:"spend_limit"`
}

// RateWindow is one usage window.
type RateWindow struct {
	UsedPct  Float `json:"used_percentage"` // 0-100
	ResetsAt Num   `json:"resets_at"`       // Unix seconds; 0 when absent
}

// SpendLimit is a Claude gateway's fullest spend limit.
type SpendLimit struct {
	UsedPct  Float  `json:"used_percentage"` // 0-100, above 100 once exceeded
	ResetsAt Num    `json:"resets_at"`
	UsedUSD  *Float `json:"used_usd"`  // nil behind an older gateway
	LimitUSD *Float `json:"limit_usd"` // present with UsedUSD
	Period   string `json:"period"`    // daily | weekly | monthly | ""
}

// PromptCache is the main conversation's prompt-cache health.
type PromptCache struct {
	Warm            *bool  `json:"warm"`             // the cached prefix is inside its TTL now
	CachingObserved *bool  `json:"caching_observed"` // false: caching off or not reported by the provider
	TTL             string `json:"ttl"`              // "5m" | "1h"
	ExpiresAt       *Num   `json:"expires_at"`       // Unix seconds; nil when the last response reported no cache tokens
	Requests        Num    `json:"requests"`
	Misses          Num    `json:"misses"`
	HitRatio        *Float `json:"hit_ratio"` // 0-1; nil when unknown
	// LastMissCause is nil when no miss was diagnosed.
	LastMissCause *MissCause `json:"last_miss_cause"`
	// RecacheIfCold is the tokens the next request re-caches if the cache is cold by then; nil
	// right after a compaction.
	RecacheIfCold *Num `json:"recache_tokens_if_cold"`
}

// MissCause is the likely cause of the last cache miss.
type MissCause struct {
	Causes []string `json:"causes"` // closed set: "ttl_expired_5m", "tools_changed", …; at most maxCauses kept
}

// maxCauses bounds the causes kept from last_miss_cause (the segment shows the first).
const maxCauses = 4

// Vim is the vim editor mode.
type Vim struct {
	Mode string `json:"mode"` // INSERT | NORMAL | VISUAL | VISUAL LINE
}

// Agent is the --agent the session runs as.
type Agent struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// PR is the open PR (or GitLab MR) of the current branch.
type PR struct {
	Number      Num    `json:"number"`
	URL         string `json:"url"`
	ReviewState string `json:"review_state"` // approved | pending | changes_requested | draft | ""
	Kind        string `json:"kind"`         // "mr" for a GitLab merge request, else ""
}

// Worktree is a --worktree session's worktree.
type Worktree struct {
	Name           string `json:"name"`
	Path           string `json:"path"`
	Branch         string `json:"branch"`
	OriginalCwd    string `json:"original_cwd"`
	OriginalBranch string `json:"original_branch"`
}

// Float is a lenient number: a JSON number or a string holding one; null, NaN, infinities and
// anything else read as 0; magnitudes are capped at MaxFloat.
type Float float64

// MaxFloat caps any Float read from outside.
const MaxFloat = 1e15

// UnmarshalJSON implements json.Unmarshaler. It never fails.
func (f *Float) UnmarshalJSON(b []byte) error {
	*f = Float(parseFloat(b))
	return nil
}

func parseFloat(b []byte) Float {
	b, ok := unquoted(b)
	if !ok || len(b) == 0 || string(b) == "null" {
		return 0
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(v) {
		return 0
	}
	return Float(max(-MaxFloat, min(v, MaxFloat)))
}

// The key tables of the extra fields (jsonscan.Field); their top-level keys are in
// statuslineFields.
var (
	repoFields = [...]field[Repo]{
		{Key: "host", Read: func(s *scanner, r *Repo) error { return s.String(&r.Host) }},
		{Key: "owner", Read: func(s *scanner, r *Repo) error { return s.String(&r.Owner) }},
		{Key: "name", Read: func(s *scanner, r *Repo) error { return s.String(&r.Name) }},
	}
	outputStyleFields = [...]field[OutputStyle]{{Key: "name", Read: func(s *scanner, o *OutputStyle) error { return s.String(&o.Name) }}}
	effortFields      = [...]field[Effort]{{Key: "level", Read: func(s *scanner, e *Effort) error { return s.String(&e.Level) }}}
	thinkingFields    = [...]field[Thinking]{{Key: "enabled", Read: func(s *scanner, t *Thinking) error { return s.BoolPtr(&t.Enabled) }}}
	vimFields         = [...]field[Vim]{{Key: "mode", Read: func(s *scanner, v *Vim) error { return s.String(&v.Mode) }}}
	agentFields       = [...]field[Agent]{
		{Key: "name", Read: func(s *scanner, a *Agent) error { return s.String(&a.Name) }},
		{Key: "type", Read: func(s *scanner, a *Agent) error { return s.String(&a.Type) }},
	}
	prFields = [...]field[PR]{
		{Key: "number", Read: func(s *scanner, p *PR) error { return num(s, &p.Number) }},
		{Key: "url", Read: func(s *scanner, p *PR) error { return s.String(&p.URL) }},
		{Key: "review_state", Read: func(s *scanner, p *PR) error { return s.String(&p.ReviewState) }},
		{Key: "kind", Read: func(s *scanner, p *PR) error { return s.String(&p.Kind) }},
	}
	worktreeFields = [...]field[Worktree]{
		{Key: "name", Read: func(s *scanner, w *Worktree) error { return s.String(&w.Name) }},
		{Key: "path", Read: func(s *scanner, w *Worktree) error { return s.String(&w.Path) }},
		{Key: "branch", Read: func(s *scanner, w *Worktree) error { return s.String(&w.Branch) }},
		{Key: "original_cwd", Read: func(s *scanner, w *Worktree) error { return s.String(&w.OriginalCwd) }},
		{Key: "original_branch", Read: func(s *scanner, w *Worktree) error { return s.String(&w.OriginalBranch) }},
	}
	costFields = [...]field[Cost]{
		{Key: "total_cost_usd", Read: func(s *scanner, c *Cost) error { return float(s, &c.USD) }},
		{Key: "total_duration_ms", Read: func(s *scanner, c *Cost) error { return num(s, &c.DurationMS) }},
		{Key: "total_api_duration_ms", Read: func(s *scanner, c *Cost) error { return num(s, &c.APIDurationMS) }},
		{Key: "total_lines_added", Read: func(s *scanner, c *Cost) error { return num(s, &c.LinesAdded) }},
		{Key: "total_lines_removed", Read: func(s *scanner, c *Cost) error { return num(s, &c.LinesRemoved) }},
	}
	rateLimitsFields = [...]field[RateLimits]{
		{Key: "five_hour", Read: func(s *scanner, r *RateLimits) error { return jsonscan.ReadPtr(s, &r.FiveHour, rateWindowFields[:]) }},
		{Key: "seven_day", Read: func(s *scanner, r *RateLimits) error { return jsonscan.ReadPtr(s, &r.SevenDay, rateWindowFields[:]) }},
		{Key: "spend_limit", Read: func(s *scanner, r *RateLimits) error { return jsonscan.ReadPtr(s, &r.Spend, spendLimitFields[:]) }},
	}
	rateWindowFields = [...]field[RateWindow]{
		{Key: "used_percentage", Read: func(s *scanner, w *RateWindow) error { return float(s, &w.UsedPct) }},
		{Key: "resets_at", Read: func(s *scanner, w *RateWindow) error { return num(s, &w.ResetsAt) }},
	}
	spendLimitFields = [...]field[SpendLimit]{
		{Key: "used_percentage", Read: func(s *scanner, l *SpendLimit) error { return float(s, &l.UsedPct) }},
		{Key: "resets_at", Read: func(s *scanner, l *SpendLimit) error { return num(s, &l.ResetsAt) }},
		{Key: "used_usd", Read: func(s *scanner, l *SpendLimit) error { return floatPtr(s, &l.UsedUSD) }},
		{Key: "limit_usd", Read: func(s *scanner, l *SpendLimit) error { return floatPtr(s, &l.LimitUSD) }},
		{Key: "period", Read: func(s *scanner, l *SpendLimit) error { return s.String(&l.Period) }},
	}
	promptCacheFields = [...]field[PromptCache]{
		{Key: "warm", Read: func(s *scanner, c *PromptCache) error { return s.BoolPtr(&c.Warm) }},
		{Key: "caching_observed", Read: func(s *scanner, c *PromptCache) error { return s.BoolPtr(&c.CachingObserved) }},
		{Key: "ttl", Read: func(s *scanner, c *PromptCache) error { return s.String(&c.TTL) }},
		{Key: "expires_at", Read: func(s *scanner, c *PromptCache) error { return numPtr(s, &c.ExpiresAt) }},
		{Key: "requests", Read: func(s *scanner, c *PromptCache) error { return num(s, &c.Requests) }},
		{Key: "misses", Read: func(s *scanner, c *PromptCache) error { return num(s, &c.Misses) }},
		{Key: "hit_ratio", Read: func(s *scanner, c *PromptCache) error { return floatPtr(s, &c.HitRatio) }},
		{Key: "recache_tokens_if_cold", Read: func(s *scanner, c *PromptCache) error { return numPtr(s, &c.RecacheIfCold) }},
		{Key: "last_miss_cause", Read: func(s *scanner, c *PromptCache) error {
			return jsonscan.ReadPtr(s, &c.LastMissCause, missCauseFields[:])
		}},
	}
	missCauseFields = [...]field[MissCause]{{Key: "causes", Read: readCauses}}
)

// readCauses reads last_miss_cause.causes: the first maxCauses non-empty strings.
func readCauses(s *scanner, mc *MissCause) error {
	mc.Causes = mc.Causes[:0]
	_, err := s.Array(func() error {
		var v string
		if err := s.String(&v); err != nil {
			return err
		}
		if v != "" && len(mc.Causes) < maxCauses {
			mc.Causes = append(mc.Causes, v)
		}
		return nil
	})
	return err
}
