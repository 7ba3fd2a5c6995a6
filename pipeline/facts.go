package pipeline

import (
	"time"

	"github.com/zoneline/zoneline/gitcache"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/statusline"
)

// factsFor turns the payload's fields beyond the context into the extra segments' facts
// (statusline.Facts). It is pure: the git cache and the compactions' reclaimed tokens are
// added by the caller. Text stays raw here: the segments sanitize it.
func factsFor(p *payload.Statusline, now time.Time) statusline.Facts {
	f := statusline.Facts{Now: now.Unix()}
	m := &p.Extras
	if rl := m.RateLimits; rl != nil {
		f.FiveHour, f.SevenDay = limitOf(rl.FiveHour), limitOf(rl.SevenDay)
		if s := rl.Spend; s != nil {
			f.Spend = statusline.Spend{Known: true, Pct: float64(s.UsedPct), ResetsAt: int64(s.ResetsAt), Period: s.Period}
			if s.UsedUSD != nil && s.LimitUSD != nil {
				f.Spend.USDKnown, f.Spend.Used, f.Spend.LimitUSD = true, float64(*s.UsedUSD), float64(*s.LimitUSD)
			}
		}
	}
	if c := m.Cost; c != nil {
		f.Cost = statusline.Money{Known: true, USD: float64(c.USD)}
		f.DurationMS = int64(c.DurationMS)
		f.LinesKnown, f.LinesAdded, f.LinesDrop = true, int64(c.LinesAdded), int64(c.LinesRemoved)
	}
	if m.Effort != nil {
		f.Effort = m.Effort.Level
	}
	if m.OutputStyle != nil {
		f.Style = m.OutputStyle.Name
	}
	if m.Vim != nil {
		f.Vim = m.Vim.Mode
	}
	f.Fast = m.FastMode != nil && *m.FastMode
	f.Thinking = m.Thinking != nil && m.Thinking.Enabled != nil && *m.Thinking.Enabled
	if c := m.PromptCache; c != nil && c.CachingObserved != nil && *c.CachingObserved {
		f.Cache = statusline.Cache{Known: true, Warm: c.Warm != nil && *c.Warm, HitRatio: -1, Recache: -1,
			Misses: int64(c.Misses), TTL: c.TTL}
		if c.ExpiresAt != nil {
			f.Cache.ExpiresAt = int64(*c.ExpiresAt)
		}
		if c.HitRatio != nil {
			f.Cache.HitRatio = float64(*c.HitRatio)
		}
		if c.RecacheIfCold != nil {
			f.Cache.Recache = int64(*c.RecacheIfCold)
		}
		if mc := c.LastMissCause; mc != nil && len(mc.Causes) > 0 {
			f.Cache.MissCause = mc.Causes[0]
		}
	}
	if pr := m.PR; pr != nil {
		f.PRNumber, f.PRState, f.PRKind = int64(pr.Number), pr.ReviewState, pr.Kind
	}
	if w := p.Workspace; w != nil {
		if r := w.Repo; r != nil && r.Owner != "" && r.Name != "" {
			f.Repo = r.Owner + "/" + r.Name
		}
		f.Worktree = w.GitWorktree
	}
	if wt := m.Worktree; wt != nil && wt.Name != "" {
		f.Worktree = wt.Name
	}
	if a := m.Agent; a != nil {
		f.Agent = a.Name
	}
	return f
}

func limitOf(w *payload.RateWindow) statusline.Limit {
	if w == nil {
		return statusline.Limit{}
	}
	return statusline.Limit{Known: true, Pct: float64(w.UsedPct), ResetsAt: int64(w.ResetsAt)}
}

// gitFacts reads the git cache for the worktree at root on branch when the layout shows the
// git segment; refresh reports whether the entry is stale (the caller starts the refresher
// after printing). An entry whose git failed shows as "git ?" and is retried after its
// backoff. It reads one small file; it never starts a process.
func (c *Context) gitFacts(lines [][]string, root, branch string, now time.Time) (g statusline.Git, refresh bool) {
	if root == "" || !c.State.Usable() || !LayoutHas(lines, "git") {
		return g, false
	}
	ent, ok := gitcache.Load(c.State.Root, root)
	if ok && ent.Fresh(now, branch) {
		g = statusline.Git{Known: true, Dirty: ent.Dirty, Ahead: ent.Ahead, Behind: ent.Behind, Upstream: ent.Upstream}
	}
	g.Failed = ok && ent.Failed(branch)
	return g, gitcache.Stale(ent, ok, now, branch)
}

// LayoutHas reports whether a layout (nil: the default one) names segment.
func LayoutHas(lines [][]string, segment string) bool {
	if lines == nil {
		lines = statusline.DefaultLines
	}
	for _, l := range lines {
		for _, n := range l {
			if n == segment {
				return true
			}
		}
	}
	return false
}
