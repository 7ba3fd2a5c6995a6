package cli

import (
	"strings"
	"testing"
)

// TestPreviewColour: preview paints only where colour shows. Its stdout here is a buffer (as
// a file or a pipe is): no escape codes, unless FORCE_COLOR asks; NO_COLOR always wins.
func TestPreviewColour(t *testing.T) {
	tests := []struct {
		name   string
		vars   map[string]string
		colour bool
	}{
		{"pipe", nil, false},
		{"pipe, truecolor terminal type", map[string]string{"COLORTERM": "truecolor"}, false},
		{"FORCE_COLOR=1", map[string]string{"FORCE_COLOR": "1"}, true},
		{"FORCE_COLOR=0", map[string]string{"FORCE_COLOR": "0"}, false},
		{"NO_COLOR beats FORCE_COLOR", map[string]string{"FORCE_COLOR": "3", "NO_COLOR": "1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, errb := testEnv(t, nil, tt.vars)
			if code := e.Run([]string{"preview"}); code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if !strings.Contains(out.String(), "SMART") {
				t.Fatalf("no preview:\n%s", out)
			}
			if got := strings.Contains(out.String(), "\x1b["); got != tt.colour {
				t.Errorf("escape codes written: %v, want %v:\n%q", got, tt.colour, out)
			}
		})
	}
}

// TestPreviewArgs: a bad width or a stray argument is a usage error (exit 2, the usage on
// stderr), not a silent default.
func TestPreviewArgs(t *testing.T) {
	for _, args := range [][]string{{"-width", "-5"}, {"extra"}, {"-width", "80", "extra"}, {"-width", "x"}} {
		e, out, errb := testEnv(t, nil, nil)
		if code := e.Run(append([]string{"preview"}, args...)); code != exitUsage {
			t.Errorf("preview %q: exit %d, want %d", args, code, exitUsage)
		}
		if !strings.Contains(errb.String(), "usage: zoneline preview") {
			t.Errorf("preview %q: no usage on stderr: %q", args, errb)
		}
		if out.Len() != 0 {
			t.Errorf("preview %q rendered anyway:\n%s", args, out)
		}
	}
	e, out, _ := testEnv(t, nil, nil)
	if code := e.Run([]string{"preview", "-width", "60"}); code != 0 {
		t.Fatalf("preview -width 60: exit %d", code)
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(l, "config:") || l == "" {
			continue
		}
		if w := len([]rune(strings.TrimRight(l[29:], " "))); w > 60 {
			t.Errorf("preview -width 60 drew a %d-wide line: %q", w, l)
		}
	}
}
