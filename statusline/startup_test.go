//go:build unix

package statusline

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// helperEnv makes the test binary act as a tiny statusline process (see TestMain): "noop"
// exits at once, "render" prints one default render as the statusline does, "uniseg" measures
// text outside the fixed glyphs (the slow path), "table" touches 2.2 MB, as go-runewidth's
// width table did on its first rune ≥ U+0300 (the cost the check must see).
const helperEnv = "ZONELINE_STATUSLINE_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "noop":
		os.Exit(0)
	case "render":
		fmt.Print(Render(fitView(), Options{Profile: termcolor.ANSI256, Width: 198}))
		os.Exit(0)
	case "uniseg":
		fmt.Print(Width("Ópus 日本語 e\u0301 \U0001F468\u200d\U0001F469", false))
		os.Exit(0)
	case "table":
		table := make([]byte, 2200<<10)
		for i := 0; i < len(table); i += 4096 {
			table[i] = 1
		}
		fmt.Print(len(table))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runHelper runs the test binary in helper mode and returns its minor page faults.
func runHelper(t testing.TB, mode string) int64 {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper %s: %v\n%s", mode, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this platform")
	}
	return ru.Minflt
}

// minFaults returns the fewest minor page faults of n runs (the least noisy reading).
func minFaults(t testing.TB, mode string, n int) int64 {
	best := int64(-1)
	for range n {
		if f := runHelper(t, mode); best < 0 || f < best {
			best = f
		}
	}
	return best
}

// TestStartupFaults guards the measured pitfall of the width measure: go-runewidth, the one
// before uniseg, built a 2.2 MB table on its first rune ≥ U+0300 (+1.4 ms and ~550 page faults
// per process). A statusline process that renders the default line, or measures text outside
// the fixed glyphs, must stay near a process that does nothing; the "table" helper shows the
// check would see such a table.
func TestStartupFaults(t *testing.T) {
	if runtime.GOOS != "linux" || testing.Short() {
		t.Skip("page-fault check runs on linux without -short")
	}
	noop := minFaults(t, "noop", 5)
	render := minFaults(t, "render", 5)
	slow := minFaults(t, "uniseg", 5)
	table := minFaults(t, "table", 5)
	t.Logf("minor page faults: noop %d, render %d, uniseg %d, a 2.2 MB table %d", noop, render, slow, table)
	if table-noop < 300 {
		t.Skipf("a 2.2 MB table costs only %d faults here: the check cannot tell", table-noop)
	}
	if render-noop > 100 {
		t.Errorf("rendering costs %d page faults over a no-op process (a 2.2 MB table is %d)", render-noop, table-noop)
	}
	if slow-noop > 100 {
		t.Errorf("measuring text with uniseg costs %d page faults over a no-op process (a 2.2 MB table is %d)", slow-noop, table-noop)
	}
}

// BenchmarkStartup runs whole processes: the bare test binary exiting, and the same binary
// rendering the default line once. The difference is what Render adds to a statusline run.
func BenchmarkStartup(b *testing.B) {
	for _, mode := range []string{"noop", "render", "uniseg"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				runHelper(b, mode)
			}
		})
	}
}
