package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/notify/notifytest"
)

const upsFixture = "../testdata/claude-code/edge-cases-sonnet-200k/hook-edge-UserPromptSubmit-01.json"

// BenchmarkHookUserPromptNoMarker runs `zoneline hook` on a recorded UserPromptSubmit payload of
// a session with no marker (the common case: it prints nothing), against the floor. Target:
// ≤ 1.15× floor.
func BenchmarkHookUserPromptNoMarker(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	floor := procbench.Build(b, "./internal/floor")
	payload, err := os.ReadFile(upsFixture)
	if err != nil {
		b.Fatal(err)
	}
	e := env(b.TempDir())
	if r, err := procbench.Run(zl, []string{"hook"}, payload, e); err != nil || r.Code != 0 || len(r.Stdout) != 0 {
		b.Fatalf("hook: %v exit %d %q %q", err, r.Code, r.Stdout, r.Stderr)
	}
	b.ResetTimer()
	procbench.Compare(b, runner(zl, []string{"hook"}, payload, e), runner(floor, nil, payload, e))
	b.StopTimer()
	procbench.ReportPeakRSS(b, zl, []string{"hook"}, payload, e, floor)
}

// BenchmarkStatuslineNotify compares the statusline on a render that crosses the prep threshold
// (marker written, detached notifier spawned, a real Notify on a private bus) with the same
// render once the markers exist (nothing fired). "x-floor" here is fired / not fired. Target:
// ≤ 1.05×. Each render first waits, untimed, for the last notifier to deliver and exit.
func BenchmarkStatuslineNotify(b *testing.B) {
	zl := procbench.Build(b, "./cmd/zoneline")
	procbench.Build(b, "./cmd/zoneline-notify") // the companion beside zoneline, as installed
	bus := notifytest.StartBus(b)
	rcv := bus.Receiver(b, notifytest.Answer)
	dir := b.TempDir()
	e := env(dir, bus.Env(), "XDG_RUNTIME_DIR="+dir)
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	payload := []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"model":{"id":"claude-sonnet-4-5-20250929","display_name":"Sonnet 4.5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":500,"output_tokens":120,"cache_creation_input_tokens":1500,"cache_read_input_tokens":123000}}}`, id, dir))
	sdir := filepath.Join(dir, "state", "sessions", id)
	reset := func() {
		ents, _ := os.ReadDir(sdir)
		for _, en := range ents {
			if n := en.Name(); strings.HasPrefix(n, "marker-") || strings.HasPrefix(n, "nudge-") {
				os.Remove(filepath.Join(sdir, n))
			}
		}
	}
	if r, err := procbench.Run(zl, []string{"statusline"}, payload, e); err != nil || !strings.Contains(string(r.Stdout), "125k") {
		b.Fatalf("render: %v %q", err, r.Stdout)
	}
	rcv.Wait(b, 1, 10e9)
	sent := 1
	// settle waits, untimed, for the last render's notifier to deliver and exit, so that it does
	// not take the CPU from the next render (the machine has 2): a render's own time is compared.
	settle := func() {
		rcv.Wait(b, sent, 10*time.Second)
		time.Sleep(20 * time.Millisecond)
	}
	fired := func() (procbench.Result, error) {
		settle()
		reset()
		sent++
		return procbench.Run(zl, []string{"statusline"}, payload, e)
	}
	quiet := func() (procbench.Result, error) {
		settle()
		return procbench.Run(zl, []string{"statusline"}, payload, e)
	}
	b.ResetTimer()
	procbench.Compare(b, fired, quiet)
	b.StopTimer()
	b.ReportMetric(float64(len(rcv.Records())), "notifications")
}
