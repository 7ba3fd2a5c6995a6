package payload

import (
	"bytes"
	"errors"
	"math"
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// More is what the statusline payload carries beyond the context: cost, effort, the rate
// limits, the prompt cache, the PR, … (the CLI's own statusLine documentation, CLAUDE-CODE.md
// section 6). Every object is a pointer: nil when Claude Code leaves it out (most are
// optional: rate_limits only for subscribers or behind a gateway, prompt_cache after the first
// response, vim with vim mode on, agent with --agent, pr with an open PR, worktree in a
// --worktree session) or sends null.
type More struct {
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

func parseFloat(b []byte) float64 {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		if len(b) < 2 || b[len(b)-1] != '"' {
			return 0
		}
		b = []byte(jsonscan.Unquote(b[1 : len(b)-1]))
	}
	if len(b) == 0 || string(b) == "null" {
		return 0
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(v) {
		return 0
	}
	return max(-MaxFloat, min(v, MaxFloat))
}

func float(s *jsonscan.Scanner, dst *Float) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	*dst = Float(parseFloat(raw))
	return nil
}

func floatPtr(s *jsonscan.Scanner, dst **Float) error {
	raw, err := s.Raw()
	if err != nil {
		return err
	}
	if string(raw) == "null" {
		*dst = nil
		return nil
	}
	f := Float(parseFloat(raw))
	*dst = &f
	return nil
}

// object decodes an optional object field into *dst (allocated on first sight) with fields.
func object[T any](s *jsonscan.Scanner, name string, dst **T, fields func(v *T, k []byte) error) error {
	v := *dst
	if v == nil {
		v = new(T)
	}
	ok, err := s.Object(name, func(k []byte) error { return fields(v, k) })
	*dst = ptrIf(ok, v, *dst)
	return err
}

func decodeRepo(s *jsonscan.Scanner, dst **Repo) error {
	return object(s, "workspace.repo", dst, func(r *Repo, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "host"):
			return s.String("workspace.repo.host", &r.Host)
		case jsonscan.KeyIs(k, "owner"):
			return s.String("workspace.repo.owner", &r.Owner)
		case jsonscan.KeyIs(k, "name"):
			return s.String("workspace.repo.name", &r.Name)
		}
		return s.Skip()
	})
}

func rateWindow(s *jsonscan.Scanner, name string, dst **RateWindow) error {
	return object(s, name, dst, func(w *RateWindow, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "used_percentage"):
			return float(s, &w.UsedPct)
		case jsonscan.KeyIs(k, "resets_at"):
			return num(s, &w.ResetsAt)
		}
		return s.Skip()
	})
}

// decode reads one top-level field of the statusline payload that More holds; other keys
// are skipped.
func (m *More) decode(s *jsonscan.Scanner, k []byte) error {
	switch {
	case jsonscan.KeyIs(k, "session_name"):
		return s.String("session_name", &m.SessionName)
	case jsonscan.KeyIs(k, "fast_mode"):
		return s.BoolPtr("fast_mode", &m.FastMode)
	case jsonscan.KeyIs(k, "output_style"):
		return object(s, "output_style", &m.OutputStyle, func(o *OutputStyle, k []byte) error {
			if jsonscan.KeyIs(k, "name") {
				return s.String("output_style.name", &o.Name)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "effort"):
		return object(s, "effort", &m.Effort, func(e *Effort, k []byte) error {
			if jsonscan.KeyIs(k, "level") {
				return s.String("effort.level", &e.Level)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "thinking"):
		return object(s, "thinking", &m.Thinking, func(t *Thinking, k []byte) error {
			if jsonscan.KeyIs(k, "enabled") {
				return s.BoolPtr("thinking.enabled", &t.Enabled)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "vim"):
		return object(s, "vim", &m.Vim, func(v *Vim, k []byte) error {
			if jsonscan.KeyIs(k, "mode") {
				return s.String("vim.mode", &v.Mode)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "agent"):
		return object(s, "agent", &m.Agent, func(a *Agent, k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "name"):
				return s.String("agent.name", &a.Name)
			case jsonscan.KeyIs(k, "type"):
				return s.String("agent.type", &a.Type)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "pr"):
		return object(s, "pr", &m.PR, func(p *PR, k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "number"):
				return num(s, &p.Number)
			case jsonscan.KeyIs(k, "url"):
				return s.String("pr.url", &p.URL)
			case jsonscan.KeyIs(k, "review_state"):
				return s.String("pr.review_state", &p.ReviewState)
			case jsonscan.KeyIs(k, "kind"):
				return s.String("pr.kind", &p.Kind)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "worktree"):
		return object(s, "worktree", &m.Worktree, func(w *Worktree, k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "name"):
				return s.String("worktree.name", &w.Name)
			case jsonscan.KeyIs(k, "path"):
				return s.String("worktree.path", &w.Path)
			case jsonscan.KeyIs(k, "branch"):
				return s.String("worktree.branch", &w.Branch)
			case jsonscan.KeyIs(k, "original_cwd"):
				return s.String("worktree.original_cwd", &w.OriginalCwd)
			case jsonscan.KeyIs(k, "original_branch"):
				return s.String("worktree.original_branch", &w.OriginalBranch)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "cost"):
		return object(s, "cost", &m.Cost, func(c *Cost, k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "total_cost_usd"):
				return float(s, &c.USD)
			case jsonscan.KeyIs(k, "total_duration_ms"):
				return num(s, &c.DurationMS)
			case jsonscan.KeyIs(k, "total_api_duration_ms"):
				return num(s, &c.APIDurationMS)
			case jsonscan.KeyIs(k, "total_lines_added"):
				return num(s, &c.LinesAdded)
			case jsonscan.KeyIs(k, "total_lines_removed"):
				return num(s, &c.LinesRemoved)
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "rate_limits"):
		return object(s, "rate_limits", &m.RateLimits, func(r *RateLimits, k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "five_hour"):
				return rateWindow(s, "rate_limits.five_hour", &r.FiveHour)
			case jsonscan.KeyIs(k, "seven_day"):
				return rateWindow(s, "rate_limits.seven_day", &r.SevenDay)
			case jsonscan.KeyIs(k, "spend_limit"):
				return object(s, "rate_limits.spend_limit", &r.Spend, func(l *SpendLimit, k []byte) error {
					switch {
					case jsonscan.KeyIs(k, "used_percentage"):
						return float(s, &l.UsedPct)
					case jsonscan.KeyIs(k, "resets_at"):
						return num(s, &l.ResetsAt)
					case jsonscan.KeyIs(k, "used_usd"):
						return floatPtr(s, &l.UsedUSD)
					case jsonscan.KeyIs(k, "limit_usd"):
						return floatPtr(s, &l.LimitUSD)
					case jsonscan.KeyIs(k, "period"):
						return s.String("rate_limits.spend_limit.period", &l.Period)
					}
					return s.Skip()
				})
			}
			return s.Skip()
		})
	case jsonscan.KeyIs(k, "prompt_cache"):
		return object(s, "prompt_cache", &m.PromptCache, func(c *PromptCache, k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "warm"):
				return s.BoolPtr("prompt_cache.warm", &c.Warm)
			case jsonscan.KeyIs(k, "caching_observed"):
				return s.BoolPtr("prompt_cache.caching_observed", &c.CachingObserved)
			case jsonscan.KeyIs(k, "ttl"):
				return s.String("prompt_cache.ttl", &c.TTL)
			case jsonscan.KeyIs(k, "expires_at"):
				return numPtr(s, &c.ExpiresAt)
			case jsonscan.KeyIs(k, "requests"):
				return num(s, &c.Requests)
			case jsonscan.KeyIs(k, "misses"):
				return num(s, &c.Misses)
			case jsonscan.KeyIs(k, "hit_ratio"):
				return floatPtr(s, &c.HitRatio)
			case jsonscan.KeyIs(k, "recache_tokens_if_cold"):
				return numPtr(s, &c.RecacheIfCold)
			case jsonscan.KeyIs(k, "last_miss_cause"):
				return object(s, "prompt_cache.last_miss_cause", &c.LastMissCause, func(mc *MissCause, k []byte) error {
					if !jsonscan.KeyIs(k, "causes") {
						return s.Skip()
					}
					mc.Causes = mc.Causes[:0]
					_, err := s.Array("prompt_cache.last_miss_cause.causes", func() error {
						var v string
						if err := s.String("prompt_cache.last_miss_cause.causes", &v); err != nil {
							return err
						}
						if v != "" && len(mc.Causes) < maxCauses {
							mc.Causes = append(mc.Causes, v)
						}
						return nil
					})
					return err
				})
			}
			return s.Skip()
		})
	}
	return s.Skip()
}
