package bench

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// modPayload is what the mod sends `zoneline mod status` on every turn: the fields the engine's
// $.session gives it, in the status line's shape.
const modPayload = `{"session_id":"aaa8e696-ca66-4fcf-8fb3-651eb7e68c12","transcript_path":"","cwd":"/tmp","model":{"id":"claude-sonnet-4-5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":140000}}}`

// BenchmarkModStatus is the mod's call on every turn (session.start, prompt.submit,
// turn.complete): a render and the warning loop, answered as one JSON line.
func BenchmarkModStatus(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	e := env(b.TempDir())
	payload := []byte(modPayload)
	// A first call creates the session's state and crosses the tiers, as in a running session.
	if r, err := procbench.Run(zl, []string{"mod", "status"}, payload, e); err != nil || !strings.Contains(string(r.Stdout), `"zone":"dumb"`) {
		b.Fatalf("mod status: %v %q %q", err, r.Stdout, r.Stderr)
	}
	b.ResetTimer()
	procbench.Compare(b, runner(zl, []string{"mod", "status"}, payload, e), runner(floor, nil, payload, e))
	b.StopTimer()
	procbench.ReportPeakRSS(b, zl, []string{"mod", "status"}, payload, e, floor)
}
