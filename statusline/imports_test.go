package statusline

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImports holds statusline to its room (ARCHITECTURE.md, "Rooms"): pure, it is handed a
// View and returns a string. Of the module it reads only the payload it shows (payload, whose
// only import of the module is internal/jsonscan), the zones and the text helpers; whatever it
// links, directly or not, starts no program and is nothing heavy.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const mod = "github.com/zoneline/zoneline/"
	allowed := []string{"payload", "zones", "internal/jsonscan", "internal/safetext", "internal/redact", "internal/termcolor", "statusline"}
	banned := []string{"os/exec", "net", "regexp", "text/template", "encoding/json"}
	for _, dep := range strings.Fields(string(out)) {
		if local, ok := strings.CutPrefix(dep, mod); ok && !slices.Contains(allowed, local) {
			t.Errorf("statusline links %s: a pure room reads only the payload, zones and text helpers", dep)
		}
		if slices.Contains(banned, dep) {
			t.Errorf("statusline links %s", dep)
		}
	}
}
