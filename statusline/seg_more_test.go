package statusline

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

const now = 1_795_980_000

func TestExtraSegments(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		seg, name string
		f         Facts
		want      string // "" hidden
		ascii     string // the ascii glyph set's text when it differs
	}{
		// limits
		{"limits", "absent", Facts{Now: now}, "", ""},
		{"limits", "both windows", Facts{Now: now, FiveHour: Limit{true, 42.4, now + 2*3600 + 13*60}, SevenDay: Limit{true, 91, now + 3*86400 + 4*3600}}, "5h 42% (2h13m) 7d 91% (3d4h)", ""},
		{"limits", "zero, reset unknown", Facts{Now: now, FiveHour: Limit{Known: true}}, "5h 0%", ""},
		{"limits", "reset passed", Facts{Now: now, SevenDay: Limit{true, 50, now - 5}}, "7d 50%", ""},
		{"limits", "no render time", Facts{FiveHour: Limit{true, 10, now + 60}}, "5h 10%", ""},
		{"limits", "absurd window dropped", Facts{Now: now, FiveHour: Limit{true, nan, now + 60}, SevenDay: Limit{true, 12, now + 59}}, "7d 12% (59s)", ""},
		{"limits", "absurd only", Facts{Now: now, FiveHour: Limit{true, 1e9, 0}, SevenDay: Limit{true, -1, 0}}, "", ""},
		{"limits", "reset absurdly far", Facts{Now: now, FiveHour: Limit{true, 5, now + 1e9}}, "5h 5%", ""},
		{"limits", "spend in dollars", Facts{Now: now, Spend: Spend{Known: true, Pct: 24, USDKnown: true, Used: 12, LimitUSD: 50, Period: "monthly", ResetsAt: now + 86400}}, "$12.00/$50.00 monthly (1d)", ""},
		{"limits", "spend percent", Facts{Now: now, Spend: Spend{Known: true, Pct: 130}}, "spend 130%", ""},
		// cost
		{"cost", "absent", Facts{}, "", ""},
		{"cost", "zero", Facts{Cost: Money{Known: true}}, "$0.00", ""},
		{"cost", "cents", Facts{Cost: Money{true, 0.19162499999999996}}, "$0.19", ""},
		{"cost", "rounds", Facts{Cost: Money{true, 12.345}}, "$12.35", ""},
		{"cost", "large", Facts{Cost: Money{true, 4321.9}}, "$4321", ""},
		{"cost", "negative", Facts{Cost: Money{true, -1}}, "", ""},
		{"cost", "NaN", Facts{Cost: Money{true, nan}}, "", ""},
		{"cost", "absurd", Facts{Cost: Money{true, 1e12}}, "", ""},
		// duration
		{"duration", "absent", Facts{}, "", ""},
		{"duration", "seconds", Facts{DurationMS: 16_559}, "16s", ""},
		{"duration", "minutes", Facts{DurationMS: 754_000}, "12m", ""},
		{"duration", "short minutes", Facts{DurationMS: 252_000}, "4m12s", ""},
		{"duration", "hours", Facts{DurationMS: 3_900_000}, "1h05m", ""},
		{"duration", "negative", Facts{DurationMS: -5}, "", ""},
		{"duration", "absurd", Facts{DurationMS: 1 << 62}, "", ""},
		// lines
		{"lines", "absent", Facts{}, "", ""},
		{"lines", "zero", Facts{LinesKnown: true}, "", ""},
		{"lines", "both", Facts{LinesKnown: true, LinesAdded: 120, LinesDrop: 37}, "+120 −37", "+120 -37"},
		{"lines", "absurd", Facts{LinesKnown: true, LinesAdded: 1 << 40}, "", ""},
		{"lines", "negative removed", Facts{LinesKnown: true, LinesAdded: 3, LinesDrop: -4}, "+3 −0", "+3 -0"},
		// effort, style, vim, flags
		{"effort", "absent", Facts{}, "", ""},
		{"effort", "high", Facts{Effort: "high"}, "effort high", ""},
		{"effort", "hostile", Facts{Effort: "x\x1b[31mred\u202e"}, "effort x[31mred", ""},
		{"style", "default hidden", Facts{Style: "default"}, "", ""},
		{"style", "named", Facts{Style: "Explanatory"}, "style Explanatory", ""},
		{"vim", "absent", Facts{}, "", ""},
		{"vim", "normal", Facts{Vim: "NORMAL"}, "NORMAL", ""},
		{"fast", "off", Facts{}, "", ""},
		{"fast", "on", Facts{Fast: true}, "fast", ""},
		{"thinking", "on", Facts{Thinking: true}, "thinking", ""},
		// cache
		{"cache", "absent", Facts{Now: now}, "", ""},
		{"cache", "warm", Facts{Now: now, Cache: Cache{Known: true, Warm: true, ExpiresAt: now + 252, HitRatio: 0.98}}, "cache 4m12s 98% hit", ""},
		{"cache", "warm, expiry unknown", Facts{Now: now, Cache: Cache{Known: true, Warm: true, HitRatio: -1}}, "cache warm", ""},
		{"cache", "warm but past expiry", Facts{Now: now, Cache: Cache{Known: true, Warm: true, ExpiresAt: now - 1, HitRatio: -1}}, "cache cold", ""},
		{"cache", "cold with cause", Facts{Now: now, Cache: Cache{Known: true, HitRatio: 0.87, MissCause: "ttl_expired_5m"}}, "cache cold 87% hit miss ttl_expired_5m", ""},
		{"cache", "zero ratio", Facts{Now: now, Cache: Cache{Known: true}}, "cache cold 0% hit", ""},
		{"cache", "absurd ratio", Facts{Now: now, Cache: Cache{Known: true, HitRatio: 7}}, "cache cold", ""},
		// git
		{"git", "unknown", Facts{}, "", ""},
		{"git", "clean", Facts{Git: Git{Known: true, Upstream: true}}, "clean", ""},
		{"git", "dirty ahead behind", Facts{Git: Git{Known: true, Dirty: 3, Ahead: 1, Behind: 2, Upstream: true}}, "*3 ↑1 ↓2", "*3 ^1 v2"},
		{"git", "no upstream", Facts{Git: Git{Known: true, Dirty: 1, Ahead: 4}}, "*1", ""},
		{"git", "git failed", Facts{Git: Git{Failed: true}}, "git ?", ""},
		// pr, repo, worktree, agent
		{"pr", "absent", Facts{}, "", ""},
		{"pr", "github", Facts{PRNumber: 1234, PRState: "changes_requested"}, "PR #1234 changes requested", ""},
		{"pr", "gitlab", Facts{PRNumber: 12, PRState: "approved", PRKind: "mr"}, "MR !12 approved", ""},
		{"pr", "no state", Facts{PRNumber: 7}, "PR #7", ""},
		{"pr", "unknown state", Facts{PRNumber: 7, PRState: "merged\x07"}, "PR #7 merged", ""},
		{"pr", "zero", Facts{PRNumber: 0}, "", ""},
		{"repo", "named", Facts{Repo: "anthropics/claude-code"}, "anthropics/claude-code", ""},
		{"repo", "long", Facts{Repo: strings.Repeat("a", 60)}, strings.Repeat("a", 40) + "…", strings.Repeat("a", 40) + "…"},
		{"worktree", "named", Facts{Worktree: "my-feature"}, "wt my-feature", ""},
		{"agent", "named", Facts{Agent: "code-architect"}, "agent code-architect", ""},
		// compactions with reclaimed tokens
		{"compactions", "reclaimed", Facts{Reclaimed: 280_500}, "↻2 -280k", "c2 -280k"},
	}
	for _, tt := range tests {
		t.Run(tt.seg+"/"+tt.name, func(t *testing.T) {
			f := tt.f
			v := View{Zone: zones.Smart, Tokens: 1000, Window: 200_000, Facts: f, Compactions: 2}
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
		c    Cache
		want string
	}{
		{"no cache", "dumb", Cache{}, "⚑ /compact-prep"},
		{"warm", "dumb", Cache{Known: true, Warm: true, ExpiresAt: now + 200}, "⚑ /compact-prep (cache 3m20s left)"},
		{"expiring", "dumb", Cache{Known: true, Warm: true, ExpiresAt: now + CacheSoon - 1}, "⚑ /compact-prep (cache expiring: good moment)"},
		{"cold", TierReady, Cache{Known: true}, "⚑ /compact (cache cold: good moment)"},
		{"expired", "imminent", Cache{Known: true, Warm: true, ExpiresAt: now - 10}, "⚑ /compact-prep (cache cold: good moment)"},
		{"warm, expiry unknown", "dumb", Cache{Known: true, Warm: true}, "⚑ /compact-prep (cache warm)"},
		{"no tier", "", Cache{Known: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := View{Zone: zones.Dumb, Tier: tt.tier, Facts: Facts{Now: now, Cache: tt.c}}
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
func fullFacts() Facts {
	return Facts{
		Now:      now,
		FiveHour: Limit{true, 42, now + 7980}, SevenDay: Limit{true, 91, now + 273600},
		Cost: Money{true, 1.23}, DurationMS: 754_000, LinesKnown: true, LinesAdded: 120, LinesDrop: 37,
		Effort: "high", Style: "Explanatory", Vim: "NORMAL", Fast: true, Thinking: true,
		Cache:    Cache{Known: true, Warm: true, ExpiresAt: now + 252, HitRatio: 0.98, MissCause: "tools_changed", Misses: 1},
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
	v.Tier, v.Facts = "dumb", fullFacts()
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
