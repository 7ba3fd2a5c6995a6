package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

func TestWrapCommand(t *testing.T) {
	for _, cmd := range []string{"ccstatusline", "npx -y ccstatusline@latest", `bash -c 'echo "$X"'`, "it's"} {
		w := WrapCommand("/home/u/.local/bin/zoneline", cmd, "linux")
		if !IsOurs(w, SubStatusline) {
			t.Errorf("%q: not recognised as ours", w)
		}
		if got := Wrapped(w); got != cmd {
			t.Errorf("Wrapped(%q) = %q, want %q", w, got, cmd)
		}
	}
	if IsOurs("zoneline statusline -wrap x | head", SubStatusline) {
		t.Error("a pipeline after -wrap's value is the user's own command")
	}
	if Wrapped("zoneline statusline") != "" || Wrapped("zoneline statusline -wrap=abc") != "abc" {
		t.Error("Wrapped")
	}
}

// TestUninstallHandWrapped: a wrap written by hand (no install record of what it replaced)
// is taken apart on uninstall, leaving the wrapped command as the status line.
func TestUninstallHandWrapped(t *testing.T) {
	dir := testtmp.Dir(t)
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"statusLine": {"type": "command", "command": "zoneline statusline -wrap 'npx -y ccstatusline@latest'", "padding": 0}}`), 0o644)
	if _, err := Uninstall(Options{Settings: p, ClaudeDir: dir, GOOS: "linux"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"command": "npx -y ccstatusline@latest"`) || strings.Contains(string(b), "zoneline") {
		t.Errorf("after uninstall:\n%s", b)
	}
}
