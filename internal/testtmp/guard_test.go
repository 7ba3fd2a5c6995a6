package testtmp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// WinePackages are the packages scripts/wine-test.sh runs under Wine: their tests take temp
// folders from Dir, never t.TempDir, whose cleanup fails there.
var WinePackages = []string{"zones", "statusline", "config", "checkpoint", "install", "state", "payload", "transcript", "paths", "internal/safetext", "internal/redact", "internal/detach"}

func TestWinePackagesUseDir(t *testing.T) {
	re := regexp.MustCompile(`\b\w+\.TempDir\(\)`)
	script, err := os.ReadFile("../../scripts/wine-test.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range WinePackages {
		if !strings.Contains(string(script), "./"+pkg+"/") {
			t.Errorf("scripts/wine-test.sh does not run ./%s/", pkg)
		}
		files, _ := filepath.Glob(filepath.Join("..", "..", pkg, "*_test.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				if re.MatchString(line) {
					t.Errorf("%s:%d: %s: use testtmp.Dir (t.TempDir's cleanup fails under Wine)", f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}
