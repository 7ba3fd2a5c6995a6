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
	if n <= 0 || len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	return strings.TrimRight(s[:i], " ") + "…"
}
