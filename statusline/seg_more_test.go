package statusline

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/zones"
)

const now = 1_795_980_000

func TestExtraSegments(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		seg, name string
		f         facts
		want      string // "" hidden
		ascii     string // the ascii glyph set's text when it differs
	}{
		// limits
		{"limits", "absent", facts{Now: now}, "", ""},
		{"limits", "both windows", facts{Now: now, FiveHour: limit{true, 42.4, now + 2*3600 + 13*60}, SevenDay: limit{true, 91, now + 3*86400 + 4*3600}}, "5h 42% (2h13m) 7d 91% (3d4h)", ""},
		{"limits", "zero, reset unknown", facts{Now: now, FiveHour: limit{Known: true}}, "5h 0%", ""},
		{"limits", "reset passed", facts{Now: now, SevenDay: limit{true, 50, now - 5}}, "7d 50%", ""},
		{"limits", "no render time", facts{FiveHour: limit{true, 10, now + 60}}, "5h 10%", ""},
		{"limits", "absurd window dropped", facts{Now: now, FiveHour: limit{true, nan, now + 60}, SevenDay: limit{true, 12, now + 59}}, "7d 12% (59s)", ""},
		{"limits", "absurd only", facts{Now: now, FiveHour: limit{true, 1e9, 0}, SevenDay: limit{true, -1, 0}}, "", ""},
		{"limits", "reset absurdly far", facts{Now: now, FiveHour: limit{true, 5, now + 1e9}}, "5h 5%", ""},
		{"limits", "spend in dollars", facts{Now: now, Spend: spend{Known: true, Pct: 24, USDKnown: true, Used: 12, LimitUSD: 50, Period: "monthly", ResetsAt: now + 86400}}, "$12.00/$50.00 monthly (1d)", ""},
		{"limits", "spend percent", facts{Now: now, Spend: spend{Known: true, Pct: 130}}, "spend 130%", ""},
		// cost
		{"cost", "absent", facts{}, "", ""},
		{"cost", "zero", facts{Cost: money{Known: true}}, "$0.00", ""},
		{"cost", "cents", facts{Cost: money{true, 0.19162499999999996}}, "$0.19", ""},
		{"cost", "rounds", facts{Cost: money{true, 12.345}}, "$12.35", ""},
		{"cost", "large", facts{Cost: money{true, 4321.9}}, "$4321", ""},
		{"cost", "negative", facts{Cost: money{true, -1}}, "", ""},
		{"cost", "NaN", facts{Cost: money{true, nan}}, "", ""},
		{"cost", "absurd", facts{Cost: money{true, 1e12}}, "", ""},
		// duration
		{"duration", "absent", facts{}, "", ""},
		{"duration", "seconds", facts{DurationMS: 16_559}, "16s", ""},
		{"duration", "minutes", facts{DurationMS: 754_000}, "12m", ""},
		{"duration", "short minutes", facts{DurationMS: 252_000}, "4m12s", ""},
		{"duration", "hours", facts{DurationMS: 3_900_000}, "1h05m", ""},
		{"duration", "negative", facts{DurationMS: -5}, "", ""},
		{"duration", "absurd", facts{DurationMS: 1 << 62}, "", ""},
		// lines
		{"lines", "absent", facts{}, "", ""},
		{"lines", "zero", facts{LinesKnown: true}, "", ""},
		{"lines", "both", facts{LinesKnown: true, LinesAdded: 120, LinesDrop: 37}, "+120 −37", "+120 -37"},
		{"lines", "absurd", facts{LinesKnown: true, LinesAdded: 1 << 40}, "", ""},
		{"lines", "negative removed", facts{LinesKnown: true, LinesAdded: 3, LinesDrop: -4}, "+3 −0", "+3 -0"},
		// effort, style, vim, flags
		{"effort", "absent", facts{}, "", ""},
		{"effort", "high", facts{Effort: "high"}, "effort high", ""},
		{"effort", "hostile", facts{Effort: "x\x1b[31mred\u202e"}, "effort x[31mred", ""},
		{"style", "default hidden", facts{Style: "default"}, "", ""},
		{"style", "named", facts{Style: "Explanatory"}, "style Explanatory", ""},
		{"vim", "absent", facts{}, "", ""},
		{"vim", "normal", facts{Vim: "NORMAL"}, "NORMAL", ""},
		{"fast", "off", facts{}, "", ""},
		{"fast", "on", facts{Fast: true}, "fast", ""},
		{"thinking", "on", facts{Thinking: true}, "thinking", ""},
		// cache
		{"cache", "absent", facts{Now: now}, "", ""},
		{"cache", "warm", facts{Now: now, Cache: cache{Known: true, Warm: true, ExpiresAt: now + 252, HitRatio: 0.98}}, "cache 4m12s 98% hit", ""},
		{"cache", "warm, expiry unknown", facts{Now: now, Cache: cache{Known: true, Warm: true, HitRatio: -1}}, "cache warm", ""},
		{"cache", "warm but past expiry", facts{Now: now, Cache: cache{Known: true, Warm: true, ExpiresAt: now - 1, HitRatio: -1}}, "cache cold", ""},
		{"cache", "cold with cause", facts{Now: now, Cache: cache{Known: true, HitRatio: 0.87, MissCause: "ttl_expired_5m"}}, "cache cold 87% hit miss ttl_expired_5m", ""},
		{"cache", "zero ratio", facts{Now: now, Cache: cache{Known: true}}, "cache cold 0% hit", ""},
		{"cache", "absurd ratio", facts{Now: now, Cache: cache{Known: true, HitRatio: 7}}, "cache cold", ""},
		// git
		{"git", "unknown", facts{}, "", ""},
		{"git", "clean", facts{Git: Git{Known: true, Upstream: true}}, "clean", ""},
		{"git", "dirty ahead behind", facts{Git: Git{Known: true, Dirty: 3, Ahead: 1, Behind: 2, Upstream: true}}, "*3 ↑1 ↓2", "*3 ^1 v2"},
		{"git", "no upstream", facts{Git: Git{Known: true, Dirty: 1, Ahead: 4}}, "*1", ""},
		{"git", "git failed", facts{Git: Git{Failed: true}}, "git ?", ""},
		// pr, repo, worktree, agent
		{"pr", "absent", facts{}, "", ""},
		{"pr", "github", facts{PRNumber: 1234, PRState: "changes_requested"}, "PR #1234 changes requested", ""},
		{"pr", "gitlab", facts{PRNumber: 12, PRState: "approved", PRKind: "mr"}, "MR !12 approved", ""},
		{"pr", "no state", facts{PRNumber: 7}, "PR #7", ""},
		{"pr", "unknown state", facts{PRNumber: 7, PRState: "merged\x07"}, "PR #7 merged", ""},
		{"pr", "zero", facts{PRNumber: 0}, "", ""},
		{"repo", "named", facts{Repo: "anthropics/claude-code"}, "anthropics/claude-code", ""},
		{"repo", "long", facts{Repo: strings.Repeat("a", 30) + "/" + strings.Repeat("b", 30)}, strings.Repeat("a", 30) + "/" + strings.Repeat("b", 9) + "…", strings.Repeat("a", 30) + "/" + strings.Repeat("b", 9) + "…"},
		{"worktree", "named", facts{Worktree: "my-feature"}, "wt my-feature", ""},
		{"agent", "named", facts{Agent: "code-architect"}, "agent code-architect", ""},
		// compactions with reclaimed tokens
		{"compactions", "reclaimed", facts{Reclaimed: 280_500}, "↻2 -280k", "c2 -280k"},
	}
	for _, tt := range tests {
		t.Run(tt.seg+"/"+tt.name, func(t *testing.T) {
			v := tt.f.view(View{Zone: zones.Smart, Tokens: 1000, Window: 200_000, Compactions: 2})
			for _, g := range []string{"unicode", "ascii"} {
				want := tt.want
				if g == "ascii" && tt.ascii != "" {
					want = tt.ascii
				}
				got := Render(v, Options{Profile: termcolor.Ascii, Glyphs: g, Lines: [][]string{{tt.seg}}})
				if got != want {
					t.Errorf("%s: got %q, want %q", g, got, want)
				}
				for _, p := range allProfiles {
					line := Render(v, Options{Profile: p.p, Glyphs: g, Lines: [][]string{{"zone", tt.seg}}, Width: 30})
					checkLine(t, line, 30, false)
				}
			}
		})
	}
}

// The pending step (nudge) adds what the prompt cache means for compacting now.
func TestNudgeKnowsTheCache(t *testing.T) {
	tests := []struct {
		name string
		tier string
		c    cache
		want string
	}{
		{"no cache", "dumb", cache{}, "⚑ /compact-prep"},
		{"warm", "dumb", cache{Known: true, Warm: true, ExpiresAt: now + 200}, "⚑ /compact-prep (cache 3m20s left)"},
		{"expiring", "dumb", cache{Known: true, Warm: true, ExpiresAt: now + CacheSoon - 1}, "⚑ /compact-prep (cache expiring: good moment)"},
		{"cold", TierReady, cache{Known: true}, "⚑ /compact (cache cold: good moment)"},
		{"expired", "imminent", cache{Known: true, Warm: true, ExpiresAt: now - 10}, "⚑ /compact-prep (cache cold: good moment)"},
		{"warm, expiry unknown", "dumb", cache{Known: true, Warm: true}, "⚑ /compact-prep (cache warm)"},
		{"no tier", "", cache{Known: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := facts{Now: now, Cache: tt.c}.view(View{Zone: zones.Dumb, Tier: tt.tier})
			if got := Render(v, Options{Profile: termcolor.Ascii, Lines: [][]string{{"nudge"}}}); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAppendCountdown(t *testing.T) {
	for secs, want := range map[int64]string{-3: "0s", 0: "0s", 9: "9s", 60: "1m", 61: "1m01s", 599: "9m59s", 600: "10m", 3599: "59m",
		3600: "1h00m", 7980: "2h13m", 86400: "1d", 90000: "1d1h", 400 * 86400: "400d"} {
		if got := string(appendCountdown(nil, secs)); got != want {
			t.Errorf("appendCountdown(%d) = %q, want %q", secs, got, want)
		}
	}
}

// fullFacts is every extra segment with something to show.
func fullFacts() facts {
	return facts{
		Now:      now,
		FiveHour: limit{true, 42, now + 7980}, SevenDay: limit{true, 91, now + 273600},
		Cost: money{true, 1.23}, DurationMS: 754_000, LinesKnown: true, LinesAdded: 120, LinesDrop: 37,
		Effort: "high", Style: "Explanatory", Vim: "NORMAL", Fast: true, Thinking: true,
		Cache:    cache{Known: true, Warm: true, ExpiresAt: now + 252, HitRatio: 0.98, MissCause: "tools_changed", Misses: 1},
		Git:      Git{Known: true, Dirty: 3, Ahead: 1, Behind: 2, Upstream: true},
		PRNumber: 1234, PRState: "approved", Repo: "anthropics/claude-code", Worktree: "my-feature", Agent: "code-architect",
		Reclaimed: 280_000,
	}
}

// allLayout names every segment on two lines.
var allLayout = [][]string{
	{"zone", "tokens", "bar", "percent", "compact", "nudge", "limits", "cache", "cost", "model", "dir", "branch", "git", "compactions", "problems"},
	{"pr", "repo", "worktree", "agent", "duration", "lines", "effort", "style", "vim", "fast", "thinking"},
}

// TestGoldenAllSegments keeps testdata/all-segments.golden: every segment, every glyph set and
// profile, unfitted and fitted (the extra segments drop before the context's).
func TestGoldenAllSegments(t *testing.T) {
	v := dumbView()
	v.Tier = "dumb"
	v = fullFacts().view(v)
	var b strings.Builder
	for _, g := range allGlyphs {
		for _, p := range allProfiles {
			for _, w := range []int{0, 120, 80, 40} {
				b.WriteString("## glyphs=" + g + " color=" + p.name + " width=" + strconv.Itoa(w) + "\n")
				out := Render(v, Options{Profile: p.p, Glyphs: g, Width: w, Lines: allLayout})
				for _, line := range strings.Split(out, "\n") {
					checkLine(t, line, w, false)
				}
				b.WriteString(strings.ReplaceAll(out, "\x1b", `\e`) + "\n")
			}
		}
	}
	checkGolden(t, "all-segments", b.String())
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the render (go test -run TestGolden -update to accept):\n%s", path, diff(string(want), got))
	}
}

// facts is what a row of these tables shows, written short; view puts it where a render finds
// it: the payload's fields, the git cache, the render's time, the reclaimed tokens.
type facts struct {
	Now                   int64
	FiveHour, SevenDay    limit
	Spend                 spend
	Cost                  money
	DurationMS            int64
	LinesKnown            bool
	LinesAdded, LinesDrop int64
	Effort, Style, Vim    string
	Fast, Thinking        bool
	Cache                 cache
	Git                   Git
	PRNumber              int64
	PRState, PRKind       string
	Repo, Worktree, Agent string
	Reclaimed             int64
}

type limit struct {
	Known    bool
	Pct      float64
	ResetsAt int64
}

type spend struct {
	Known          bool
	Pct            float64
	USDKnown       bool
	Used, LimitUSD float64
	ResetsAt       int64
	Period         string
}

type money struct {
	Known bool
	USD   float64
}

type cache struct {
	Known, Warm bool
	ExpiresAt   int64
	HitRatio    float64 // < 0 unknown
	MissCause   string
	Misses      int64
}

func ptr[T any](v T) *T { return &v }

func (l limit) window() *payload.RateWindow {
	if !l.Known {
		return nil
	}
	return &payload.RateWindow{UsedPct: payload.Float(l.Pct), ResetsAt: payload.Num(l.ResetsAt)}
}

func (f facts) view(v View) View {
	p := &v.Payload
	v.Now, v.Git, v.Reclaimed = f.Now, f.Git, f.Reclaimed
	if f.FiveHour.Known || f.SevenDay.Known || f.Spend.Known {
		p.RateLimits = &payload.RateLimits{FiveHour: f.FiveHour.window(), SevenDay: f.SevenDay.window()}
		if s := f.Spend; s.Known {
			p.RateLimits.Spend = &payload.SpendLimit{UsedPct: payload.Float(s.Pct), ResetsAt: payload.Num(s.ResetsAt), Period: s.Period}
			if s.USDKnown {
				p.RateLimits.Spend.UsedUSD, p.RateLimits.Spend.LimitUSD = ptr(payload.Float(s.Used)), ptr(payload.Float(s.LimitUSD))
			}
		}
	}
	if f.Cost.Known || f.DurationMS != 0 || f.LinesKnown {
		p.Cost = &payload.Cost{USD: payload.Float(f.Cost.USD), DurationMS: payload.Num(f.DurationMS),
			LinesAdded: payload.Num(f.LinesAdded), LinesRemoved: payload.Num(f.LinesDrop)}
		if !f.Cost.Known {
			p.Cost.USD = -1 // hidden
		}
	}
	if f.Effort != "" {
		p.Effort = &payload.Effort{Level: f.Effort}
	}
	if f.Style != "" {
		p.OutputStyle = &payload.OutputStyle{Name: f.Style}
	}
	if f.Vim != "" {
		p.Vim = &payload.Vim{Mode: f.Vim}
	}
	p.FastMode, p.Thinking = ptr(f.Fast), &payload.Thinking{Enabled: ptr(f.Thinking)}
	if c := f.Cache; c.Known {
		p.PromptCache = &payload.PromptCache{CachingObserved: ptr(true), Warm: ptr(c.Warm), Misses: payload.Num(c.Misses)}
		if c.ExpiresAt != 0 {
			p.PromptCache.ExpiresAt = ptr(payload.Num(c.ExpiresAt))
		}
		if c.HitRatio >= 0 || c.HitRatio != c.HitRatio {
			p.PromptCache.HitRatio = ptr(payload.Float(c.HitRatio))
		}
		if c.MissCause != "" {
			p.PromptCache.LastMissCause = &payload.MissCause{Causes: []string{c.MissCause}}
		}
	}
	if f.PRNumber != 0 {
		p.PR = &payload.PR{Number: payload.Num(f.PRNumber), ReviewState: f.PRState, Kind: f.PRKind}
	}
	if owner, name, ok := strings.Cut(f.Repo, "/"); ok {
		p.Workspace = &payload.Workspace{Repo: &payload.Repo{Owner: owner, Name: name}}
	}
	if f.Worktree != "" {
		p.Worktree = &payload.Worktree{Name: f.Worktree}
	}
	if f.Agent != "" {
		p.Agent = &payload.Agent{Name: f.Agent}
	}
	return v
}
