package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/doctor"
	"github.com/zoneline/zoneline/state"
)

// TestNormalSessionLogHasNoErrors: a whole ordinary session (the recorded manual-compact one:
// status lines across the tiers, every hook, a checkpoint written from a fork, a compaction, the
// restore and the resume check of the next turn) leaves only ordinary entries in the log, so
// `zoneline doctor`'s log check, which warns on error lines, stays clean.
func TestNormalSessionLogHasNoErrors(t *testing.T) {
	const sid = "730c8849-a6f0-454b-a922-063e0b765bf2"
	fx := filepath.Join("..", "testdata", "claude-code", "manual-compact-opus-1m")
	e, _, _ := testEnv(t, nil, map[string]string{"NO_COLOR": "1"})
	dir := t.TempDir()
	tr := filepath.Join(dir, sid+".jsonl")
	data, err := os.ReadFile(filepath.Join(fx, "transcript-manual.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// The transcript grows as the session runs: each Stop finds its turn's reply at the end.
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(tr, nil, 0o600)
	grown := 0
	growTo := func(upTo int) {
		f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
		defer f.Close()
		for ; grown < upTo && grown < len(lines); grown++ {
			f.WriteString(lines[grown])
		}
	}
	growToReply := func(reply string) {
		needle, _ := json.Marshal(reply)
		for i := grown; i < len(lines); i++ {
			if strings.Contains(lines[i], string(needle)) {
				growTo(i + 1)
				return
			}
		}
	}
	run := func(args []string, stdin []byte) {
		t.Helper()
		var out, errb bytes.Buffer
		e.Stdin, e.Stdout, e.Stderr = bytes.NewReader(stdin), &out, &errb
		if code := e.Run(args); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
	}
	replay := func(name string) {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(fx, name))
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		p["transcript_path"], p["cwd"] = tr, dir
		if reply, ok := p["last_assistant_message"].(string); ok && p["hook_event_name"] == "Stop" {
			growToReply(reply)
		}
		b, _ := json.Marshal(p)
		if strings.HasPrefix(name, "statusline-") {
			run([]string{"statusline"}, b)
		} else {
			run([]string{"hook"}, b)
		}
	}
	replay("hook-manual-SessionStart-startup-01.json")
	for i, s := range []string{"02-ctx-20k", "03-ctx-60k", "04-ctx-100k", "05-ctx-140k"} {
		n := string(rune('1' + i))
		replay("hook-manual-UserPromptSubmit-0" + n + ".json")
		replay("statusline-manual-" + s + ".json")
		replay("hook-manual-Stop-0" + n + ".json")
	}
	// The mod: its status and a checkpoint from a fork.
	run([]string{"mod", "status"}, []byte(`{"session_id":"`+sid+`","transcript_path":"`+tr+`","cwd":"`+dir+`","model":{"id":"claude-opus-5-5"},"context_window":{"context_window_size":1000000,"current_usage":{"input_tokens":140000}}}`))
	run([]string{"mod", "save-checkpoint", "-session", sid}, []byte(goodCheckpointOf(sid, "Fix the login redirect loop.")))
	growTo(len(lines))
	replay("hook-manual-PreCompact-manual-01.json")
	replay("hook-manual-SessionStart-compact-01.json")
	replay("hook-manual-PostCompact-manual-01.json")
	replay("statusline-manual-06-ctx-0k.json")
	replay("hook-manual-UserPromptSubmit-05.json")
	replay("statusline-manual-07-ctx-12k.json")
	// The first action after the restore is the checkpoint's Next: the resume check's verdict.
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"assistant","isSidechain":false,"uuid":"u-b1","message":{"id":"m-b1","role":"assistant","content":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"go test ./auth"}}]}}` + "\n")
	f.Close()
	replay("hook-manual-Stop-05.json")
	replay("hook-manual-SessionEnd-prompt_input_exit-01.json")

	log, _ := os.ReadFile(e.State.LogPath())
	r := doctor.Log(e.State.LogPath(), e.Now())
	if r.Status != doctor.OK || len(r.More) > 0 {
		t.Errorf("doctor's log check: %v %s %q\nlog:\n%s", r.Status, r.Detail, r.More, log)
	}
	infos := 0
	for _, l := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if state.IsInfo(l) {
			infos++
		}
	}
	if !strings.Contains(string(log), "on plan") {
		t.Errorf("the resume check gave no verdict\nlog:\n%s", log)
	}
	if infos == 0 {
		t.Errorf("no ordinary entries either: the session did not run as it should\nlog:\n%s", log)
	}
}
