//go:build unix

package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// specialFiles names paths that are not regular files: each reader must
// return an error at once, never block (a FIFO) or read forever (/dev/zero).
func specialFiles(t *testing.T) map[string]string {
	dir := testtmp.Dir(t)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{
		"directory":  dir,
		"fifo":       fifo,
		"missing":    filepath.Join(dir, "nope.jsonl"),
		"empty path": "",
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		m["/dev/zero"] = "/dev/zero"
	}
	return m
}

func TestSpecialFilesFailFast(t *testing.T) {
	for name, p := range specialFiles(t) {
		t.Run(name, func(t *testing.T) {
			done := make(chan string, 1)
			go func() {
				var errs []string
				if _, err := Tail(p, 0); err == nil {
					errs = append(errs, "Tail: no error")
				} else if !strings.HasPrefix(err.Error(), "zoneline: ") {
					errs = append(errs, "Tail: "+err.Error())
				}
				if _, err := ScanCompactions(p, 0, 0); err == nil {
					errs = append(errs, "ScanCompactions: no error")
				}
				if _, err := Facts(p, 0, FactLimits{}); err == nil {
					errs = append(errs, "Facts: no error")
				}
				done <- strings.Join(errs, "; ")
			}()
			select {
			case msg := <-done:
				if msg != "" {
					t.Error(msg)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("blocked on a special file")
			}
		})
	}
}
