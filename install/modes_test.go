//go:build unix

package install

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestConfigModesTightened: an existing 0755 zoneline config folder and a 0644 config file
// are made 0700 and 0600 by an install (the first, and a repeat that changes nothing else);
// a folder not named zoneline ($ZONELINE_CONFIG in a dotfiles repository) keeps its mode.
func TestConfigModesTightened(t *testing.T) {
	for _, again := range []bool{false, true} {
		dir := testtmp.Dir(t)
		o := testOptions(dir)
		if again {
			if _, err := Install(o); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(filepath.Dir(o.Config), 0o755)
		os.Chmod(filepath.Dir(o.Config), 0o755)
		if !again {
			os.WriteFile(o.Config, []byte("color = \"none\"\n"), 0o644)
		}
		os.Chmod(o.Config, 0o644)
		if _, err := Install(o); err != nil {
			t.Fatal(err)
		}
		for p, want := range map[string]os.FileMode{filepath.Dir(o.Config): 0o700, o.Config: 0o600} {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
				t.Errorf("again=%v: %s: mode %v (%v), want %v", again, p, fi.Mode().Perm(), err, want)
			}
		}
	}
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	o.Config = filepath.Join(dir, "dotfiles", "zoneline.toml")
	os.MkdirAll(filepath.Dir(o.Config), 0o755)
	os.Chmod(filepath.Dir(o.Config), 0o755)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Dir(o.Config)); fi.Mode().Perm() != 0o755 {
		t.Errorf("a folder not zoneline's own was changed to %v", fi.Mode().Perm())
	}
}
