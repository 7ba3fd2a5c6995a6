//go:build unix

package doctor

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInProject: doctor -project reads the repository's .claude: a FIFO at settings.json or a
// skill is a finding at once, never a hang.
func TestFIFOInProject(t *testing.T) {
	for _, rel := range []string{"settings.json", "skills/compact-prep/SKILL.md"} {
		t.Run(rel, func(t *testing.T) {
			claude := filepath.Join(t.TempDir(), ".claude")
			fifo := filepath.Join(claude, filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(fifo), 0o755)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip(err)
			}
			done := make(chan []Result, 1)
			go func() {
				settings := filepath.Join(claude, "settings.json")
				rs := append(Settings(settings, "/nonexistent/zoneline"), Skills(claude, "/nonexistent/zoneline", Plugin(settings))...)
				done <- rs
			}()
			select {
			case rs := <-done:
				if !Failed(rs) {
					t.Errorf("a FIFO at %s is no finding: %+v", rel, rs)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("doctor blocked on a FIFO at %s", rel)
			}
		})
	}
}
