package pipeline

import (
	"testing"
	"time"

	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

// TestSaveAction: what a render does with the registry, by what changed and when.
func TestSaveAction(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	base := state.Session{ID: id, Updated: now.Add(-time.Second), Tokens: 100_000, Window: 200_000, Zone: "warn",
		Model: "Sonnet 4.5", Compactions: 1, Transcript: "/t.jsonl", TranscriptOffset: 50_000, TranscriptCounted: true}
	moved := func(s *state.Session) { s.Tokens += 3000; s.TranscriptOffset += 9000 }
	uncounted := func(s *state.Session) { s.TranscriptCounted, s.TranscriptOffset = false, 0 }
	tests := []struct {
		name   string
		loaded bool
		age    time.Duration        // of the saved state
		both   func(*state.Session) // applied to the saved state and the render's
		edit   func(*state.Session) // applied to the render's
		prompt time.Duration        // prompt.json's age; 0: none
		want   SaveAction
	}{
		{"no registry yet", false, time.Second, nil, nil, 0, SaveRegistry},
		{"unchanged", true, 10 * time.Second, nil, nil, 0, KeepRegistry},
		{"unchanged, a prompt after the save", true, 10 * time.Second, nil, nil, 5 * time.Second, TouchRegistry},
		{"unchanged for a minute", true, 61 * time.Second, nil, nil, 0, SaveRegistry},
		{"tokens moved, just saved", true, time.Second, nil, moved, 0, KeepRegistry},
		{"tokens moved, saved 5s ago", true, 5 * time.Second, nil, moved, 0, SaveRegistry},
		{"zone changed", true, time.Second, nil, func(s *state.Session) { s.Tokens, s.Zone = 130_000, "dumb" }, 0, SaveRegistry},
		{"compaction counted", true, time.Second, nil, func(s *state.Session) { s.Compactions++ }, 0, SaveRegistry},
		{"model switched", true, time.Second, nil, func(s *state.Session) { s.Window = 1_000_000 }, 0, SaveRegistry},
		{"catching up", true, time.Second, uncounted, func(s *state.Session) { s.TranscriptOffset += 4 << 20 }, 0, SaveRegistry},
		{"caught up", true, time.Second, uncounted, func(s *state.Session) { s.TranscriptCounted = true }, 0, SaveRegistry},
		{"no transcript to count, tokens moved", true, time.Second, uncounted, func(s *state.Session) { s.Tokens += 3000 }, 0, KeepRegistry},
		{"a long rescan ahead", true, time.Second, nil, func(s *state.Session) { s.TranscriptOffset += 300 << 10 }, 0, SaveRegistry},
		{"a prompt after the save", true, 2 * time.Second, nil, moved, time.Second, TouchRegistry},
		{"a prompt before the save", true, time.Second, nil, moved, 2 * time.Second, KeepRegistry},
		{"saved in the future (clock moved back)", true, -time.Hour, nil, moved, 0, SaveRegistry},
		{"touched since, saved 6s ago: the clock runs from the save", true, 6 * time.Second, func(s *state.Session) { s.Updated = now.Add(-time.Second) }, moved, 0, SaveRegistry},
		{"touched since, a prompt before the touch", true, 3 * time.Second, func(s *state.Session) { s.Updated = now.Add(-time.Second) }, moved, 2 * time.Second, KeepRegistry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Context{State: state.Dir{Root: t.TempDir()}, Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
			saved := base
			saved.Updated = now.Add(-tt.age)
			saved.Saved = saved.Updated
			if tt.both != nil {
				tt.both(&saved) // may move Updated past Saved: a touch since the save
			}
			cur := saved
			if tt.edit != nil {
				tt.edit(&cur)
			}
			if tt.prompt != 0 {
				if err := sessions.RecordPrompt(c.State, id, "p1", now.Add(-tt.prompt)); err != nil {
					t.Fatal(err)
				}
			}
			r := Rendered{session: &cur, saved: saved, loaded: tt.loaded, changed: !cur.Same(saved)}
			if got := c.saveAction(r); got != tt.want {
				t.Errorf("saveAction = %v, want %v", got, tt.want)
			}
		})
	}
}
