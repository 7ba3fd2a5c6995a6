package state

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// sessionRef mirrors Session's JSON shape for encoding/json, the reference for the hand codec.
type sessionRef struct {
	ID                string    `json:"session_id"`
	Updated           time.Time `json:"updated"`
	Tokens            int64     `json:"tokens"`
	Window            int64     `json:"window"`
	AutoCompact       int64     `json:"auto_compact"`
	Zone              string    `json:"zone"`
	Model             string    `json:"model"`
	ModelID           string    `json:"model_id"`
	Cwd               string    `json:"cwd"`
	Project           string    `json:"project"`
	Version           string    `json:"claude_version"`
	Compactions       int       `json:"compactions"`
	Reclaimed         int64     `json:"reclaimed,omitempty"`
	Transcript        string    `json:"transcript"`
	TranscriptOffset  int64     `json:"transcript_offset"`
	TranscriptDev     uint64    `json:"transcript_dev"`
	TranscriptIno     uint64    `json:"transcript_ino"`
	TranscriptSum     uint64    `json:"transcript_sum"`
	TranscriptCounted bool      `json:"transcript_counted"`
	Pane              string    `json:"tmux_pane,omitempty"`
	TmuxSocket        string    `json:"tmux_socket,omitempty"`
	RenderMicros      int64     `json:"render_us"`
	Saved             time.Time `json:"-"`
}

func TestSessionCodecMatchesEncodingJSON(t *testing.T) {
	if n, m := reflect.TypeOf(Session{}).NumField(), reflect.TypeOf(sessionRef{}).NumField(); n != m {
		t.Fatalf("Session has %d fields, the reference %d: update the codec and the reference", n, m)
	}
	in := Session{ID: "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12", Updated: time.Date(2026, 11, 29, 22, 12, 49, 5e8, time.UTC),
		Tokens: 142000, Window: 200000, AutoCompact: 167000, Zone: "dumb", Model: "Opus \"5.5\"", ModelID: "claude-opus-5-5",
		Cwd: "/home/u/é\n", Project: "/home/u/p", Version: "2.1.332", Compactions: 3, Reclaimed: 280000, Transcript: "/t.jsonl",
		TranscriptOffset: 1 << 40, TranscriptDev: 65024, TranscriptIno: 1<<63 + 5, TranscriptSum: 0xcbf29ce484222325, TranscriptCounted: true, Pane: "%3", TmuxSocket: "/tmp/tmux-0/default", RenderMicros: 812}
	data := in.appendJSON(nil)
	var ref sessionRef
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatalf("encoding/json cannot read %s: %v", data, err)
	}
	refData, _ := json.Marshal(ref)
	var back Session
	if err := back.decode(refData); err != nil {
		t.Fatal(err)
	}
	if back != in || Session(ref) != in {
		t.Fatalf("round trip:\n in %+v\nref %+v\nback %+v", in, ref, back)
	}
	// omitempty as in the tags
	in.Pane, in.TmuxSocket, in.Reclaimed = "", "", 0
	data = in.appendJSON(nil)
	want, _ := json.Marshal(sessionRef(in))
	var a, b map[string]any
	json.Unmarshal(data, &a)
	json.Unmarshal(want, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("keys differ:\n%s\n%s", data, want)
	}
}

func TestSessionCorrupt(t *testing.T) {
	for _, in := range []string{"", "{", `{"tokens":"x"}`, `[]`, "\x00garbage"} {
		var s Session
		if err := s.decode([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
