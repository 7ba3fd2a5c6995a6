//go:build unix

package config

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestLoadSpecialFiles: a config that is a FIFO, /dev/zero, a directory or a symlink loop
// degrades to the defaults with an error, and never blocks or reads forever.
func TestLoadSpecialFiles(t *testing.T) {
	dir := testtmp.Dir(t)
	fifo := filepath.Join(dir, "fifo.toml")
	syscall.Mkfifo(fifo, 0o600)
	zero := filepath.Join(dir, "zero.toml")
	os.Symlink("/dev/zero", zero)
	loop := filepath.Join(dir, "loop.toml")
	os.Symlink(loop+"2", loop)
	os.Symlink(loop, loop+"2")
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, make([]byte, 2*MaxSize), 0o600)
	for _, p := range []string{fifo, zero, dir, loop, big} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			c, err := Load(p)
			if err == nil || !reflect.DeepEqual(c, Default()) {
				t.Errorf("Load(%s) = %v, want the defaults and an error", p, err)
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Load(%s) blocked", p)
		}
	}
}
