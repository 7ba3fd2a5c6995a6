//go:build unix

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/notify/notifytest"
)

// nudgeMark is a phrase of the built-in nudge (notify.DefaultNudge).
const nudgeMark = "Finish the current subtask, then run /compact-prep"

// TestWarningLoop runs Claude Code with zoneline as statusLine and UserPromptSubmit hook, a
// private session bus and a fake notification server in its environment. It raises the
// context past the prep threshold and checks that the next request reaching the mock carries
// the nudge once as UserPromptSubmit additional context, that the turn after adds no second
// copy, and that the notification server got exactly one notification for the crossing.
func TestWarningLoop(t *testing.T) {
	Require(t)
	bins := Build(t)
	bins.RequireNotify(t) // beside zoneline, where the statusline looks for it
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	hookCmd := ShellQuote(bins.Zoneline) + " hook"
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929", // 200k: warn 80k, prep 120k, auto-compact 167k
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": ShellQuote(bins.Zoneline) + " statusline"},
			"hooks": map[string]any{
				"UserPromptSubmit": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hookCmd, "timeout": 10}}}},
			},
		},
		Env: map[string]string{
			"ZONELINE_STATE_DIR":       "{{WORK}}/state",
			"ZONELINE_CONFIG":          "{{WORK}}/no-such-dir/config.toml",
			"XDG_RUNTIME_DIR":          "{{WORK}}/xdg/run",
			"DBUS_SESSION_BUS_ADDRESS": bus.Addr,
		},
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("e2e diagnostics:\n%s%s", s.Diagnostics(), zonelineLogTail(s))
		}
	})
	count := func(r Request) int { return strings.Count(bodyText(t, r), nudgeMark) }
	lastMain := func() Request {
		rs := s.Requests(KindMain)
		if len(rs) == 0 {
			s.Fatalf("no main request")
		}
		return rs[len(rs)-1]
	}

	s.MockUsage(Context(20_000))
	s.Prompt("turn one")
	if n := count(lastMain()); n != 0 {
		t.Errorf("turn one carries the nudge %d times", n)
	}
	s.MockUsage(Context(125_000))
	s.Prompt("turn two")
	if n := count(lastMain()); n != 0 {
		t.Errorf("turn two (before the crossing is seen) carries the nudge %d times", n)
	}
	// The statusline runs after the turn: it shows the hint, writes the marker and notifies.
	var plain string
	s.Poll(10*time.Second, false, func(sc string) bool {
		plain = strings.Join(StatusArea(sc), " | ")
		return strings.Contains(plain, "/compact-prep")
	})
	if !strings.Contains(plain, "/compact-prep") {
		t.Fatalf("the status line shows no /compact-prep hint at 125k: %q", plain)
	}
	recs := rcv.Wait(t, 1, 20*time.Second)
	if recs[0].Summary != "zoneline: DUMB zone · proj" || !strings.Contains(recs[0].Body, "125k tokens on Sonnet 4.5") {
		t.Errorf("notification: %+v", recs[0])
	}

	s.MockUsage(Context(130_000))
	s.Prompt("turn three")
	body := bodyText(t, lastMain())
	if n := strings.Count(body, nudgeMark); n != 1 {
		t.Errorf("the request after the crossing carries the nudge %d times, want 1", n)
	}
	if !strings.Contains(body, "UserPromptSubmit hook additional context: zoneline: this session's context is 125k tokens (dumb zone; auto-compact in ~42k tokens).") {
		t.Errorf("the nudge is not there as UserPromptSubmit additional context with the figures")
	}

	s.MockUsage(Context(135_000))
	s.Prompt("turn four")
	if n := count(lastMain()); n != 1 {
		t.Errorf("the turn after carries the nudge %d times, want 1 (the old one in the history, no new copy)", n)
	}
	if n := len(rcv.Records()); n != 1 {
		t.Errorf("%d notifications, want 1 (130k and 135k cross no new tier)", n)
	}
}
