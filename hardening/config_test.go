//go:build unix

package hardening

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// configDeadline bounds one statusline render or hook with a broken config. It is a
// correctness guard with room for a loaded 2-CPU machine, not a speed figure (that is
// bench's); before the fix a render of this config took 20–30 s.
const configDeadline = 3 * time.Second

// TestManyUnknownTablesConfig: a config of 20,000 unknown tables (about 240 KB) renders within
// the deadline, first (the parse) and after (the cache), keeps its valid keys (no colour, ascii
// glyphs) and says how many problems there are; the hooks too.
func TestManyUnknownTablesConfig(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	data := manyTables()
	if len(data) < 200_000 {
		t.Fatalf("corpus config is %d bytes", len(data))
	}
	write(t, w.config, data)
	tmpl := withRaw("session_id", []byte(`"@SESSION@"`))
	stdin := w.subst(tmpl, "")
	for i := range 3 {
		r := w.run(t, bin, stdin, []string{"statusline"})
		checkStatusline(t, "statusline", r)
		t.Logf("render %d: %s", i+1, r.took)
		if r.took > configDeadline {
			t.Errorf("render %d took %s (bound %s)", i+1, r.took, configDeadline)
		}
		line := string(r.stdout)
		// (the ⚠ shows the problem, or, on a line too narrow for it, the command that lists them)
		if !(strings.Contains(line, "! config.toml:3:1: unknown table [t0]") && strings.Contains(line, "more)")) && !strings.HasSuffix(line, "! zoneline config check\n") {
			t.Errorf("render %d: no problem segment: %q", i+1, line)
		}
		if bytes.ContainsRune(r.stdout, 0x1b) || strings.ContainsAny(line, "·⚠░█") {
			t.Errorf("render %d: the valid keys (color none, glyphs ascii) were not kept: %q", i+1, line)
		}
	}
	for _, ev := range []string{"UserPromptSubmit", "SessionStart", "PreCompact"} {
		r := w.run(t, bin, w.subst(tmpl, ev), []string{"hook"})
		checkHook(t, "hook "+ev, r)
		if r.took > configDeadline {
			t.Errorf("hook %s took %s (bound %s)", ev, r.took, configDeadline)
		}
	}
	if _, err := os.Stat(w.state + "/config-cache.toml"); err != nil {
		t.Errorf("no config cache: %v", err)
	}
}
