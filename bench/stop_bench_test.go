package bench

import (
	"fmt"
	"path/filepath"
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
