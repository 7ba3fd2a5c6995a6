package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/hook"
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
			e, _, _ := testEnv(t, nil, nil)
			path, err := e.State.SessionFile(id, hook.ResumeFile)
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
			go func() { done <- e.resumeVerdict(&state.Session{ID: id, Compactions: tt.compactions}) }()
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

// TestStatuslineShowsResume: a render of a compacted session (its transcript holds a
// compaction) shows the verdict; with none (the next prompt removed it), the render shows none.
func TestStatuslineShowsResume(t *testing.T) {
	var p map[string]any
	if err := json.Unmarshal(fixture(t, "statusline-manual-05-ctx-140k.json"), &p); err != nil {
		t.Fatal(err)
	}
	id := p["session_id"].(string)
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(tr, []byte(`{"type":"system","subtype":"compact_boundary","isSidechain":false,"content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":140120}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p["transcript_path"] = tr
	payload, _ := json.Marshal(p)
	for _, tt := range []struct{ verdict, want, not string }{{"off", "OFF PLAN", "on plan"}, {"on", "on plan", "OFF PLAN"}, {"", "", "PLAN"}} {
		e, out, _ := testEnv(t, payload, nil)
		if tt.verdict != "" {
			path, _ := e.State.SessionFile(id, hook.ResumeFile)
			if err := state.MkdirPrivate(filepath.Dir(path)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(`{"n":1,"verdict":"`+tt.verdict+`","call":"x","next":"y","time":"2026-12-01T09:00:00Z"}`), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if code := e.Run([]string{"statusline"}); code != 0 {
			t.Fatalf("exit %d", code)
		}
		line := out.String()
		if !strings.Contains(line, tt.want) || strings.Contains(line, tt.not) || tt.verdict == "" && strings.Contains(line, "on plan") {
			t.Errorf("verdict %q: line %q, want %q and not %q", tt.verdict, line, tt.want, tt.not)
		}
	}
}
