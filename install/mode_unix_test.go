//go:build unix

package install

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestConfigFolderPrivate: install creates the config's folder 0700 under the usual umask
// (it created it 0755 first, and a second MkdirAll asking 0700 left it so), and the config 0600.
func TestConfigFolderPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	o := testOptions(testtmp.Dir(t))
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{filepath.Dir(o.Config): 0o700, o.Config: 0o600} {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}
