package payload

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// moreView is every field the extra segments read, as plain values: what the scanner decodes
// must equal what encoding/json reads from the same file through the strict schema.
type moreView struct {
	SessionName, Style, Effort, Vim, Agent, Repo, GitWorktree, Worktree string
	PRNumber                                                            int64
	PRState, PRKind                                                     string
	CostUSD                                                             float64
	Duration, Added, Removed                                            int64
	Thinking, Fast                                                      *bool
	FiveHour, SevenDay                                                  [2]float64 // pct, resets_at; -1 absent
	Spend                                                               [3]float64 // pct, used, limit
	CacheWarm, CacheObserved                                            *bool
	CacheExpires, CacheRecache                                          int64 // -1 null
	CacheHit                                                            float64
	CacheCause                                                          string
}

func boolp(b bool) *bool { return &b }

func fromSchema(s *statuslineSchema) moreView {
	v := moreView{SessionName: s.SessionName, Style: s.OutputStyle.Name, GitWorktree: s.Workspace.GitWorktree,
		CostUSD: s.Cost.TotalCostUSD, Duration: s.Cost.TotalDurationMS, Added: s.Cost.TotalLinesAdded, Removed: s.Cost.TotalLinesRemoved,
		Thinking: boolp(s.Thinking.Enabled), Fast: boolp(s.FastMode),
		FiveHour: [2]float64{-1, -1}, SevenDay: [2]float64{-1, -1}, Spend: [3]float64{-1, -1, -1},
		CacheExpires: -1, CacheRecache: -1, CacheHit: -1}
	if s.Effort != nil {
		v.Effort = s.Effort.Level
	}
	if s.Vim != nil {
		v.Vim = s.Vim.Mode
	}
	if s.Agent != nil {
		v.Agent = s.Agent.Name
	}
	if r := s.Workspace.Repo; r != nil {
		v.Repo = r.Host + "/" + r.Owner + "/" + r.Name
	}
	if s.Worktree != nil {
		v.Worktree = s.Worktree.Name + "|" + s.Worktree.Branch + "|" + s.Worktree.Path
	}
	if s.PR != nil {
		v.PRNumber, v.PRState, v.PRKind = s.PR.Number, s.PR.ReviewState, s.PR.Kind
	}
	if rl := s.RateLimits; rl != nil {
		if rl.FiveHour != nil {
			v.FiveHour = [2]float64{rl.FiveHour.UsedPercentage, float64(rl.FiveHour.ResetsAt)}
		}
		if rl.SevenDay != nil {
			v.SevenDay = [2]float64{rl.SevenDay.UsedPercentage, float64(rl.SevenDay.ResetsAt)}
		}
		if sl := rl.SpendLimit; sl != nil {
			v.Spend = [3]float64{sl.UsedPercentage, -1, -1}
			if sl.UsedUSD != nil {
				v.Spend[1] = *sl.UsedUSD
			}
			if sl.LimitUSD != nil {
				v.Spend[2] = *sl.LimitUSD
			}
		}
	}
	if pc := s.PromptCache; pc != nil {
		v.CacheWarm, v.CacheObserved = boolp(pc.Warm), boolp(pc.CachingObserved)
		if pc.ExpiresAt != nil {
			v.CacheExpires = *pc.ExpiresAt
		}
		if pc.RecacheTokensIfCold != nil {
			v.CacheRecache = *pc.RecacheTokensIfCold
		}
		if pc.HitRatio != nil {
			v.CacheHit = *pc.HitRatio
		}
		if pc.LastMissCause != nil && len(pc.LastMissCause.Causes) > 0 {
			v.CacheCause = pc.LastMissCause.Causes[0]
		}
	}
	return v
}

func fromScan(p *Statusline) moreView {
	v := moreView{SessionName: p.SessionName, Thinking: boolp(false), Fast: boolp(false),
		FiveHour: [2]float64{-1, -1}, SevenDay: [2]float64{-1, -1}, Spend: [3]float64{-1, -1, -1},
		CacheExpires: -1, CacheRecache: -1, CacheHit: -1}
	if p.OutputStyle != nil {
		v.Style = p.OutputStyle.Name
	}
	if p.Workspace != nil {
		v.GitWorktree = p.Workspace.GitWorktree
		if r := p.Workspace.Repo; r != nil {
			v.Repo = r.Host + "/" + r.Owner + "/" + r.Name
		}
	}
	if c := p.Cost; c != nil {
		v.CostUSD, v.Duration, v.Added, v.Removed = float64(c.USD), int64(c.DurationMS), int64(c.LinesAdded), int64(c.LinesRemoved)
	}
	if p.Thinking != nil && p.Thinking.Enabled != nil {
		v.Thinking = p.Thinking.Enabled
	}
	if p.FastMode != nil {
		v.Fast = p.FastMode
	}
	if p.Effort != nil {
		v.Effort = p.Effort.Level
	}
	if p.Vim != nil {
		v.Vim = p.Vim.Mode
	}
	if p.Agent != nil {
		v.Agent = p.Agent.Name
	}
	if p.Worktree != nil {
		v.Worktree = p.Worktree.Name + "|" + p.Worktree.Branch + "|" + p.Worktree.Path
	}
	if p.PR != nil {
		v.PRNumber, v.PRState, v.PRKind = int64(p.PR.Number), p.PR.ReviewState, p.PR.Kind
	}
	if rl := p.RateLimits; rl != nil {
		if rl.FiveHour != nil {
			v.FiveHour = [2]float64{float64(rl.FiveHour.UsedPct), float64(rl.FiveHour.ResetsAt)}
		}
		if rl.SevenDay != nil {
			v.SevenDay = [2]float64{float64(rl.SevenDay.UsedPct), float64(rl.SevenDay.ResetsAt)}
		}
		if sl := rl.Spend; sl != nil {
			v.Spend = [3]float64{float64(sl.UsedPct), -1, -1}
			if sl.UsedUSD != nil {
				v.Spend[1] = float64(*sl.UsedUSD)
			}
			if sl.LimitUSD != nil {
				v.Spend[2] = float64(*sl.LimitUSD)
			}
		}
	}
	if pc := p.PromptCache; pc != nil {
		v.CacheWarm, v.CacheObserved = pc.Warm, pc.CachingObserved
		if pc.ExpiresAt != nil {
			v.CacheExpires = int64(*pc.ExpiresAt)
		}
		if pc.RecacheIfCold != nil {
			v.CacheRecache = int64(*pc.RecacheIfCold)
		}
		if pc.HitRatio != nil {
			v.CacheHit = float64(*pc.HitRatio)
		}
		if pc.LastMissCause != nil && len(pc.LastMissCause.Causes) > 0 {
			v.CacheCause = pc.LastMissCause.Causes[0]
		}
	}
	return v
}

// TestExtrasMatchSchema: for every recorded and documented payload, the fields the extra
// segments read decode to what the strict schema (TestSchemaDrift) reads, so a field the
// segments use cannot be missing from the schema or misread by the scanner.
func TestExtrasMatchSchema(t *testing.T) {
	sawLimits, sawPR := false, false
	for _, f := range fixtures(t, "statusline-*.json") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s statuslineSchema
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p, err := DecodeStatusline(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, got := fromSchema(&s), fromScan(p)
		if p.PromptCache == nil { // schema view reads absent bools as false
			want.CacheWarm, want.CacheObserved = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", filepath.Base(f), got, want)
		}
		sawLimits = sawLimits || s.RateLimits != nil
		sawPR = sawPR || s.PR != nil
	}
	if !sawLimits || !sawPR {
		t.Fatal("no fixture has rate_limits and pr: the documented fixtures are missing")
	}
}

func TestExtrasLenient(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(p *Statusline) bool
	}{
		{"absent", `{}`, func(p *Statusline) bool {
			m := p.Extras
			return m.RateLimits == nil && m.PromptCache == nil && m.Cost == nil && m.PR == nil && m.Vim == nil && m.Effort == nil && m.FastMode == nil
		}},
		{"null objects", `{"rate_limits":null,"prompt_cache":null,"cost":null,"pr":null,"vim":null,"worktree":null,"agent":null}`, func(p *Statusline) bool {
			m := p.Extras
			return m.RateLimits == nil && m.PromptCache == nil && m.Cost == nil && m.PR == nil && m.Vim == nil && m.Worktree == nil && m.Agent == nil
		}},
		{"null fields", `{"prompt_cache":{"expires_at":null,"hit_ratio":null,"last_miss_cause":null,"recache_tokens_if_cold":null,"warm":null}}`, func(p *Statusline) bool {
			c := p.PromptCache
			return c != nil && c.ExpiresAt == nil && c.HitRatio == nil && c.LastMissCause == nil && c.RecacheIfCold == nil && c.Warm == nil
		}},
		{"zero", `{"rate_limits":{"five_hour":{"used_percentage":0,"resets_at":0}},"cost":{"total_cost_usd":0}}`, func(p *Statusline) bool {
			return p.RateLimits.FiveHour != nil && p.RateLimits.FiveHour.UsedPct == 0 && p.Cost.USD == 0
		}},
		{"absurd numbers", `{"rate_limits":{"five_hour":{"used_percentage":1e400,"resets_at":-5}},"cost":{"total_cost_usd":"NaN","total_lines_added":1e300}}`, func(p *Statusline) bool {
			w := p.RateLimits.FiveHour
			return w.UsedPct == MaxFloat && w.ResetsAt == 0 && p.Cost.USD == 0 && p.Cost.LinesAdded == MaxTokens
		}},
		{"negative float", `{"cost":{"total_cost_usd":-3.5}}`, func(p *Statusline) bool { return p.Cost.USD == -3.5 }},
		{"numbers as strings", `{"pr":{"number":"42"},"cost":{"total_cost_usd":"0.25"}}`, func(p *Statusline) bool {
			return p.PR.Number == 42 && p.Cost.USD == 0.25
		}},
		{"wrong types keep the rest", `{"pr":"x","vim":{"mode":7},"agent":{"name":"a"},"rate_limits":[1]}`, func(p *Statusline) bool {
			return p.PR == nil && p.Vim != nil && p.Vim.Mode == "" && p.Agent.Name == "a" && p.RateLimits == nil
		}},
		{"causes capped", `{"prompt_cache":{"last_miss_cause":{"causes":["a","","b","c","d","e","f"]}}}`, func(p *Statusline) bool {
			c := p.PromptCache.LastMissCause.Causes
			return len(c) == maxCauses && c[0] == "a" && c[1] == "b"
		}},
		{"causes not strings", `{"prompt_cache":{"last_miss_cause":{"causes":[1,{"x":2},"ok"]}}}`, func(p *Statusline) bool {
			c := p.PromptCache.LastMissCause.Causes
			return len(c) == 1 && c[0] == "ok"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := DecodeStatusline([]byte(tt.in))
			if !tt.check(p) {
				t.Fatalf("decoded %+v", p.Extras)
			}
		})
	}
	if parseFloat([]byte("-Inf")) != -MaxFloat || !(math.Abs(float64(parseFloat([]byte(`"1.5"`)))-1.5) < 1e-9) {
		t.Fatal("parseFloat bounds")
	}
}
