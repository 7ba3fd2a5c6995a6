//go:build unix

package e2e

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// gatewayToken is an ANTHROPIC_AUTH_TOKEN whose JWT audience is "claude-gateway": with a base
// URL off api.anthropic.com, Claude Code 2.1.332 then reads the unified rate-limit headers of
// its responses (its ote(): GCe() && S7t(ANTHROPIC_AUTH_TOKEN)) and fills the statusline
// payload's rate_limits, as it does for a Claude.ai subscriber. The signature is not checked.
func gatewayToken() string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc([]byte(`{"aud":"claude-gateway","sub":"zoneline-e2e"}`)) + ".e2e"
}

// capturedPayload is one statusline payload capture.py recorded.
type capturedPayload struct {
	Stdin struct {
		Cost struct {
			USD float64 `json:"total_cost_usd"`
		} `json:"cost"`
		RateLimits *struct {
			FiveHour *struct {
				Pct      float64 `json:"used_percentage"`
				ResetsAt int64   `json:"resets_at"`
			} `json:"five_hour"`
			SevenDay *struct {
				Pct      float64 `json:"used_percentage"`
				ResetsAt int64   `json:"resets_at"`
			} `json:"seven_day"`
		} `json:"rate_limits"`
		PromptCache *struct {
			Warm      bool     `json:"warm"`
			Observed  bool     `json:"caching_observed"`
			ExpiresAt *int64   `json:"expires_at"`
			HitRatio  *float64 `json:"hit_ratio"`
		} `json:"prompt_cache"`
	} `json:"stdin"`
	Exec struct {
		Stdout string `json:"stdout"`
	} `json:"exec"`
}

func lastPayload(path string) (capturedPayload, bool) {
	f, err := os.Open(path)
	if err != nil {
		return capturedPayload{}, false
	}
	defer f.Close()
	var last capturedPayload
	ok := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		var p capturedPayload
		if json.Unmarshal(sc.Bytes(), &p) == nil {
			last, ok = p, true
		}
	}
	return last, ok
}

// TestStatuslineLimitsCostCache runs zoneline as Claude Code's statusLine with the limits,
// cache and cost segments on, against a mock that sends the unified rate-limit headers: the
// pane shows the 5-hour and 7-day usage with their resets, the cost and the prompt cache with
// the figures of the payload Claude Code sent. zoneline prints truecolor while Claude Code
// draws 256 colours (TERM=xterm-256color, no COLORTERM): the dumb zone word must stay red
// after Claude Code's conversion (red dominant, green and blue at most 110).
func TestStatuslineLimitsCostCache(t *testing.T) {
	Require(t)
	bins := Build(t)
	s := Start(t, Options{
		Model:    "claude-sonnet-4-5-20250929",
		MockArgs: []string{"--base=150000", "--step=2000", "--ratelimit-5h=0.42:7980", "--ratelimit-7d=0.18:273600"},
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command",
				"command": "{{CAPTURE}} --log {{OUT}}/statusline.jsonl --label statusline --exec " + ShellQuote(bins.Zoneline) + " statusline"},
		},
		Env: map[string]string{
			"ZONELINE_STATE_DIR":   "{{WORK}}/state",
			"ZONELINE_CONFIG":      "{{WORK}}/config.toml",
			"XDG_CONFIG_HOME":      "{{WORK}}/xdg/config",
			"XDG_STATE_HOME":       "{{WORK}}/xdg/state",
			"XDG_RUNTIME_DIR":      "{{WORK}}/xdg/run",
			"ANTHROPIC_AUTH_TOKEN": gatewayToken(),
		},
		BeforeLaunch: func(s *Session) {
			cfg := "color = \"truecolor\"\n[statusline]\nlines = [[\"zone\", \"tokens\", \"percent\", \"nudge\", \"limits\", \"cache\", \"cost\", \"model\", \"dir\", \"branch\", \"git\"]]\n"
			if err := os.WriteFile(filepath.Join(s.Work, "config.toml"), []byte(cfg), 0o600); err != nil {
				s.t.Fatal(err)
			}
			// The project is a git checkout with one untracked file, for the git segment.
			for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "init"}} {
				cmd := exec.Command("git", append([]string{"-C", s.Proj, "-c", "user.name=e2e", "-c", "user.email=e2e@zoneline.invalid"}, args...)...)
				if out, err := cmd.CombinedOutput(); err != nil {
					s.t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			if err := os.WriteFile(filepath.Join(s.Proj, "untracked.txt"), []byte("x\n"), 0o644); err != nil {
				s.t.Fatal(err)
			}
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	s.Prompt("hello")
	capture := filepath.Join(s.Out, "statusline.jsonl")

	var p capturedPayload
	var want []*regexp.Regexp
	area, plain := statusArea(s, "limits", func(plain string) bool {
		var ok bool
		if p, ok = lastPayload(capture); !ok || p.Stdin.RateLimits == nil || p.Stdin.PromptCache == nil {
			return false
		}
		want = wantFigures(p)
		for _, re := range want {
			if !re.MatchString(plain) {
				return false
			}
		}
		return true
	})
	t.Logf("status line %q", plain)
	if p.Stdin.RateLimits == nil || p.Stdin.RateLimits.FiveHour == nil || p.Stdin.RateLimits.SevenDay == nil {
		t.Fatalf("Claude Code sent no rate_limits (five_hour and seven_day) in the statusline payload: %+v", p.Stdin.RateLimits)
	}
	if p.Stdin.PromptCache == nil || !p.Stdin.PromptCache.Observed {
		t.Fatalf("Claude Code sent no prompt_cache with caching observed: %+v", p.Stdin.PromptCache)
	}
	if f := p.Stdin.RateLimits.FiveHour.Pct; f != 42 {
		t.Errorf("five_hour.used_percentage %v, want 42 (utilization 0.42)", f)
	}
	for _, re := range want {
		if !re.MatchString(plain) {
			t.Errorf("status line %q lacks %s", plain, re)
		}
	}
	// The zone word in the pane, after Claude Code's colour conversion.
	found := false
	for _, l := range area {
		c, ok := ColorAt(termcolor.Cells(l), "DUMB")
		if !ok {
			continue
		}
		found = true
		r, g, b, ok := c.RGB(&termcolor.XTerm16)
		t.Logf("DUMB drawn as %s (#%02x%02x%02x)", c, r, g, b)
		if !ok || r <= g || r <= b || g > 110 || b > 110 {
			t.Errorf("DUMB is %s (#%02x%02x%02x) in the 256-colour pane: want red dominant, green and blue ≤ 110", c, r, g, b)
		}
	}
	if !found {
		t.Errorf("no DUMB zone word in %q", area)
	}
	// What zoneline printed was truecolor: the pane's 256 colour is Claude Code's conversion.
	if !strings.Contains(p.Exec.Stdout, "38;2;240;70;60m● DUMB") {
		t.Errorf("zoneline's own line is not the truecolor dumb red: %q", p.Exec.Stdout)
	}

	// The git segment: the first renders started the refresher (detached, after printing);
	// a later render shows its figures beside the branch: one untracked file.
	if !strings.Contains(plain, "⎇ main") {
		t.Errorf("no branch in %q", plain)
	}
	s.Prompt("again")
	_, plain = statusArea(s, "git", func(plain string) bool { return strings.Contains(plain, "⎇ main *1") })
	t.Logf("status line %q", plain)
	if !strings.Contains(plain, "⎇ main *1") {
		t.Errorf("the git segment shows no dirty count from its cache: %q", plain)
	}
}

// wantFigures are the patterns the line must show for payload p: the limits with their resets,
// the cache's countdown and hit ratio, the cost, all as zoneline formats them.
func wantFigures(p capturedPayload) []*regexp.Regexp {
	q := regexp.QuoteMeta
	rl, pc := p.Stdin.RateLimits, p.Stdin.PromptCache
	var res []*regexp.Regexp
	if rl.FiveHour != nil {
		res = append(res, regexp.MustCompile(q("5h "+pct(rl.FiveHour.Pct))+` \(2h1[0-3]m\)`))
	}
	if rl.SevenDay != nil {
		res = append(res, regexp.MustCompile(q("7d "+pct(rl.SevenDay.Pct))+` \(3d[34]h\)`))
	}
	cache := `cache `
	switch {
	case pc.Warm && pc.ExpiresAt != nil && *pc.ExpiresAt > time.Now().Unix():
		cache += `(\d+m\d\ds|\d+m|\d+s)`
	case pc.Warm:
		cache += `warm`
	default:
		cache += `cold`
	}
	if pc.HitRatio != nil {
		cache += ` ` + q(pct(*pc.HitRatio*100)) + ` hit`
	}
	res = append(res, regexp.MustCompile(cache))
	cents := int64(math.Round(p.Stdin.Cost.USD * 100))
	res = append(res, regexp.MustCompile(q("$"+strconv.FormatInt(cents/100, 10)+"."+twoDigits(cents%100))))
	return res
}

func pct(f float64) string { return strconv.FormatInt(int64(math.Round(f)), 10) + "%" }

func twoDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	return strings.Repeat("0", 2-len(s)) + s
}
