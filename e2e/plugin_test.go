//go:build unix

package e2e

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// TestPluginValidate: the repository, as a Claude Code plugin (.claude-plugin/, hooks/hooks.json
// running hooks/run, skills/), passes the real CLI's `claude plugin validate`.
func TestPluginValidate(t *testing.T) {
	claude := Require(t)
	root, err := procbench.Root()
	if err != nil {
		t.Fatal(err)
	}
	out, err := claudeRun(t, claude, "plugin", "validate", root)
	if err != nil || !strings.Contains(out, "Validation passed") {
		t.Fatalf("claude plugin validate %s: %v\n%s", root, err, out)
	}
}
