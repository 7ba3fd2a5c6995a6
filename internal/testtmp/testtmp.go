// Package testtmp gives tests a temporary folder that also works under Wine.
//
// Go 1.26's os.RemoveAll on Windows deletes files through an NT information class that Wine 8
// does not implement ("unlinkat …: Invalid function"), so t.TempDir's cleanup marks a test
// failed under Wine although the test passed. The Windows leg of CI (scripts/wine-test.sh) sets
// ZONELINE_TEST_WINE=1; Dir then removes the folder file by file with os.Remove, which Wine
// does implement, and a leftover is logged, never a failure. Everywhere else Dir is t.TempDir.
package testtmp

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Wine reports whether the tests run under Wine (ZONELINE_TEST_WINE=1).
func Wine() bool { return os.Getenv("ZONELINE_TEST_WINE") == "1" }

// Dir is t.TempDir, with a cleanup Wine can run.
func Dir(t testing.TB) string {
	t.Helper()
	if !Wine() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "zoneline-test-")
	if err != nil {
		t.Fatalf("testtmp: %v", err)
	}
	t.Cleanup(func() {
		if err := removeAll(dir); err != nil {
			t.Logf("testtmp: %s left behind under Wine: %v", dir, err)
		}
	})
	return dir
}

// removeAll removes dir's files, then its folders, deepest first, with os.Remove.
func removeAll(dir string) error {
	var dirs []string
	var first error
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		os.Chmod(p, 0o600)
		if err := os.Remove(p); err != nil && first == nil {
			first = err
		}
		return nil
	})
	slices.Reverse(dirs)
	for _, d := range dirs {
		if err := os.Remove(d); err != nil && first == nil {
			first = err
		}
	}
	return first
}
