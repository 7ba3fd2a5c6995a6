package hookevent

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/testtmp"
	"github.com/zoneline/zoneline/state"
)

// TestAnswerJSON: a hook's JSON answer, written through its key table, decodes (encoding/json)
// to what the map the hook marshalled before wrote, with the same keys; the agent's text keeps
// its layout and no unsafe rune reaches stdout raw.
func TestAnswerJSON(t *testing.T) {
	hostile := "ck\x1b]0;PWNED\x07 \u009b31m \u202eevil\u2066 <b>&amp;</b> \xff\u2028 👩\u200d💻 \u200b\nline two\tok"
	cases := []struct {
		name string
		out  Output
		old  map[string]any // the shape the hook marshalled with encoding/json
	}{
		{"context", AdditionalContext("UserPromptSubmit", hostile), map[string]any{
			"hookSpecificOutput": map[string]any{"hookEventName": "UserPromptSubmit", "additionalContext": safetext.Text(hostile)}}},
		{"empty context", AdditionalContext("SessionStart", ""), map[string]any{
			"hookSpecificOutput": map[string]any{"hookEventName": "SessionStart", "additionalContext": ""}}},
		{"hold", Output{JSON: &Answer{Decision: "block", Reason: HoldReason}}, map[string]any{"decision": "block", "reason": HoldReason}},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		if code := write(&Context{}, "X", tc.out, &out); code != 0 {
			t.Errorf("%s: exit %d", tc.name, code)
		}
		line, ok := bytes.CutSuffix(out.Bytes(), []byte("\n"))
		if !ok || bytes.Contains(line, []byte("\n")) || !json.Valid(line) {
			t.Errorf("%s: not one JSON line: %q", tc.name, out.Bytes())
			continue
		}
		if !utf8.Valid(line) {
			t.Errorf("%s: invalid UTF-8 in %q", tc.name, line)
		}
		for _, r := range string(line) {
			if safetext.Unsafe(r) {
				t.Errorf("%s: %U raw in %q", tc.name, r, line)
			}
		}
		oldBytes, err := json.Marshal(tc.old)
		if err != nil {
			t.Fatal(err)
		}
		var got, want any
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(oldBytes, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.name, got, want)
		}
	}
}

// oldPending is ResumePendingFile as encoding/json wrote it (before the key table): the test's
// oracle for the file's shape.
type oldPending struct {
	N          int       `json:"n"`
	Time       time.Time `json:"time"`
	Checkpoint string    `json:"checkpoint"`
	Snapshot   string    `json:"snapshot,omitempty"`
	Cwd        string    `json:"cwd,omitempty"`
	Plan       bool      `json:"plan,omitzero"`
	Skip       int       `json:"skip,omitzero"`
	SkipID     string    `json:"skip_id,omitempty"`
	Stops      int       `json:"stops,omitzero"`
	Next       checkpoint.Targets
	Recovery   checkpoint.Targets
}

// FuzzResumePending: the pending check round-trips through its key table, decodes with
// encoding/json to the same value, and a file encoding/json wrote (an older zoneline's) reads the
// same; with invalid UTF-8 the two decoders still agree on what was written.
func FuzzResumePending(f *testing.F) {
	f.Add(uint16(3), int64(1764633600123456789), "/s/checkpoint.md", "/s/snap.json", "/repo", true, uint16(2), "toolu_01", uint16(1), "go test ./... | make", "a.go", false)
	f.Add(uint16(0), int64(0), "", "", "", false, uint16(0), "", uint16(0), "", "", true)
	f.Add(uint16(1), int64(-5), "c\"k\\\n<&>", "\u202e", "\x7f", false, uint16(65535), "\xff", uint16(7), "x\u2028|", "|", true)
	f.Fuzz(func(t *testing.T, n uint16, ns int64, ck, snap, cwd string, plan bool, skip uint16, skipID string, stops uint16, cmds, files string, emptyLists bool) {
		list := func(s string) []string {
			if s == "" {
				if emptyLists {
					return []string{}
				}
				return nil
			}
			return strings.Split(s, "|")
		}
		p := resumePending{N: int(n), Time: time.Unix(0, ns).UTC(), Checkpoint: ck, Snapshot: snap, Cwd: cwd, Plan: plan,
			Skip: int(skip), SkipID: skipID, Stops: int(stops),
			Next: checkpoint.Targets{Commands: list(cmds), Files: list(files)}, Recovery: checkpoint.Targets{Files: list(files)}}
		data := p.appendJSON(nil)
		if !json.Valid(data) {
			t.Fatalf("invalid JSON: %q", data)
		}
		var back resumePending
		if err := back.decode(data); err != nil {
			t.Fatalf("decode %q: %v", data, err)
		}
		var o oldPending
		if err := json.Unmarshal(data, &o); err != nil {
			t.Fatalf("encoding/json: %q: %v", data, err)
		}
		if !reflect.DeepEqual(resumePending(o), back) {
			t.Errorf("the decoders differ on %q:\njsonscan %+v\nencoding/json %+v", data, back, o)
		}
		valid := true
		for _, s := range append([]string{ck, snap, cwd, skipID}, append(list(cmds), list(files)...)...) {
			valid = valid && utf8.ValidString(s)
		}
		if !valid {
			return // invalid UTF-8 is written as U+FFFD: the decoders agreeing is the property
		}
		if !reflect.DeepEqual(back, p) {
			t.Errorf("round trip of %q:\n got %+v\nwant %+v", data, back, p)
		}
		old, err := json.Marshal(oldPending(p))
		if err != nil {
			t.Fatal(err)
		}
		var fromOld resumePending
		if err := fromOld.decode(old); err != nil || !reflect.DeepEqual(fromOld, p) {
			t.Errorf("an older file %q read as %+v (%v), want %+v", old, fromOld, err, p)
		}
	})
}

// TestVerdictFile: resume.json as writeVerdict writes it is what encoding/json reads, and what
// Verdicts reads back.
func TestVerdictFile(t *testing.T) {
	d := state.Dir{Root: testtmp.Dir(t)}
	const id = "0b5a1c9e-3f1d-4c1a-9d2e-7a6b5c4d3e2f"
	now := time.Unix(1764633600, 5)
	if err := writeVerdict(d, id, 2, OffPlan, "Bash `rm -rf x` \u202e", "make test\nnext", now); err != nil {
		t.Fatal(err)
	}
	path, err := d.SessionFile(id, ResumeFile)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		N       int       `json:"n"`
		Verdict string    `json:"verdict"`
		Call    string    `json:"call"`
		Next    string    `json:"next"`
		Time    time.Time `json:"time"`
	}
	want := verdictRecord{N: 2, Verdict: OffPlan, Call: "Bash `rm -rf x` \u202e", Next: "make test next", Time: now.UTC()}
	if err := json.Unmarshal(data, &o); err != nil || verdictRecord(o) != want {
		t.Errorf("encoding/json read %q as %+v (%v), want %+v", data, o, err, want)
	}
	if got := Verdicts(d, id); !reflect.DeepEqual(got, map[int]string{2: OffPlan}) {
		t.Errorf("Verdicts = %v", got)
	}
}
