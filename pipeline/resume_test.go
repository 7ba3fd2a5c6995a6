package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
)

// TestResumeVerdict: the status line reads the hook's verdict (resume.json, as writeVerdict
// writes it) only for a compacted session, and shows nothing for a missing, damaged, unknown,
// or oversized file.
func TestResumeVerdict(t *testing.T) {
	const id = "730c8849-a6f0-454b-a922-063e0b765bf2"
	verdict := func(v string) string {
		return `{"n":1,"verdict":"` + v + `","call":"Bash ` + "`rm -rf build`" + `","next":"go test ./auth","time":"2026-12-01T09:00:00Z"}` + "\n"
	}
	tests := []struct {
		name        string
		compactions int
		file        string // "" = none
		want        string
	}{
		{"on plan", 1, verdict("on"), statusline.ResumeOnPlan},
		{"off plan", 2, verdict("off"), statusline.ResumeOffPlan},
		{"never compacted: not read", 0, verdict("off"), ""},
		{"no verdict", 1, "", ""},
		{"unknown verdict", 1, verdict("maybe"), ""},
		{"damaged", 1, `{"verdict":`, ""},
		{"verdict of the wrong type", 1, `{"verdict":["off"]}`, ""},
		{"oversized", 1, `{"pad":"` + strings.Repeat("x", 5000) + `","verdict":"off"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Context{State: state.Dir{Root: filepath.Join(t.TempDir(), "state")}, Now: time.Now}
			path, err := c.State.SessionFile(id, hookevent.ResumeFile)
			if err != nil {
				t.Fatal(err)
			}
			if err := state.MkdirPrivate(filepath.Dir(path)); err != nil {
				t.Fatal(err)
			}
			if tt.file != "" {
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan string, 1)
			go func() { done <- c.resumeVerdict(&state.Session{ID: id, Compactions: tt.compactions}) }()
			select {
			case got := <-done:
				if got != tt.want {
					t.Errorf("resumeVerdict = %q, want %q", got, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("resumeVerdict blocked")
			}
		})
	}
}
