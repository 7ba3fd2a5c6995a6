//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConfigInitTightensFolder: `config init` into an existing 0755 zoneline folder leaves it
// 0700 and the file 0600.
func TestConfigInitTightensFolder(t *testing.T) {
	e, _, errb := testEnv(t, nil, map[string]string{"ZONELINE_CONFIG": "$DIR/xdg/zoneline/config.toml"})
	dir := filepath.Dir(e.Paths.Config)
	os.MkdirAll(dir, 0o755)
	os.Chmod(dir, 0o755)
	if code := e.Run([]string{"config", "init"}); code != 0 {
		t.Fatalf("config init: exit %d: %s", code, errb)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, e.Paths.Config: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
}
