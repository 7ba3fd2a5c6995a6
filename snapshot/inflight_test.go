package snapshot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/transcript"
)

// TestInFlightRegistry: the snapshot's work in flight names this session's tmux pane and the
// other live sessions of the same project (not those of other projects, not stale ones), and
// carries the last Stop's record.
func TestInFlightRegistry(t *testing.T) {
	d := state.Dir{Root: filepath.Join(t.TempDir(), "state")}
	now := time.Now().UTC()
	self := "11111111-1111-4111-8111-111111111111"
	for _, s := range []state.Session{
		{ID: self, Updated: now, Project: "/p", Cwd: "/p", Pane: "%1", Zone: "warn"},
		{ID: "22222222-2222-4222-8222-222222222222", Updated: now, Project: "/p", Cwd: "/p/sub", Pane: "%2", Zone: "smart"},
		{ID: "33333333-3333-4333-8333-333333333333", Updated: now, Project: "/other", Cwd: "/other", Pane: "%3"},
		{ID: "44444444-4444-4444-8444-444444444444", Updated: now.Add(-24 * time.Hour), Project: "/p", Cwd: "/p", Pane: "%4"},
	} {
		s := s
		if err := d.SaveSession(&s); err != nil {
			t.Fatal(err)
		}
		path, _ := d.SessionFile(s.ID, state.SessionFileName)
		os.Chtimes(path, s.Updated, s.Updated) // the file's time counts as the last render
	}
	if err := RecordStop(d, self, &payload.InFlight{Background: []payload.BackgroundTask{{ID: "b1", Type: "shell", Status: "running"}}}, now); err != nil {
		t.Fatal(err)
	}
	s := Take(t.Context(), Input{SessionID: self, Cwd: "/p", Now: now, State: &d})
	in := s.InFlight
	if in == nil || in.Pane != "%1" || len(in.Peers) != 1 || in.Peers[0].Pane != "%2" || in.Stop == nil || in.Stop.Background[0].ID != "b1" {
		t.Fatalf("in flight = %+v", in)
	}
}

// TestInFlightRedacted: a token in a background command, a cron prompt or a Stop entry does not
// reach the snapshot.
func TestInFlightRedacted(t *testing.T) {
	d := state.Dir{Root: filepath.Join(t.TempDir(), "state")}
	self := "11111111-1111-4111-8111-111111111111"
	tok := "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
	if err := RecordStop(d, self, &payload.InFlight{Background: []payload.BackgroundTask{{ID: "b1", Command: "curl -H 'Authorization: token " + tok + "' x"}},
		Crons: []payload.Cron{{ID: "c", Prompt: "use " + tok}}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	r, err := LoadStop(d, self)
	if err != nil || strings.Contains(r.Background[0].Command, tok) || strings.Contains(r.Crons[0].Prompt, tok) {
		t.Errorf("the Stop record keeps the token: %+v %v", r, err)
	}
	in := &InFlight{Flight: transcript.Flight{Background: []transcript.Background{{Command: "export T=" + tok}}}}
	in.redact()
	if strings.Contains(in.Flight.Background[0].Command, tok) {
		t.Errorf("not redacted: %q", in.Flight.Background[0].Command)
	}
}

// TestSnapshotRedactsBeforeCut: a token straddling the cut of a background command, a prompt,
// a command or a skill's arguments never reaches the snapshot, whole or as its head.
func TestSnapshotRedactsBeforeCut(t *testing.T) {
	tok := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	pad := strings.Repeat("a", transcript.MaxFlightText-10) + " "
	cmd := pad + tok
	lines := []string{
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"` + strings.Repeat("b", MaxPrompt-10) + " " + tok + `"}}`,
		`{"type":"user","uuid":"u2","message":{"role":"user","content":"<command-name>/deploy</command-name><command-args>--key ` + tok + `</command-args>"}}`,
		`{"type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"` + cmd + `","description":"` + cmd + `","run_in_background":true}}]}}`,
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := state.Dir{Root: filepath.Join(t.TempDir(), "state")}
	s := Take(t.Context(), Input{SessionID: "11111111-1111-4111-8111-111111111111", Transcript: path, Now: time.Now(), State: &d})
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.InFlight.Flight.Background) != 1 || len(s.Skills) == 0 {
		t.Fatalf("snapshot = %s", data)
	}
	if strings.Contains(string(data), tok[:8]) {
		t.Errorf("the token (or its head) is in the snapshot: %s", data)
	}
}

// TestStopRecordCodec: the Stop record written through its key table reads back the same,
// through LoadStop and through encoding/json (the snapshot file carries it), every string
// sanitized and cut; a record of another shape is an error naming the file.
func TestStopRecordCodec(t *testing.T) {
	d := state.Dir{Root: filepath.Join(t.TempDir(), "state")}
	self := "11111111-1111-4111-8111-111111111111"
	now := time.Date(2026, 12, 1, 9, 0, 0, 123, time.UTC)
	f := &payload.InFlight{
		Background:        []payload.BackgroundTask{{ID: "b1", Type: "shell", Status: "running", Description: "d\x1b[2J", Command: "make " + strings.Repeat("x", MaxStopText)}, {ID: "a1", Type: "subagent", AgentType: "Explore"}},
		BackgroundDropped: 3,
		Crons:             []payload.Cron{{ID: "c1", Schedule: "*/5 * * * *", Recurring: true, Prompt: "check \"it\""}},
		CronsDropped:      2,
	}
	if err := RecordStop(d, self, f, now); err != nil {
		t.Fatal(err)
	}
	got, err := LoadStop(d, self)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := StopPath(d, self)
	data, _ := os.ReadFile(path)
	var viaJSON StopRecord
	if err := json.Unmarshal(data, &viaJSON); err != nil {
		t.Fatal(err)
	}
	if !got.Time.Equal(now) || !viaJSON.Time.Equal(now) {
		t.Errorf("time %v, encoding/json %v, want %v", got.Time, viaJSON.Time, now)
	}
	got.Time, viaJSON.Time = time.Time{}, time.Time{}
	if a, b := mustJSON(t, got), mustJSON(t, &viaJSON); a != b {
		t.Errorf("LoadStop %s\nencoding/json %s", a, b)
	}
	bg := got.Background[0]
	if bg.Description != "d[2J" || len([]rune(bg.Command)) != MaxStopText+1 || !strings.HasSuffix(bg.Command, "…") ||
		got.BackgroundDropped != 3 || got.CronsDropped != 2 || !got.Crons[0].Recurring || got.Crons[0].Prompt != `check "it"` || got.Background[1].AgentType != "Explore" {
		t.Errorf("record read back: %+v", got)
	}
	if err := os.WriteFile(path, []byte(`{"time":"x","background":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadStop(d, self); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a damaged record: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
