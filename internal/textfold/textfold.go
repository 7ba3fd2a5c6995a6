// Package textfold matches fixed lower-case text case-insensitively exactly as Go's regexp
// (?i) does, for the matchers that replaced regexps (compactflow's screen reading): besides
// ASCII case, 'k' also matches the Kelvin sign U+212A and 's' the long s U+017F, the only
// non-ASCII runes that fold onto ASCII letters.
package textfold

import "strings"

// Prefix reports whether s starts with lit (lower case) under (?i) folding, and how many bytes
// of s that takes.
func Prefix(s, lit string) (int, bool) {
	i := 0
	for j := 0; j < len(lit); j++ {
		c := lit[j]
		switch {
		case i < len(s) && (s[i] == c || 'A' <= s[i] && s[i] <= 'Z' && s[i]+'a'-'A' == c):
			i++
		case c == 'k' && strings.HasPrefix(s[i:], "\u212a"):
			i += len("\u212a")
		case c == 's' && strings.HasPrefix(s[i:], "\u017f"):
			i += len("\u017f")
		default:
			return 0, false
		}
	}
	return i, true
}

// Contains reports whether s contains lit (lower case) under (?i) folding.
func Contains(s, lit string) bool {
	for i := range len(s) {
		if _, ok := Prefix(s[i:], lit); ok {
			return true
		}
	}
	return false
}
