//go:build unix

package hardening

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/hookevent"
)

// TestPreCompactBigTranscript: on a 200 MB transcript that never compacted (the worst case: the
// whole window is the stretch), PreCompact prints the summariser's instructions, naming the
// skill and the push near the end, within its deadline (hookevent.Deadline: past it the process
// prints nothing). The time is logged; speed itself is BenchmarkEvidenceSinceCompaction's.
func TestPreCompactBigTranscript(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB transcript")
	}
	bin := zoneline(t)
	w := newWorld(t)
	f, err := os.OpenFile(w.transcript, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	out := strings.Repeat("ok  \tgithub.com/x/y\t0.5s\\n", 160) // a 4 KB tool result
	for i, n := 0, 0; n < 200<<20; i++ {
		k, _ := fmt.Fprintf(bw, `{"type":"user","isSidechain":false,"uuid":"p%d","message":{"role":"user","content":"prompt %d: refactor the parser"}}`+"\n"+
			`{"type":"assistant","isSidechain":false,"uuid":"a%d","message":{"id":"m%d","model":"claude-opus-5-5","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"go test ./...","description":"Run the tests"}}],"usage":{"input_tokens":500,"cache_read_input_tokens":90000,"output_tokens":100}}}`+"\n"+
			`{"type":"user","isSidechain":false,"uuid":"r%d","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"%s","is_error":false}]},"toolUseResult":{"stdout":"%s","stderr":""}}`+"\n",
			i, i, i, i, i, i, i, out, out)
		n += k
	}
	fmt.Fprint(bw, `{"type":"user","isSidechain":false,"uuid":"s1","message":{"role":"user","content":"<command-message>big-skill</command-message>\n<command-name>/big-skill</command-name>"}}`+"\n"+
		`{"type":"user","isSidechain":false,"isMeta":true,"uuid":"s2","message":{"role":"user","content":[{"type":"text","text":"Base directory for this skill: /h/skills/big-skill\n\n# Big skill"}]}}`+"\n"+
		`{"type":"assistant","isSidechain":false,"uuid":"g1","message":{"id":"mg","model":"claude-opus-5-5","role":"assistant","content":[{"type":"tool_use","id":"toolu_push","name":"Bash","input":{"command":"git push -u origin feat/big"}}],"usage":{"input_tokens":500,"cache_read_input_tokens":90000,"output_tokens":100}}}`+"\n"+
		`{"type":"user","isSidechain":false,"uuid":"g2","message":{"role":"user","content":[{"tool_use_id":"toolu_push","type":"tool_result","content":"done","is_error":false}]},"toolUseResult":{"stdout":"","gitOperation":{"push":{"branch":"feat/big"}}}}`+"\n")
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	f.Close()
	r := w.run(t, bin, hookPayload(w, sessionID, "PreCompact", "trigger", "auto"), []string{"hook"})
	t.Logf("PreCompact on a %d MB transcript: %v (deadline %v)", fi.Size()>>20, r.took, hookevent.Deadline)
	checkHook(t, "PreCompact 200 MB", r)
	got := string(r.stdout)
	for _, want := range []string{hookevent.InstructionsHead, "big-skill", "pushed feat/big"} {
		if !strings.Contains(got, want) {
			t.Errorf("PreCompact's output lacks %q (late past its deadline, or the tail not read):\n%s", want, got)
		}
	}
}
