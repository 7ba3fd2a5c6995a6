package hookevent

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

// crossSession makes session id cross the prep threshold, as the statusline would.
func crossSession(t *testing.T, d state.Dir, id string, tokens int64, compactions int) {
	t.Helper()
	_, err := notify.Check(d, notify.Input{
		Session: &state.Session{ID: id, Tokens: tokens, Window: 200_000, AutoCompact: 167_000, Zone: "dumb", Model: "Sonnet 4.5", Compactions: compactions},
		Known:   true,
		Levels:  notify.LevelsFor(zones.Thresholds{Warn: 80_000, Dumb: 120_000}, 120_000, zones.Compact{Enabled: true, Point: 167_000}, 20_000),
		Policy:  notify.PolicyFor(config.Default()), Now: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// secondPostCompact runs PostCompact again with another summary (a second compaction, not a twin).
func (f *fixture) secondPostCompact(pattern string) {
	f.t.Helper()
	v := map[string]any{}
	json.Unmarshal(f.payload(pattern), &v)
	v["compact_summary"] = "the summary of another compaction"
	v["prompt_id"] = "5b0e2a61-7c3d-4f8e-9a1b-2c3d4e5f6a7b" // another /compact
	data, _ := json.Marshal(v)
	if out := f.runData(data); out != "" {
		f.t.Fatalf("PostCompact printed %q", out)
	}
}

func (f *fixture) runData(data []byte) string {
	f.t.Helper()
	var b strings.Builder
	if code := Run(f.c, data, nil, &b); code != 0 {
		f.t.Fatalf("exit %d", code)
	}
	return b.String()
}

// TestSecondCompactionStaleCheckpoint is issue 12 item 1: /compact-prep, /compact (#1), then a
// second compaction with no new checkpoint. The checkpoint written before #1 must be reported as
// stale at #2, by SessionStart and by the UserPromptSubmit fallback alike, never as ground truth;
// and the nudge must name /compact-prep, as the statusline's hint does (notify.NextStep).
func TestSecondCompactionStaleCheckpoint(t *testing.T) {
	for _, via := range []string{"SessionStart", "UserPromptSubmit"} {
		t.Run(via, func(t *testing.T) {
			f := newFixture(t, "auto-compact-sonnet-200k")
			f.payload("hook-auto-PreCompact-*.json")
			ck := goodCheckpoint(t, f.session)
			f.writeCheckpoint(ck) // written now
			base := time.Now()
			f.c.Now = func() time.Time { return base.Add(15 * time.Second) }
			f.run("hook-auto-PreCompact-*.json")
			first := additionalContext(t, f.run("hook-auto-SessionStart-compact-01.json"))
			if !strings.Contains(first, ck) || !strings.Contains(first, RecoveryInstructions) {
				t.Fatalf("compaction #1 did not restore the fresh checkpoint:\n%s", first)
			}
			f.run("hook-auto-PostCompact-*.json") // #1 recorded 15 s after the checkpoint

			// The context grows again and crosses the prep tier: the next step is /compact-prep.
			f.c.Now = func() time.Time { return base.Add(3 * time.Minute) }
			crossSession(t, f.c.State, f.session, 125_000, 1)
			if step := notify.NextStep(f.c.State, f.session, f.c.now(), 30*time.Minute); step != notify.StepPrep {
				t.Errorf("next step after #1 with the pre-#1 checkpoint = %s, want /compact-prep", step)
			}
			nudge := additionalContext(t, f.run("hook-auto-UserPromptSubmit-04.json"))
			if !strings.Contains(nudge, "run /compact-prep") || strings.Contains(nudge, "checkpoint is written") {
				t.Errorf("nudge does not name /compact-prep:\n%s", nudge)
			}

			// Compaction #2, no new checkpoint.
			f.c.Now = func() time.Time { return base.Add(5 * time.Minute) }
			f.run("hook-auto-PreCompact-*.json")
			var second string
			if via == "SessionStart" {
				second = additionalContext(t, f.run("hook-auto-SessionStart-compact-01.json"))
				f.secondPostCompact("hook-auto-PostCompact-*.json")
			} else {
				f.secondPostCompact("hook-auto-PostCompact-*.json")
				second = additionalContext(t, f.run("hook-auto-UserPromptSubmit-04.json"))
			}
			if !strings.Contains(second, RestoreHeading+" #2") {
				t.Fatalf("no restore for #2:\n%s", second)
			}
			for _, bad := range []string{RecoveryInstructions, "ground truth you wrote", "## Goal", "<checkpoint "} {
				if strings.Contains(second, bad) {
					t.Errorf("restore #2 presents the pre-#1 checkpoint as truth (%q):\n%s", bad, second)
				}
			}
			for _, want := range []string{"STALE CHECKPOINT", "before compaction #1", "No /compact-prep checkpoint was written for this compaction"} {
				if !strings.Contains(second, want) {
					t.Errorf("restore #2 lacks %q:\n%s", want, second)
				}
			}
		})
	}
}

// TestNudgeNamesTheStep: with a checkpoint fresh for the next compaction the nudge says
// /compact (as the hint "⚑ /compact" does), not /compact-prep.
func TestNudgeNamesTheStep(t *testing.T) {
	f := newFixture(t, "auto-compact-sonnet-200k")
	f.payload("hook-auto-PreCompact-*.json")
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	crossSession(t, f.c.State, f.session, 125_000, 0)
	if step := notify.NextStep(f.c.State, f.session, f.c.now(), 30*time.Minute); step != notify.StepCompact {
		t.Fatalf("next step with a fresh checkpoint = %s", step)
	}
	nudge := additionalContext(t, f.run("hook-auto-UserPromptSubmit-04.json"))
	if !strings.Contains(nudge, "A fresh /compact-prep checkpoint is written") || !strings.Contains(nudge, "run /compact.") || strings.Contains(nudge, "then run /compact-prep") {
		t.Errorf("nudge with a fresh checkpoint:\n%s", nudge)
	}
}

// TestHoldStaleCheckpoint: hold_once treats a checkpoint written before the last compaction as
// no checkpoint (the one freshness rule), even though it is newer than the warning marker.
func TestHoldStaleCheckpoint(t *testing.T) {
	f := newFixture(t, "auto-compact-sonnet-200k")
	f.payload("hook-auto-PreCompact-*.json")
	f.c.Config.PreCompact.HoldOnce = true
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	base := time.Now()
	f.c.Now = func() time.Time { return base.Add(10 * time.Second) }
	f.run("hook-auto-PreCompact-*.json") // not held: fresh, no marker
	f.run("hook-auto-SessionStart-compact-01.json")
	f.run("hook-auto-PostCompact-*.json")
	f.c.Now = func() time.Time { return base.Add(time.Minute) }
	out := f.run("hook-auto-PreCompact-*.json")
	var v map[string]string
	if json.Unmarshal([]byte(out), &v) != nil || v["decision"] != "block" {
		t.Errorf("compaction #2 with only the pre-#1 checkpoint was not held: %q", out)
	}
}
