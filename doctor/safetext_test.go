package doctor

import (
	"bytes"
	"testing"

	"github.com/zoneline/zoneline/internal/safetext"
)

// TestRenderSanitizes: details, fixes and log lines quoting outside strings reach the terminal
// with no control, C1 or bidi rune, one line each.
func TestRenderSanitizes(t *testing.T) {
	rs := []Result{
		{Name: "claude code", Status: Warn, Detail: "version 2.1\x1b[2J\u009b31m, model Son\u202enet\u2066", Fix: "fix\x1b]0;x\x07 it"},
		{Name: "log", Status: Warn, Detail: "log", More: []string{"2026 statusline: \x1b]52;c;ZXZpbA==\x07 \u0085 \u202eevil\nforged line"}},
	}
	var b bytes.Buffer
	Render(&b, rs)
	for _, r := range b.String() {
		if safetext.Unsafe(r) && r != '\n' {
			t.Fatalf("Render printed %U in %q", r, b.String())
		}
	}
	if bytes.Contains(b.Bytes(), []byte("\nforged line")) {
		t.Errorf("a log line broke into two: %q", b.String())
	}
}
