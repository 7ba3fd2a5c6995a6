package safetext

import (
	"strings"
	"unicode/utf8"
)

// Clip is Line for a bounded field (an id, a command, a path recorded from a transcript or a
// payload): Line, then runs of spaces folded into one, the ends trimmed, and the result cut to
// at most n runes with "…" when it was longer (n <= 0: no cut).
func Clip(s string, n int) string {
	s = Line(s)
	if strings.Contains(s, "  ") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = strings.Join(strings.Fields(s), " ")
	}
	if n <= 0 || fits(s, n) {
		return s
	}
	return strings.TrimRight(prefix(s, n), " ") + "…"
}

// Cut cuts s to n runes, the last an ellipsis, when it is longer (n <= 0: no cut); it cleans
// nothing: for text already safe, or quoted where it is shown.
func Cut(s string, n int) string {
	if n <= 0 || fits(s, n) {
		return s
	}
	return prefix(s, n-1) + "…"
}

// CutBytes returns s cut to at most n bytes at the start of a rune, and whether it was longer
// (n <= 0: nothing is kept of a non-empty s); it cleans nothing.
func CutBytes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// fits reports whether s has at most n runes.
func fits(s string, n int) bool { return len(s) <= n || utf8.RuneCountInString(s) <= n }

// prefix returns the first n runes of s.
func prefix(s string, n int) string {
	k := 0
	for i := range s {
		if k == n {
			return s[:i]
		}
		k++
	}
	return s
}
