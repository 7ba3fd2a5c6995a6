package hookevent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

const upsSession = "0c7a4f3e-1d2b-4e5f-8a9b-0c1d2e3f4a5b"

func upsPayload(prompt string) []byte {
	b, _ := json.Marshal(map[string]string{"session_id": upsSession, "hook_event_name": "UserPromptSubmit", "prompt": prompt, "cwd": "/w"})
	return b
}

// cross makes the session cross the prep threshold, as the statusline would.
func cross(t *testing.T, d state.Dir, tokens int64, compactions int) {
	t.Helper()
	_, err := notify.Check(d, notify.Input{
		Session: &state.Session{ID: upsSession, Tokens: tokens, Window: 200_000, AutoCompact: 167_000, Zone: "dumb", Model: "Sonnet 4.5", Compactions: compactions},
		Known:   true,
		Levels:  notify.LevelsFor(zones.Thresholds{Warn: 80_000, Dumb: 120_000}, 120_000, zones.Compact{Enabled: true, Point: 167_000}, 20_000),
		Policy:  notify.PolicyFor(config.Default()), Now: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
}

func runUPS(t *testing.T, c *Context, prompt string) string {
	t.Helper()
	var out bytes.Buffer
	if code := Run(c, upsPayload(prompt), nil, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	return out.String()
}

func additional(t *testing.T, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var v struct {
		H struct {
			Event string `json:"hookEventName"`
			Ctx   string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.H.Event != "UserPromptSubmit" || strings.Count(out, "\n") != 1 {
		t.Fatalf("not one hookSpecificOutput object: %q (%v)", out, err)
	}
	return v.H.Ctx
}

func TestUserPromptNudge(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	c := &Context{State: d, Config: config.Default(), Now: time.Now}
	if out := runUPS(t, c, "hello"); out != "" {
		t.Fatalf("no marker: printed %q", out)
	}
	cross(t, d, 125_000, 0)
	got := additional(t, runUPS(t, c, "fix the test"))
	want := "zoneline: this session's context is 125k tokens (dumb zone; auto-compact in ~42k tokens). Finish the current subtask, then run /compact-prep to write a checkpoint, and ask the user to run /compact."
	if got != want {
		t.Errorf("nudge\n got %q\nwant %q", got, want)
	}
	if out := runUPS(t, c, "next"); out != "" {
		t.Errorf("second prompt: printed %q, want nothing (delivered once)", out)
	}
	// The imminent tier nudges once more, with a custom text.
	c.Config.Warning.NudgeText = "ZL {tier} {tokens}/{window} {to_compact}"
	cross(t, d, 150_000, 0)
	if got := additional(t, runUPS(t, c, "go on")); got != "ZL imminent 150k/200k in ~17k tokens" {
		t.Errorf("imminent nudge %q", got)
	}
	// After a compaction the tiers re-arm and nudge again.
	cross(t, d, 10_000, 1)
	cross(t, d, 125_000, 1)
	if got := additional(t, runUPS(t, c, "more")); !strings.HasPrefix(got, "ZL dumb 125k") {
		t.Errorf("after re-arm: %q", got)
	}
}

func TestUserPromptSkip(t *testing.T) {
	for _, prompt := range []string{"/compact", "/compact-prep", "write a checkpoint now please"} {
		t.Run(prompt, func(t *testing.T) {
			d := state.Dir{Root: t.TempDir()}
			c := &Context{State: d, Config: config.Default(), Now: time.Now}
			cross(t, d, 125_000, 0)
			if out := runUPS(t, c, prompt); out != "" {
				t.Errorf("printed %q", out)
			}
			if out := runUPS(t, c, "next"); out != "" {
				t.Errorf("nudge shown after the prompt already asked for it: %q", out)
			}
		})
	}
}

func TestUserPromptOff(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	c := &Context{State: d, Config: config.Default(), Now: time.Now}
	cross(t, d, 125_000, 0)
	c.Config.Warning.Nudge = false
	if out := runUPS(t, c, "x"); out != "" {
		t.Errorf("nudge = false: printed %q", out)
	}
	var out bytes.Buffer
	bad := []byte(`{"session_id":"../../x","hook_event_name":"UserPromptSubmit","prompt":"x"}`)
	c.Config.Warning.Nudge = true
	if code := Run(c, bad, nil, &out); code != 0 || out.Len() != 0 {
		t.Errorf("bad session id: exit %d, %q", code, out.String())
	}
}

// TestUserPromptWithRestore: the restore part (restore.go) and the nudge go out as one object.
func TestUserPromptWithRestore(t *testing.T) {
	saved := restoreText
	t.Cleanup(func() { restoreText = saved })
	restoreText = func(*Context, *payload.Hook) string { return "RESTORED" }
	d := state.Dir{Root: t.TempDir()}
	c := &Context{State: d, Config: config.Default(), Now: time.Now}
	cross(t, d, 125_000, 0)
	got := additional(t, runUPS(t, c, "x"))
	if !strings.HasPrefix(got, "RESTORED\n\nzoneline: ") {
		t.Errorf("combined: %q", got)
	}
}
