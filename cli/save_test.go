package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

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
		want   int
	}{
		{"no registry yet", false, time.Second, nil, nil, 0, saveRegistry},
		{"unchanged", true, 10 * time.Second, nil, nil, 0, keepRegistry},
		{"unchanged, a prompt after the save", true, 10 * time.Second, nil, nil, 5 * time.Second, touchRegistry},
		{"unchanged for a minute", true, 61 * time.Second, nil, nil, 0, saveRegistry},
		{"tokens moved, just saved", true, time.Second, nil, moved, 0, keepRegistry},
		{"tokens moved, saved 5s ago", true, 5 * time.Second, nil, moved, 0, saveRegistry},
		{"zone changed", true, time.Second, nil, func(s *state.Session) { s.Tokens, s.Zone = 130_000, "dumb" }, 0, saveRegistry},
		{"compaction counted", true, time.Second, nil, func(s *state.Session) { s.Compactions++ }, 0, saveRegistry},
		{"model switched", true, time.Second, nil, func(s *state.Session) { s.Window = 1_000_000 }, 0, saveRegistry},
		{"catching up", true, time.Second, uncounted, func(s *state.Session) { s.TranscriptOffset += 4 << 20 }, 0, saveRegistry},
		{"caught up", true, time.Second, uncounted, func(s *state.Session) { s.TranscriptCounted = true }, 0, saveRegistry},
		{"no transcript to count, tokens moved", true, time.Second, uncounted, func(s *state.Session) { s.Tokens += 3000 }, 0, keepRegistry},
		{"a long rescan ahead", true, time.Second, nil, func(s *state.Session) { s.TranscriptOffset += 300 << 10 }, 0, saveRegistry},
		{"a prompt after the save", true, 2 * time.Second, nil, moved, time.Second, touchRegistry},
		{"a prompt before the save", true, time.Second, nil, moved, 2 * time.Second, keepRegistry},
		{"saved in the future (clock moved back)", true, -time.Hour, nil, moved, 0, saveRegistry},
		{"touched since, saved 6s ago: the clock runs from the save", true, 6 * time.Second, func(s *state.Session) { s.Updated = now.Add(-time.Second) }, moved, 0, saveRegistry},
		{"touched since, a prompt before the touch", true, 3 * time.Second, func(s *state.Session) { s.Updated = now.Add(-time.Second) }, moved, 2 * time.Second, keepRegistry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, _ := testEnv(t, nil, nil)
			e.Now = func() time.Time { return now }
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
				if err := sessions.RecordPrompt(e.State, id, "p1", now.Add(-tt.prompt)); err != nil {
					t.Fatal(err)
				}
			}
			r := rendered{session: &cur, saved: saved, loaded: tt.loaded, changed: !cur.Same(saved)}
			if got := e.saveAction(r); got != tt.want {
				t.Errorf("saveAction = %v, want %v", got, tt.want)
			}
		})
	}
}

// Renders in quick succession whose only change is the token count print the new count but
// leave the registry as saved; a render after a prompt touches it, so its time follows the
// prompt.
func TestRegistrySavedOnChangeAndPrompt(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	p100 := string(fixture(t, "statusline-edge-05-ctx-100k.json"))
	p105 := strings.Replace(p100, `"cache_read_input_tokens": 98000`, `"cache_read_input_tokens": 103000`, 1)
	if p105 == p100 || !strings.Contains(p100, id) {
		t.Fatal("fixture changed")
	}
	e, out, _ := testEnv(t, nil, nil)
	render := func(p string) {
		out.Reset()
		e.Stdin = strings.NewReader(p)
		e.Run([]string{"statusline"})
	}
	registry := filepath.Join(e.Paths.StateDir, "sessions", id, state.SessionFileName)
	render(p100)
	first, err := os.ReadFile(registry)
	if err != nil || !strings.Contains(string(first), `"tokens": 100000`) {
		t.Fatalf("first render saved %q, %v", first, err)
	}
	render(p105)
	if !strings.Contains(out.String(), "105k") {
		t.Fatalf("line %q", out.String())
	}
	if again, _ := os.ReadFile(registry); string(again) != string(first) {
		t.Fatalf("tokens-only change saved at once:\n%s", again)
	}
	time.Sleep(10 * time.Millisecond)
	if err := sessions.RecordPrompt(e.State, id, "p2", time.Now()); err != nil {
		t.Fatal(err)
	}
	render(p105)
	s, _ := e.State.LoadSession(id)
	if again, _ := os.ReadFile(registry); string(again) != string(first) {
		t.Fatalf("a render after a prompt rewrote the registry:\n%s", again)
	}
	p, err := sessions.ReadPrompt(e.State, id)
	if err != nil || s.Updated.Before(p.Time) {
		t.Fatalf("after a prompt and a render the registry's time %v is before the prompt's %v (%v)", s.Updated, p.Time, err)
	}
}
