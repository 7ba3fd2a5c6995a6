package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsLinks: every relative link in README.md, CONTRIBUTING.md, ARCHITECTURE.md and docs/*.md
// names a file that is in the repository (anchors and web addresses aside), so a page moved or
// renamed cannot leave a newcomer at a dead link.
func TestDocsLinks(t *testing.T) {
	root := ".."
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	pages = append(pages, filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md"), filepath.Join(root, "ARCHITECTURE.md"))
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Errorf("%s: %v", page, err)
			continue
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), target)); err != nil {
				t.Errorf("%s links to %s, which is not there", page, m[1])
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d links checked: the test no longer reads the pages", checked)
	}
}
