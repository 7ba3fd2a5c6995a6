package safetext

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneHomeForFolding: folding an outside string to one line has one home, Field (and Clip
// under it): no package keeps a oneLine of its own (issue 24 item 5 found four); cutting, Cut
// (pipeline had a Truncate); cutting to a byte budget at a rune's start, CutBytes (the log, the
// Stop reply's needle and a skill's body each had the loop).
func TestOneHomeForFolding(t *testing.T) {
	copyOf := regexp.MustCompile(`(?m)^func (oneLine|flatten|singleLine|Truncate)\(|!utf8\.RuneStart\(`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(filepath.ToSlash(path), "internal/safetext/clip.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if m := copyOf.Find(data); m != nil {
			t.Errorf("%s: %s… : use safetext (Field, Cut, CutBytes) instead", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
