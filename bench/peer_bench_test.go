package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// BenchmarkHookStop runs `zoneline hook` on Stop (the warning loop from the transcript's tail,
// whatever draws the status line) for a 1 MB and a 200 MB transcript, against the floor. The
// payload names the last reply (last_assistant_message), which is on disk. Target: ≤ 1.15×
// the floor and flat in transcript size.
func BenchmarkHookStop(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	for _, size := range []int64{1 << 20, 200 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			dir := b.TempDir()
			tr := filepath.Join(dir, "t.jsonl")
			if err := writeTranscript(tr, size); err != nil {
				b.Fatal(err)
			}
			payload := []byte(fmt.Sprintf(`{"session_id":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12","transcript_path":%q,"cwd":%q,"prompt_id":"p1","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":%q,"background_tasks":[],"session_crons":[]}`,
				tr, dir, lastReply(b, tr)))
			e := env(dir)
			// Catch the compaction count up with the transcript, as earlier turns would have.
			for i := 0; i < 100; i++ {
				r, err := procbench.Run(zl, []string{"hook"}, payload, e)
				if err != nil || r.Code != 0 || len(r.Stdout) != 0 {
					b.Fatalf("hook: %v exit %d %q %q", err, r.Code, r.Stdout, r.Stderr)
				}
				if caughtUp(filepath.Join(dir, "state"), size) {
					break
				}
			}
			if log, _ := os.ReadFile(filepath.Join(dir, "state", "zoneline.log")); bytes.Contains(log, []byte("Stop: ")) {
				b.Fatalf("the Stop hook logged a problem:\n%s", log)
			}
			b.ResetTimer()
			procbench.Compare(b, runner(zl, []string{"hook"}, payload, e), runner(floor, nil, payload, e))
			b.StopTimer()
			procbench.ReportPeakRSS(b, zl, []string{"hook"}, payload, e, floor)
		})
	}
}

// lastReply returns the text of the transcript's last reply (writeTranscript's "reply N").
func lastReply(b *testing.B, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	i := bytes.LastIndex(data, []byte(`"text":"reply `))
	if i < 0 {
		b.Fatal("no reply in the transcript")
	}
	rest := data[i+len(`"text":"`):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}

// BenchmarkStatuslineWrap runs `zoneline statusline -wrap FLOOR` (the floor program as the
// wrapped status line command) against a plain render followed by the floor alone: wrapping
// costs at most what running both costs (the wrapped command runs while zoneline renders).
// Target: ≤ 1.1×.
func BenchmarkStatuslineWrap(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	payload, err := os.ReadFile(fixture)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	e := env(dir)
	wrap := []string{"statusline", "-wrap", floor}
	r, err := procbench.Run(zl, wrap, payload, e)
	if err != nil || !strings.Contains(string(r.Stdout), "DUMB") || !strings.Contains(string(r.Stdout), "Sonnet 4.5 180k/200k") || strings.Contains(string(r.Stdout), "⚠") {
		b.Fatalf("wrapped render: %v %q %q", err, r.Stdout, r.Stderr)
	}
	both := func() (procbench.Result, error) {
		a, err := procbench.Run(zl, []string{"statusline"}, payload, e)
		if err != nil {
			return a, err
		}
		f, err := procbench.Run(floor, nil, payload, e)
		a.Wall += f.Wall
		return a, err
	}
	b.ResetTimer()
	procbench.Compare(b, runner(zl, wrap, payload, e), both)
}
