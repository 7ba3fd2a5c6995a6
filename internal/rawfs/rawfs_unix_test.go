//go:build unix

package rawfs

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// umask sets the process umask and returns a function that restores it.
func umask(m int) func() {
	old := syscall.Umask(m)
	return func() { syscall.Umask(old) }
}

// A FIFO planted where a state file belongs is refused at once, not waited on.
func TestReadFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	_, err := ReadFile(p, 100, true)
	if !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err %v", err)
	}
}
