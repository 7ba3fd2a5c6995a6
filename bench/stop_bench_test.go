package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// BenchmarkHookStopNothing runs `zoneline hook` on a Stop payload with nothing in flight
// (background_tasks and session_crons empty, as recorded from Claude Code 2.1.332) and no
// resume check pending, for a 1 MB and a 200 MB transcript, against the floor: the common
// case after every turn. The warning loop runs too (it reads the transcript's tail; the
// payload names the last reply there, as Claude Code's does). Target: ≤ 1.15× floor, flat in
// transcript size.
func BenchmarkHookStopNothing(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	for _, size := range []int64{1 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			dir := b.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			if err := writeTranscript(tr, size); err != nil {
				b.Fatal(err)
			}
			payload := []byte(fmt.Sprintf(`{"session_id":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12","transcript_path":%q,"cwd":%q,"prompt_id":"6f462660-0000-4000-8000-000000000000","permission_mode":"auto","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":%q,"background_tasks":[],"session_crons":[]}`, tr, dir, lastReply(b, tr)))
			e := env(dir)
			// The warning loop counts compactions incrementally: catch it up with the
			// transcript, as a session's earlier turns would have.
			for i := 0; i < 100; i++ {
				r, err := procbench.Run(zl, []string{"hook"}, payload, e)
				if err != nil || r.Code != 0 || len(r.Stdout) != 0 {
					b.Fatalf("hook: %v exit %d %q %q", err, r.Code, r.Stdout, r.Stderr)
				}
				if caughtUp(filepath.Join(dir, "state"), size) {
					break
				}
			}
			b.ResetTimer()
			procbench.Compare(b, runner(zl, []string{"hook"}, payload, e), runner(floor, nil, payload, e))
			b.StopTimer()
			procbench.ReportPeakRSS(b, zl, []string{"hook"}, payload, e, floor)
		})
	}
}

const stopSession = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"

// stopPayload is a Stop payload naming the transcript's last reply (so the warning loop finds it
// on disk and does not wait for it) and the background tasks given.
func stopPayload(b *testing.B, tr, dir, tasks string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"prompt_id":"6f462660-0000-4000-8000-000000000000","permission_mode":"auto","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":%q,"background_tasks":%s,"session_crons":[]}`, stopSession, tr, dir, lastReply(b, tr), tasks))
}

// catchUp runs the hook until the compaction count caught up with the transcript, as earlier
// turns would have.
func catchUp(b *testing.B, zl string, payload []byte, e []string, dir, tr string) {
	fi, err := os.Stat(tr)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		r, err := procbench.Run(zl, []string{"hook"}, payload, e)
		if err != nil || r.Code != 0 || len(r.Stdout) != 0 {
			b.Fatalf("hook: %v exit %d %q %q", err, r.Code, r.Stdout, r.Stderr)
		}
		if caughtUp(filepath.Join(dir, "state"), fi.Size()) {
			return
		}
	}
}

// BenchmarkHookStopInFlight runs `zoneline hook` on a Stop payload that lists three background
// tasks still running, as every Stop does while work is in flight, for a 1 MB and a 200 MB
// transcript. The first run writes the record; the ones measured find it listing the same and
// only move its time (no write, no fsync). Target: ≤ 1.15× floor, flat in transcript size.
func BenchmarkHookStopInFlight(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	tasks := `[{"id":"bzk3p9","type":"shell","status":"running","description":"Long build","command":"make build-all"},` +
		`{"id":"b7","type":"shell","status":"running","description":"Dev server","command":"npm run dev"},` +
		`{"id":"a4f00d","type":"local_agent","status":"running","description":"Watch the deploy","agent_type":"general-purpose"}]`
	for _, size := range []int64{1 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			dir := b.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			if err := writeTranscript(tr, size); err != nil {
				b.Fatal(err)
			}
			payload := stopPayload(b, tr, dir, tasks)
			e := env(dir)
			catchUp(b, zl, payload, e, dir, tr)
			if _, err := os.Stat(filepath.Join(dir, "state", "sessions", stopSession, "inflight-stop.json")); err != nil {
				b.Fatalf("no Stop record: %v", err)
			}
			b.ResetTimer()
			procbench.Compare(b, runner(zl, []string{"hook"}, payload, e), runner(floor, nil, payload, e))
			b.StopTimer()
			procbench.ReportPeakRSS(b, zl, []string{"hook"}, payload, e, floor)
		})
	}
}

// BenchmarkHookStopResumePending runs `zoneline hook` on a Stop payload with a resume check
// pending (the turn after a restore), for a 1 MB and a 200 MB transcript whose last compaction
// is followed by neutral calls only (git status, Read, TodoWrite): the costly case, the calls
// since the boundary read from the transcript's tail (2 MB at most) and no verdict, so the
// check stays pending. The pending file is put back before each run (outside the time measured:
// three such Stops expire it). Flat in transcript size; it runs on the few Stops after a
// compaction only.
func BenchmarkHookStopResumePending(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	for _, size := range []int64{1 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			dir := b.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			if err := writeTranscript(tr, size); err != nil {
				b.Fatal(err)
			}
			f, err := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			f.WriteString(`{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":140120},"uuid":"b2","timestamp":"2026-11-29T22:40:00.000Z"}` + "\n")
			for i, call := range []string{`"name":"Bash","input":{"command":"git status"}`, `"name":"Read","input":{"file_path":"/p/README.md"}`,
				`"name":"TodoWrite","input":{"todos":[{"content":"a","status":"pending"}]}`} {
				fmt.Fprintf(f, `{"parentUuid":null,"isSidechain":false,"type":"assistant","message":{"id":"msg_r%d","role":"assistant","content":[{"type":"tool_use","id":"toolu_r%d",%s}]},"uuid":"r%d"}`+"\n", i, i, call, i)
			}
			// The turn's reply, which the payload names.
			f.WriteString(`{"parentUuid":"r2","isSidechain":false,"type":"assistant","message":{"id":"msg_rr","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"reply after the restore"}],"usage":{"input_tokens":500,"cache_creation_input_tokens":1500,"cache_read_input_tokens":20000,"output_tokens":120}},"uuid":"rr","timestamp":"2026-11-29T22:41:00.000Z"}` + "\n")
			f.Close()
			sdir := filepath.Join(dir, "state", "sessions", stopSession)
			if err := os.MkdirAll(sdir, 0o700); err != nil {
				b.Fatal(err)
			}
			os.WriteFile(filepath.Join(sdir, "compactions.json"), []byte(`{"count":1,"delivered":1,"pending":0,"records":[]}`+"\n"), 0o600)
			pendingPath := filepath.Join(sdir, "resume-pending.json")
			pending := []byte(fmt.Sprintf(`{"n":1,"time":"2026-11-29T22:40:01Z","checkpoint":%q,"cwd":%q,"Next":{"Commands":["go test ./auth"],"Files":["auth/session.go"]},"Recovery":{"Commands":null,"Files":null}}`,
				filepath.Join(sdir, "checkpoint.md"), dir))
			arm := func() {
				if err := os.WriteFile(pendingPath, pending, 0o600); err != nil {
					b.Fatal(err)
				}
			}
			payload := stopPayload(b, tr, dir, `[]`)
			e := env(dir)
			catchUp(b, zl, payload, e, dir, tr)
			arm()
			if r, err := procbench.Run(zl, []string{"hook"}, payload, e); err != nil || r.Code != 0 || len(r.Stdout) != 0 {
				b.Fatalf("hook: %v exit %d %q %q", err, r.Code, r.Stdout, r.Stderr)
			}
			if data, err := os.ReadFile(pendingPath); err != nil || !strings.Contains(string(data), `"stops":1`) {
				b.Fatalf("the check did not stay pending: %s %v", data, err)
			}
			if _, err := os.Stat(filepath.Join(sdir, "resume.json")); err == nil {
				b.Fatal("a verdict from neutral calls")
			}
			zlRun := runner(zl, []string{"hook"}, payload, e)
			b.ResetTimer()
			procbench.Compare(b, func() (procbench.Result, error) { arm(); return zlRun() }, runner(floor, nil, payload, e))
			b.StopTimer()
		})
	}
}
