//go:build unix

package state

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestLooseModesSetBack: the folders Session passes through and the files ReadPrivate opens get
// their private modes back; ReadFile (for files that are not the state dir's) leaves modes alone.
func TestLooseModesSetBack(t *testing.T) {
	d := Dir{Root: filepath.Join(testtmp.Dir(t), "state")}
	sdir := filepath.Join(d.Root, SessionsDirName, id)
	if err := os.MkdirAll(sdir, 0o777); err != nil {
		t.Fatal(err)
	}
	own, foreign := filepath.Join(sdir, "session.json"), filepath.Join(d.Root, "settings.json")
	for _, p := range []string{own, foreign} {
		os.WriteFile(p, []byte("{}"), 0o600)
	}
	for _, p := range []string{d.Root, filepath.Dir(sdir), sdir} {
		os.Chmod(p, 0o777)
	}
	os.Chmod(own, 0o666)
	os.Chmod(foreign, 0o644)
	checked.Store(nil)
	if _, err := d.Session(id); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPrivate(own, 1<<10); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(foreign, 1<<10); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{d.Root: 0o700, filepath.Dir(sdir): 0o700, sdir: 0o700, own: 0o600, foreign: 0o644} {
		if fi, _ := os.Lstat(p); fi.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}
