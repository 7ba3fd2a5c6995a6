package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestDanglingSymlinkSettings: a settings.json that is a symlink to a missing file (or a loop)
// is an error naming the target; the link stays a link and nothing is created or written.
func TestDanglingSymlinkSettings(t *testing.T) {
	needsSymlinks(t)
	for _, tc := range []struct{ name, target string }{
		{"missing target", "dotfiles/claude/settings.json"},
		{"missing folder", "/nonexistent/settings.json"},
		{"loop", "settings.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testtmp.Dir(t)
			o := testOptions(dir)
			os.MkdirAll(o.ClaudeDir, 0o755)
			if err := os.Symlink(tc.target, o.Settings); err != nil {
				t.Skip(err)
			}
			for _, run := range []func(Options) (*Result, error){Install, Uninstall} {
				_, err := run(o)
				if err == nil || !strings.Contains(err.Error(), "is a symlink to "+tc.target) || !strings.Contains(err.Error(), "nothing was changed") {
					t.Fatalf("err = %v, want one naming the target %s", err, tc.target)
				}
			}
			if fi, err := os.Lstat(o.Settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the symlink was replaced: %v", err)
			}
			if got, _ := os.Readlink(o.Settings); got != tc.target {
				t.Errorf("link now points at %q", got)
			}
			ents, _ := os.ReadDir(o.ClaudeDir)
			if len(ents) != 1 {
				t.Errorf("files written beside the link: %v", ents)
			}
			if _, err := os.Stat(o.Config); err == nil {
				t.Error("the config was written by a failed install")
			}
		})
	}
}

// TestSymlinkChainWrittenThrough: a link to a link to the real file: the file is edited, both
// links stay.
func TestSymlinkChainWrittenThrough(t *testing.T) {
	needsSymlinks(t)
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	os.MkdirAll(o.ClaudeDir, 0o755)
	real := filepath.Join(dir, "dotfiles", "real.json")
	mid := filepath.Join(dir, "dotfiles", "mid.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("{\"model\": \"opus\"}\n"), 0o600)
	if err := os.Symlink(real, mid); err != nil {
		t.Skip(err)
	}
	os.Symlink("../dotfiles/mid.json", o.Settings)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{o.Settings, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symlink", l)
		}
	}
	b, _ := os.ReadFile(real)
	if !strings.Contains(string(b), "zoneline statusline") || !strings.Contains(string(b), `"model": "opus"`) {
		t.Errorf("target:\n%s", b)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600 kept", fi.Mode().Perm())
	}
}
