package install

import (
	"runtime"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// The tests that need Unix skip themselves by name, with the reason, in the Windows leg
// (scripts/wine-test.sh).

// needsSymlinks skips t on Windows: creating a symlink there needs a privilege (or developer
// mode), and Wine does not create them.
func needsSymlinks(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs symlinks: Windows needs a privilege for them and Wine makes none")
	}
}

// needsPosixRename skips t on Windows: it races a POSIX rename (sh, mv) against install's, and
// Windows' file sharing rules refuse a rename over a file another process holds open.
func needsPosixRename(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("races sh's mv against install's rename: Windows' file sharing rules differ")
	}
}

// needsRemoveAll skips t under Wine, whose NT layer lacks the call Go's os.RemoveAll uses.
func needsRemoveAll(t *testing.T) {
	t.Helper()
	if testtmp.Wine() {
		t.Skip("needs os.RemoveAll, which Wine 8 cannot run (see internal/testtmp)")
	}
}
