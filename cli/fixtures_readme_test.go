package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFixturesReadme: every file or folder testdata/claude-code/README.md names (a relative
// path in backticks; a * pattern must match something) is in the repository.
func TestFixturesReadme(t *testing.T) {
	dir := filepath.Join("..", "testdata", "claude-code")
	data, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, m := range regexp.MustCompile("`([^`\\s]+)`").FindAllStringSubmatch(string(data), -1) {
		p := m[1]
		if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "-") || strings.HasPrefix(p, "@") || strings.ContainsAny(p, "<>=:\"{") ||
			!(strings.Contains(p, "/") || regexp.MustCompile(`\.(json|jsonl|py|md|go)$`).MatchString(p)) {
			continue
		}
		named++
		var found []string
		for _, base := range []string{dir, filepath.Join(dir, "*"), ".."} {
			got, _ := filepath.Glob(filepath.Join(base, filepath.FromSlash(strings.TrimSuffix(p, "/"))))
			found = append(found, got...)
		}
		if len(found) == 0 {
			t.Errorf("README.md names %s, which is not in the repository", p)
		}
	}
	if named < 5 {
		t.Errorf("only %d paths found in the README: the test no longer reads it", named)
	}
}
