//go:build unix

package gitinfo

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFOHead: a FIFO at .git/HEAD is an error at once, never a hang.
func TestFIFOHead(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".git", "HEAD"), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Branch(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO HEAD gave a branch")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Branch blocked on a FIFO HEAD")
	}
}
