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
