//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// statusWait bounds how long a step waits for the status line to show what
// it expects after the turn went idle (Claude Code runs it after Stop).
const statusWait = 10 * time.Second

// zoneWant is what the status line must show after a step.
type zoneWant struct {
	zone   string // SMART, WARN, DUMB
	tokens string // e.g. "85k"
	window string // "200k" or "1M"
	hue    string // green, yellow, red (see Color.Hue)
}

var zoneWordRE = regexp.MustCompile(`\b(SMART|WARN|DUMB)\b`)

// figureRE matches a token figure such as 85k or 1M standing on its own
// (not the tail of 185k or 1.85k).
func figureRE(fig string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^0-9.])` + regexp.QuoteMeta(fig) + `\b`)
}

func (w zoneWant) matches(plain string) bool {
	m := zoneWordRE.FindString(plain)
	return m == w.zone && figureRE(w.tokens).MatchString(plain) && figureRE(w.window).MatchString(plain)
}

// zonelineSessionCols runs Claude Code with `<built zoneline> statusline` as the
// statusLine command, state, config and XDG dirs inside the run dir, and a
// config path that does not exist (so zoneline uses its defaults), in a pane cols
// wide (0: the harness's 200).
func zonelineSessionCols(t *testing.T, model string, cols int) *Session {
	t.Helper()
	Require(t)
	bins := Build(t)
	s := Start(t, Options{
		Model: model,
		Cols:  cols,
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": ShellQuote(bins.Zoneline) + " statusline"},
		},
		Env: map[string]string{
			"ZONELINE_STATE_DIR": "{{WORK}}/state",
			"ZONELINE_CONFIG":    "{{WORK}}/no-such-dir/config.toml",
			"XDG_CONFIG_HOME":    "{{WORK}}/xdg/config",
			"XDG_STATE_HOME":     "{{WORK}}/xdg/state",
			"XDG_CACHE_HOME":     "{{WORK}}/xdg/cache",
			"XDG_DATA_HOME":      "{{WORK}}/xdg/data",
			"XDG_RUNTIME_DIR":    "{{WORK}}/xdg/run",
		},
	})
	// Runs before Close (cleanups are last in, first out), while the pane lives.
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	return s
}

func zonelineLogTail(s *Session) string {
	b, err := os.ReadFile(filepath.Join(s.Work, "state", "zoneline.log"))
	if err != nil {
		return "---- zoneline.log: " + err.Error() + "\n"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return "---- zoneline.log tail ----\n" + strings.Join(lines, "\n") + "\n"
}

// statusArea waits up to statusWait for the status line area to satisfy ok,
// captures the screen as status-<step> and returns the area (ANSI lines) and
// its plain text joined by " | ". It polls because Claude Code may redraw the
// status line after the screen already looked idle (seen under load: the
// screen captured by Prompt still showed the previous turn's line).
func statusArea(s *Session, step string, ok func(plain string) bool) ([]string, string) {
	var area []string
	var plain string
	defer s.Capture("status-" + step)
	s.Poll(statusWait, true, func(sc string) bool {
		area = StatusArea(sc)
		var ps []string
		for _, l := range area {
			ps = append(ps, strings.TrimSpace(termcolor.Strip(l)))
		}
		plain = strings.Join(ps, " | ")
		return len(area) > 0 && ok(plain)
	})
	return area, plain
}

// expectNonBlank checks that the status line area shows something.
func expectNonBlank(t *testing.T, s *Session, step string) {
	t.Helper()
	area, plain := statusArea(s, step, func(string) bool { return true })
	t.Logf("%s: status line %q", step, plain)
	if area == nil {
		t.Errorf("%s: no prompt box found on the screen", step)
	} else if len(area) == 0 {
		t.Errorf("%s: the status line area is blank (zoneline must never print a blank line)", step)
	}
}

// expectZone checks zone word, token figure, window and zone colour.
func expectZone(t *testing.T, s *Session, step string, w zoneWant) {
	t.Helper()
	area, plain := statusArea(s, step, w.matches)
	t.Logf("%s: status line %q", step, plain)
	if area == nil {
		t.Errorf("%s: no prompt box found on the screen", step)
		return
	}
	if len(area) == 0 {
		t.Errorf("%s: the status line area is blank, want %s %s/%s", step, w.zone, w.tokens, w.window)
		return
	}
	if got := zoneWordRE.FindString(plain); got != w.zone {
		t.Errorf("%s: zone word %q, want %q in %q", step, got, w.zone, plain)
	}
	if !figureRE(w.tokens).MatchString(plain) {
		t.Errorf("%s: token figure %s missing from %q", step, w.tokens, plain)
	}
	if !figureRE(w.window).MatchString(plain) {
		t.Errorf("%s: window %s missing from %q", step, w.window, plain)
	}
	if strings.Contains(plain, "⚠") {
		t.Errorf("%s: the status line shows a warning segment: %q", step, plain)
	}
	if strings.Contains(plain, "…") {
		t.Errorf("%s: the status line is cut (…): %q", step, plain)
	}
	checkZoneColour(t, step, area, w)
}

// checkZoneColour finds the zone word in the ANSI lines and checks its
// foreground hue; when the word itself is not coloured (Claude Code's grey
// or the default), the zone dot ● before it must carry the colour. Any of
// the 16-colour (31/32/33, 91/92/93), 256-colour (38;5;N) and truecolour
// (38;2;R;G;B) forms is accepted: the hue is what counts.
func checkZoneColour(t *testing.T, step string, area []string, w zoneWant) {
	t.Helper()
	for _, l := range area {
		cells := termcolor.Cells(l)
		c, ok := ColorAt(cells, w.zone)
		if !ok {
			continue
		}
		if h := c.Hue(); h == w.hue {
			return
		} else if h == "grey" || h == "default" {
			if dot, ok := ColorAt(cells, "●"); ok && dot.Hue() == w.hue {
				return
			}
		}
		dot, _ := ColorAt(cells, "●")
		t.Errorf("%s: %s is coloured %s (dot ● %s), want %s; line %q", step, w.zone, c, dot, w.hue, l)
		return
	}
	if zoneWordRE.MatchString(strings.Join(area, "\n")) {
		t.Errorf("%s: zone word %s not found to check its colour in %q", step, w.zone, area)
	}
}

// expectAfterCompact checks the line right after /compact, when the payload's
// current_usage is all zeros: not blank, not the stale pre-compact zone or
// figure, and if a zone is shown, SMART in green.
func expectAfterCompact(t *testing.T, s *Session, step, stale string) {
	t.Helper()
	staleRE := figureRE(stale)
	area, plain := statusArea(s, step, func(p string) bool {
		z := zoneWordRE.FindString(p)
		return (z == "" || z == "SMART") && !staleRE.MatchString(p)
	})
	t.Logf("%s: status line %q", step, plain)
	if len(area) == 0 {
		t.Errorf("%s: the status line area is blank after /compact", step)
		return
	}
	if z := zoneWordRE.FindString(plain); z != "" && z != "SMART" {
		t.Errorf("%s: zone %s right after /compact (context 0), want SMART or no zone: %q", step, z, plain)
	}
	if staleRE.MatchString(plain) {
		t.Errorf("%s: the pre-compact figure %s is still shown after /compact: %q", step, stale, plain)
	}
	if zoneWordRE.FindString(plain) == "SMART" {
		checkZoneColour(t, step, area, zoneWant{zone: "SMART", hue: "green"})
	}
}

// TestStatuslineZones runs zoneline as the real statusLine of Claude Code and
// walks the default zones of a 200k window (with a /compact) and of a 1M
// window, checking zone word, figures and colour after each turn, in a 200-column pane and
// again in an 80-column (200k, with ↻1 after the compaction) and a 120-column pane (1M):
// the narrow lines drop whole segments and are never cut by Claude Code (no "…").
func TestStatuslineZones(t *testing.T) {
	Require(t)
	Build(t) // once, before the sessions start
	t.Run("sonnet-200k", func(t *testing.T) { walkSonnet(t, 0) })
	t.Run("sonnet-200k-80cols", func(t *testing.T) { walkSonnet(t, 80) })
	t.Run("opus-1m", func(t *testing.T) { walkOpus(t, 0) })
	t.Run("opus-1m-120cols", func(t *testing.T) { walkOpus(t, 120) })
}

// walkSonnet walks a 200k window's zones, /compact, and a turn after it, in a pane cols wide.
func walkSonnet(t *testing.T, cols int) {
	t0 := time.Now()
	s := zonelineSessionCols(t, "claude-sonnet-4-5-20250929", cols)
	expectNonBlank(t, s, "startup (no usage yet)")

	steps := []struct {
		ctx  int
		want zoneWant
	}{
		{20_000, zoneWant{"SMART", "20k", "200k", "green"}},
		{85_000, zoneWant{"WARN", "85k", "200k", "yellow"}},
		{125_000, zoneWant{"DUMB", "125k", "200k", "red"}},
	}
	for i, st := range steps {
		s.MockUsage(Context(st.ctx))
		s.Prompt("turn " + string(rune('1'+i)) + " please")
		expectZone(t, s, st.want.tokens+" context", st.want)
	}

	s.Command("/compact")
	expectAfterCompact(t, s, "after /compact", "125k")

	s.Prompt("after the compaction")
	if r := s.Requests(KindMain); len(r) == 0 || r[len(r)-1].UsageSent == nil || r[len(r)-1].UsageSent.Total() != 12_000 {
		t.Errorf("the post-compact turn was not answered with the mock's 12k base (main requests: %d)", len(r))
	}
	expectZone(t, s, "12k after compact", zoneWant{"SMART", "12k", "200k", "green"})
	t.Logf("sonnet-200k (%d columns) took %.1fs", s.Cols(), time.Since(t0).Seconds())
}

// walkOpus walks a 1M window's zones in a pane cols wide.
func walkOpus(t *testing.T, cols int) {
	t0 := time.Now()
	s := zonelineSessionCols(t, "", cols) // Claude Code's default: claude-opus-5-5, 1M
	expectNonBlank(t, s, "startup (no usage yet)")
	steps := []struct {
		ctx  int
		want zoneWant
	}{
		{20_000, zoneWant{"SMART", "20k", "1M", "green"}},
		{130_000, zoneWant{"WARN", "130k", "1M", "yellow"}},
		{260_000, zoneWant{"DUMB", "260k", "1M", "red"}},
	}
	for i, st := range steps {
		s.MockUsage(Context(st.ctx))
		s.Prompt("turn " + string(rune('1'+i)) + " please")
		expectZone(t, s, st.want.tokens+" context", st.want)
	}
	t.Logf("opus-1m (%d columns) took %.1fs", s.Cols(), time.Since(t0).Seconds())
}
