//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/state"
)

// killIterations is how many runs TestKillConsistency kills with SIGKILL in CI;
// ZONELINE_KILLS=n runs n instead (a long soak by hand).
const killIterations = 300

// boundary is a compact_boundary record as Claude Code writes it.
const boundary = `{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":190000,"postTokens":3000}}` + "\n"

// statuslinePayload is a 200k-window payload at tokens.
func statuslinePayload(w *world, sid string, tokens int) []byte {
	m := map[string]any{
		"session_id": sid, "transcript_path": w.transcript, "cwd": w.project, "version": "2.1.332",
		"model":     map[string]any{"id": "claude-sonnet-4-5", "display_name": "Sonnet"},
		"workspace": map[string]any{"current_dir": w.project, "project_dir": w.project},
		"context_window": map[string]any{"context_window_size": 200000,
			"current_usage": map[string]any{"input_tokens": 10, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": tokens - 10}},
	}
	b, _ := json.Marshal(m)
	return b
}

func hookPayload(w *world, sid, event string, extra ...string) []byte {
	m := map[string]any{"session_id": sid, "transcript_path": w.transcript, "cwd": w.project, "hook_event_name": event,
		"prompt_id": fmt.Sprintf("p-%d", time.Now().UnixNano()), "trigger": "auto", "source": "compact", "prompt": "go on", "compact_summary": "s"}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i]] = extra[i+1]
	}
	b, _ := json.Marshal(m)
	return b
}

// checkState walks the state dir: every file but temps, locks and the log is non-empty, every
// .json file is one whole JSON value. It returns the files seen.
func checkState(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		name := d.Name()
		if state.IsTemp(name) || strings.HasSuffix(name, ".lock") || name == ".lock" || strings.HasPrefix(name, "zoneline.log") || name == state.GCStampName {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if len(b) == 0 {
			t.Errorf("%s is empty", p)
		}
		if strings.HasSuffix(name, ".json") && !json.Valid(b) {
			t.Errorf("%s is torn: %q", p, cut(b))
		}
		rel, _ := filepath.Rel(root, p)
		files[rel] = b
		return nil
	})
	return files
}

func temps(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && state.IsTemp(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestKillConsistency kills the real binary with SIGKILL at random points while the statusline
// writes session.json and its warning markers and while the hooks (PreCompact, PostCompact,
// SessionStart, UserPromptSubmit) write snapshots, compactions.json and delivery markers. After every kill no
// state file is empty or torn, the previous version survives (session.json never vanishes, the
// compaction counts never go back); the next day's GC (PostCompact) removes the stale temp files.
func TestKillConsistency(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	sid := sessionID
	sfile := filepath.Join(w.state, "sessions", sid, "session.json")
	cfile := filepath.Join(w.state, "sessions", sid, "compactions.json")
	// a clean first render and compaction: the "previous versions" to keep
	checkStatusline(t, "first render", w.run(t, bin, statuslinePayload(w, sid, 50_000), []string{"statusline"}))
	checkHook(t, "first PostCompact", w.run(t, bin, hookPayload(w, sid, "PostCompact"), []string{"hook"}))
	before := snapshot(t, w.root, w.state)

	rng := rand.New(rand.NewPCG(7, 11))
	boundaries := 1 // the fixture has one
	lastSession, lastCompactions := 0, 0
	killed, finished := 0, 0
	iterations := killIterations
	if n, err := strconv.Atoi(os.Getenv("ZONELINE_KILLS")); err == nil && n > 0 {
		iterations = n
	}
	for i := range iterations {
		if i%25 == 24 { // the transcript grows a compaction now and then
			f, _ := os.OpenFile(w.transcript, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(boundary)
			f.Close()
			boundaries++
		}
		var stdin []byte
		args := []string{"hook"}
		switch rng.IntN(6) {
		case 0, 1:
			stdin, args = statuslinePayload(w, sid, 20_000+rng.IntN(180_000)), []string{"statusline"}
		case 2:
			stdin = hookPayload(w, sid, "PostCompact")
		case 3:
			stdin = hookPayload(w, sid, "SessionStart")
		case 4:
			stdin = hookPayload(w, sid, "UserPromptSubmit")
		case 5:
			stdin = hookPayload(w, sid, "PreCompact", "trigger", "manual")
		}
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir, cmd.Stdin = w.env, w.project, bytes.NewReader(stdin)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(10_000)) * time.Microsecond)
		cmd.Process.Kill()
		if err := cmd.Wait(); err != nil {
			killed++
		} else {
			finished++
		}
		checkState(t, w.state)
		var s state.Session
		if b, err := os.ReadFile(sfile); err != nil || json.Unmarshal(b, &s) != nil {
			t.Fatalf("iteration %d: session.json lost: %v", i, err)
		}
		if s.Compactions < lastSession {
			t.Fatalf("iteration %d: session.json compactions went back %d → %d", i, lastSession, s.Compactions)
		}
		lastSession = s.Compactions
		var cs struct{ Count int }
		if b, err := os.ReadFile(cfile); err != nil || json.Unmarshal(b, &cs) != nil {
			t.Fatalf("iteration %d: compactions.json lost: %v", i, err)
		}
		if cs.Count < lastCompactions {
			t.Fatalf("iteration %d: compactions.json count went back %d → %d", i, lastCompactions, cs.Count)
		}
		lastCompactions = cs.Count
		if t.Failed() {
			t.Fatalf("iteration %d", i)
		}
	}
	left := temps(w.state)
	t.Logf("%d runs killed, %d finished first; %d temp files left by the kills", killed, finished, len(left))

	// The next clean render is right, and the daily GC removes temps older than a minute.
	r := w.run(t, bin, statuslinePayload(w, sid, 50_000), []string{"statusline"})
	checkStatusline(t, "render after the kills", r)
	var s state.Session
	b, _ := os.ReadFile(sfile)
	json.Unmarshal(b, &s)
	if s.Compactions != boundaries {
		t.Errorf("after the kills session.json counts %d compactions, the transcript has %d", s.Compactions, boundaries)
	}
	old := time.Now().Add(-2 * state.StaleTemp)
	for _, p := range temps(w.state) {
		os.Chtimes(p, old, old)
	}
	// PostCompact ran in the loop and stamped today's GC: the stamp is a day old now.
	day := time.Now().Add(-state.GCInterval - time.Hour)
	os.Chtimes(filepath.Join(w.state, state.GCStampName), day, day)
	checkHook(t, "PostCompact a day later", w.run(t, bin, hookPayload(w, sid, "PostCompact"), []string{"hook"}))
	if left := temps(w.state); len(left) > 0 {
		t.Errorf("temp files survive the GC: %v", left)
	}
	checkState(t, w.state)
	after := snapshot(t, w.root, w.state, w.transcript)
	delete(before, w.transcript)
	if d := diffTrees(before, after); len(d) > 0 {
		t.Errorf("wrote outside the state dir:\n%s", strings.Join(d, "\n"))
	}
}
