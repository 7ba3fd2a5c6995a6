//go:build unix

package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/internal/termcolor"
)

func TestMain(m *testing.M) {
	code := m.Run()
	procbench.Cleanup()
	os.Exit(code)
}

// TestHarnessSmoke proves the harness itself works, independent of zoneline:
// a shell statusLine shows under the prompt box and one prompt makes one
// main-turn request to the mock.
func TestHarnessSmoke(t *testing.T) {
	t0 := time.Now()
	s := Start(t, Options{
		Model: "claude-sonnet-4-5-20250929",
		Settings: map[string]any{
			"statusLine": map[string]any{"type": "command", "command": "printf 'E2E-SMOKE-LINE'"},
		},
	})
	s.MockUsage(Context(33000))
	s.Prompt("hello from the smoke test")

	if _, ok := s.Poll(10*time.Second, false, func(sc string) bool { return strings.Contains(sc, "E2E-SMOKE-LINE") }); !ok {
		s.Fatalf("the status line E2E-SMOKE-LINE never showed")
	}
	s.WaitScreen(regexp.MustCompile(`Mock reply #\d+\. OK\.`), 10*time.Second)
	if area := StatusArea(s.Screen(true)); len(area) != 1 || strings.TrimSpace(termcolor.Strip(area[0])) != "E2E-SMOKE-LINE" {
		s.Fatalf("the status line area under the prompt box is %q, want the one line E2E-SMOKE-LINE", area)
	}

	main := s.Requests(KindMain, KindToolResult)
	if len(main) != 1 {
		s.Fatalf("the mock got %d main-turn requests, want 1", len(main))
	}
	if r := main[0]; r.UsageSent == nil || r.UsageSent.Total() != 33000 {
		s.Fatalf("the main turn was answered with usage %+v, want the queued 33000-token context", r.UsageSent)
	}
	if n := len(s.Requests(KindCompact)); n != 0 {
		s.Fatalf("the mock got %d compaction requests, want 0", n)
	}
	t.Logf("smoke test took %.1fs", time.Since(t0).Seconds())
}

// hookEntry is a settings.json hooks entry that runs command (timeout 10 s) for matcher ("":
// every one).
func hookEntry(command, matcher string) []any {
	e := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": 10}}}
	if matcher != "" {
		e["matcher"] = matcher
	}
	return []any{e}
}
