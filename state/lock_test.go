//go:build unix

package state

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestLock: a lock is exclusive, waits, and is refused (never taken on something else, never
// skipped silently) when a symlink, a FIFO or a folder sits at its path or it stays busy.
func TestLock(t *testing.T) {
	dir := testtmp.Dir(t)
	path := filepath.Join(dir, ".x.lock")
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v %v, want mode 0600", fi, err)
	}
	start := time.Now()
	if _, err := Lock(path, 50*time.Millisecond); !errors.Is(err, ErrLockBusy) {
		t.Errorf("second Lock = %v, want ErrLockBusy", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("gave up after %v, before its wait", d)
	}
	released := make(chan struct{})
	go func() { time.Sleep(30 * time.Millisecond); unlock(); close(released) }()
	unlock2, err := Lock(path, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock waiting for a release: %v", err)
	}
	<-released
	unlock2()
	unlock2() // a second call does nothing (it must not close a reused descriptor)

	// A loose lock file is tightened.
	os.Chmod(path, 0o666)
	u, err := Lock(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	u()
	if fi, _ := os.Lstat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("a 0666 lock file stays %v", fi.Mode().Perm())
	}

	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	planted := map[string]func(p string) error{
		"symlink":  func(p string) error { return os.Symlink(victim, p) },
		"dangling": func(p string) error { return os.Symlink(filepath.Join(dir, "nowhere"), p) },
		"fifo":     func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"dir":      func(p string) error { return os.Mkdir(p, 0o700) },
	}
	for name, plant := range planted {
		p := filepath.Join(dir, name+".lock")
		if err := plant(p); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := Lock(p, time.Second); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: locked", name)
			} else if name != "dir" && !errors.Is(err, ErrLockPlanted) {
				t.Errorf("%s: %v, want ErrLockPlanted", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Lock blocked", name)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("a dangling lock symlink's target was created")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("victim = %q", b)
	}
}
