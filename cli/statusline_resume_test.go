package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/state"
)

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
			path, _ := e.State.SessionFile(id, hookevent.ResumeFile)
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
