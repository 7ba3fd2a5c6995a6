//go:build unix

package install

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestFIFOInProject: a repository's .claude may hold a FIFO where install reads a file (the
// record, a skill, the backup, the mod's manifest): install and uninstall -project fail at once
// with an error, never hang on it.
func TestFIFOInProject(t *testing.T) {
	for _, rel := range []string{RecordName, "skills/compact-prep/SKILL.md", "settings.json" + BackupSuffix, "skills/" + ModName + "/" + modManifest} {
		t.Run(rel, func(t *testing.T) {
			dir := testtmp.Dir(t)
			o := testOptions(dir)
			os.MkdirAll(o.ClaudeDir, 0o755)
			os.WriteFile(o.Settings, []byte(`{"model": "opus"}`), 0o644)
			fifo := filepath.Join(o.ClaudeDir, filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(fifo), 0o755)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := Install(o)
				if err == nil {
					_, err = Uninstall(o)
				}
				IsModDir(ModDir(o.ClaudeDir))
				done <- err
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("install blocked on a FIFO at %s", rel)
			}
		})
	}
}
