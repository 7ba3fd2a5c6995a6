package install

import "github.com/zoneline/zoneline/internal/textdiff"

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// UnifiedDiff returns the unified diff (as `diff -u` prints it) that turns a into b, with the
// file names in its header, or "" when they are equal.
func UnifiedDiff(nameA, nameB string, a, b []byte) string {
	return textdiff.Unified(nameA, nameB, a, b, diffContext)
}
