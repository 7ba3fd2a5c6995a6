//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/state"
)

// racer is one started process waiting at its gate.
type racer struct {
	cmd         *exec.Cmd
	gate        io.WriteCloser
	out, stderr bytes.Buffer
}

// race starts every process, then releases them together, and waits for all. Each waits at a
// gate (a shell's read of one line from its pipe, which has no deadline) and then execs bin on
// a file that holds its payload: however long the starts take on a busy machine, no process
// waits on its stdin past its own deadline (a payload written to the pipes after every start
// could arrive too late).
func race(t *testing.T, w *world, bin string, args []string, payloads [][]byte) []*racer {
	t.Helper()
	dir := t.TempDir()
	rs := make([]*racer, len(payloads))
	for i, p := range payloads {
		in := filepath.Join(dir, fmt.Sprintf("payload-%d.json", i))
		if err := os.WriteFile(in, p, 0o600); err != nil {
			t.Fatal(err)
		}
		gated := append([]string{"-c", `f=$1; shift; read _ && exec "$0" "$@" < "$f"`, bin, in}, args...)
		r := &racer{cmd: exec.Command("/bin/sh", gated...)}
		r.cmd.Env, r.cmd.Dir = w.env, w.project
		r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.stderr
		var err error
		if r.gate, err = r.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		rs[i] = r
	}
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.gate.Write([]byte("go\n"))
			r.gate.Close()
		}()
	}
	wg.Wait()
	for i, r := range rs {
		if err := r.cmd.Wait(); err != nil {
			t.Errorf("process %d: %v: %s", i, err, r.stderr.String())
		}
		if s := r.out.String() + r.stderr.String(); strings.Contains(s, "panic:") {
			t.Errorf("process %d panicked: %s", i, s)
		}
	}
	return rs
}

func loadSession(t *testing.T, w *world, sid string) state.Session {
	t.Helper()
	var s state.Session
	b, err := os.ReadFile(filepath.Join(w.state, "sessions", sid, "session.json"))
	if err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("session.json of %s: %v %q", sid, err, b)
	}
	return s
}

func sessionFiles(w *world, sid string) []string {
	ents, _ := os.ReadDir(filepath.Join(w.state, "sessions", sid))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestTwoSessionsOneProject: two sessions in the same project render 25 times each, all at once,
// with different token counts and transcripts. Each line shows its own session's tokens; each
// session.json holds its own tokens, transcript and compaction count; only the session that
// crossed the thresholds has markers. (50 renders racing on one session's markers are
// notify/process_test.go's TestStatuslineRace.)
func TestTwoSessionsOneProject(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	a, b := sessionID, "11111111-2222-4333-8444-555555555555"
	trB := filepath.Join(w.root, "transcript-b.jsonl")
	tr, _ := os.ReadFile(w.transcript)
	write(t, trB, append(append(tr, boundary...), boundary...)) // B has 3 compactions, A 1
	var payloads [][]byte
	for i := range 50 {
		if i%2 == 0 {
			payloads = append(payloads, statuslinePayload(w, a, 150_000))
		} else {
			p := map[string]any{}
			json.Unmarshal(statuslinePayload(w, b, 30_000), &p)
			p["transcript_path"] = trB
			bb, _ := json.Marshal(p)
			payloads = append(payloads, bb)
		}
	}
	rs := race(t, w, bin, []string{"statusline"}, payloads)
	for i, r := range rs {
		want := []string{"150k", "30k"}[i%2]
		if !strings.Contains(termcolor.Strip(r.out.String()), want) {
			t.Errorf("render %d printed %q, want %s", i, r.out.String(), want)
		}
	}
	sa, sb := loadSession(t, w, a), loadSession(t, w, b)
	if sa.Tokens != 150_000 || sa.Transcript != w.transcript || sa.Compactions != 1 {
		t.Errorf("session A = %+v", sa)
	}
	if sb.Tokens != 30_000 || sb.Transcript != trB || sb.Compactions != 3 {
		t.Errorf("session B = %+v", sb)
	}
	for _, n := range sessionFiles(w, b) {
		if strings.HasPrefix(n, "marker-") {
			t.Errorf("session B got A's marker %s", n)
		}
	}
	var markers int
	for _, n := range sessionFiles(w, a) {
		if strings.HasPrefix(n, "marker-") {
			markers++
		}
	}
	if markers == 0 {
		t.Errorf("session A crossed the thresholds but has no marker: %v", sessionFiles(w, a))
	}
	if left := temps(w.state); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
	checkState(t, w.state)
}

// TestRacingRendersCount: 50 renders of one session at once, while its transcript holds 4
// compactions none of them has counted yet: session.json ends whole with exactly 4.
func TestRacingRendersCount(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	f, _ := os.OpenFile(w.transcript, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(boundary + boundary + boundary)
	f.Close()
	var payloads [][]byte
	for i := range 50 {
		payloads = append(payloads, statuslinePayload(w, sessionID, 40_000+i*1000))
	}
	race(t, w, bin, []string{"statusline"}, payloads)
	if s := loadSession(t, w, sessionID); s.Compactions != 4 {
		t.Errorf("session.json counts %d compactions, want 4", s.Compactions)
	}
	if left := temps(w.state); len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
	checkState(t, w.state)
}

// TestRacingHooks: 30 PostCompact hooks of one session at once lose no count, and of 20
// UserPromptSubmit hooks racing after them exactly one delivers the pending restore.
func TestRacingHooks(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	checkHook(t, "PreCompact", w.run(t, bin, hookPayload(w, sessionID, "PreCompact", "trigger", "manual"), []string{"hook"}))
	const n = 30
	var posts [][]byte
	for range n {
		posts = append(posts, hookPayload(w, sessionID, "PostCompact"))
	}
	race(t, w, bin, []string{"hook"}, posts)
	var cs struct {
		Count   int
		Pending int
	}
	b, _ := os.ReadFile(filepath.Join(w.state, "sessions", sessionID, "compactions.json"))
	if err := json.Unmarshal(b, &cs); err != nil || cs.Count != n {
		t.Fatalf("compactions.json after %d racing PostCompact: count %d (%v)", n, cs.Count, err)
	}
	var prompts [][]byte
	for range 20 {
		prompts = append(prompts, hookPayload(w, sessionID, "UserPromptSubmit"))
	}
	rs := race(t, w, bin, []string{"hook"}, prompts)
	delivered := 0
	for _, r := range rs {
		checkHook(t, "UserPromptSubmit", result{stdout: r.out.Bytes(), stderr: r.stderr.Bytes()})
		if strings.Contains(r.out.String(), "additionalContext") {
			delivered++
		}
	}
	if delivered != 1 {
		t.Errorf("%d of 20 racing UserPromptSubmit delivered the restore, want exactly 1", delivered)
	}
}

// notUpdated is the log's word for a compactions.json update skipped because its lock could
// not be had.
const notUpdated = "compactions.json not updated"

// racingPostCompacts races n PostCompact hooks of one session (each its own prompt_id, so no
// two are twins) and returns the count in compactions.json (0 when there is none) and how many
// updates the log says were skipped.
func racingPostCompacts(t *testing.T, w *world, bin string, n int) (count, skipped int) {
	t.Helper()
	var posts [][]byte
	for i := range n {
		posts = append(posts, hookPayload(w, sessionID, "PostCompact", "prompt_id", fmt.Sprintf("p-%d", i)))
	}
	for _, r := range race(t, w, bin, []string{"hook"}, posts) {
		checkHook(t, "PostCompact", result{stdout: r.out.Bytes(), stderr: r.stderr.Bytes()})
	}
	var cs struct{ Count int }
	if b, err := os.ReadFile(filepath.Join(w.state, "sessions", sessionID, "compactions.json")); err == nil {
		if err := json.Unmarshal(b, &cs); err != nil {
			t.Fatalf("compactions.json: %v: %q", err, b)
		}
	}
	log, _ := os.ReadFile(filepath.Join(w.state, "zoneline.log"))
	return cs.Count, strings.Count(string(log), notUpdated)
}

// TestRacingHooksPlantedLock: with a symlink planted at the compactions lock, 30 racing
// PostCompact hooks never go on unlocked: every update is either counted or skipped with a log
// line, so count + skipped is exactly 30 (unlocked writers lost updates and still counted them as
// done: 3 to 8 of 30 were left). The symlink's target is never written.
func TestRacingHooksPlantedLock(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	sdir := filepath.Join(w.state, "sessions", sessionID)
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(w.root, "victim")
	write(t, victim, []byte("keep\n"))
	if err := os.Symlink(victim, filepath.Join(sdir, ".compactions.lock")); err != nil {
		t.Fatal(err)
	}
	const n = 30
	count, skipped := racingPostCompacts(t, w, bin, n)
	if count+skipped != n {
		t.Errorf("%d racing PostCompact: counted %d, skipped %d (log %q): %d updates lost", n, count, skipped, notUpdated, n-count-skipped)
	}
	if skipped == 0 {
		t.Errorf("a planted lock symlink was used as a lock (counted %d)", count)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the symlink's target was written: %q", b)
	}
	if log, _ := os.ReadFile(filepath.Join(w.state, "zoneline.log")); !strings.Contains(string(log), "remove it") {
		t.Errorf("the log does not say what to do about the planted lock:\n%s", log)
	}
}

// TestRacingHooksBusyLock: while another process holds the compactions lock past the wait,
// PostCompact skips its update with a log line and never writes unlocked; once the lock is free,
// the next one counts.
func TestRacingHooksBusyLock(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	sdir := filepath.Join(w.state, "sessions", sessionID)
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := state.Lock(filepath.Join(sdir, ".compactions.lock"), 0)
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	count, skipped := racingPostCompacts(t, w, bin, n)
	unlock()
	if count != 0 || skipped != n {
		t.Errorf("%d PostCompact against a held lock: counted %d, skipped %d; want 0 and %d", n, count, skipped, n)
	}
	if count, skipped = racingPostCompacts(t, w, bin, 1); count != 1 || skipped != n {
		t.Errorf("after the lock was released: counted %d, skipped %d; want 1 and %d", count, skipped, n)
	}
}
