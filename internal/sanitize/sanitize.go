// Package sanitize makes outside strings (transcript text, hook payload fields) safe to show a
// terminal or the agent: one line, no control characters, no bidirectional overrides, valid
// UTF-8, bounded length.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Line returns s as one line of at most max runes (max <= 0: no limit): every control
// character (C0, DEL, C1, so every escape sequence loses its ESC), line and paragraph
// separator and bidirectional override becomes a space, invalid UTF-8 becomes U+FFFD, runs of
// spaces fold into one, and the ends are trimmed. A cut string ends with "…".
func Line(s string, max int) string {
	if clean(s) && (max <= 0 || len(s) <= max) {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*max+4))
	n := 0
	space := true // drop leading spaces
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			r = utf8.RuneError
		}
		if bad(r) || r == ' ' {
			if space {
				continue
			}
			r, space = ' ', true
		} else {
			space = false
		}
		if max > 0 && n == max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimRight(b.String(), " ")
}

// clean reports whether s needs no change: printable ASCII with no double, leading or
// trailing spaces.
func clean(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || (c == ' ' && i+1 < len(s) && s[i+1] == ' ') {
			return false
		}
	}
	return true
}

// bad reports whether r is replaced by a space.
func bad(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029: // line, paragraph separator
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true // bidirectional embeddings, overrides, isolates and marks
	case r == 0xfeff:
		return true
	}
	return false
}

// ID returns s if it is a plain identifier (letters, digits, "-", "_", ".", ":", "#", "@", at
// most 200 bytes, not "." or "..", no slash), else s through Line with a cap of 80 runes and
// quoted: an id from outside is shown, never used as a path.
func ID(s string) string {
	if s != "" && len(s) <= 200 && s != "." && s != ".." {
		ok := true
		for i := 0; i < len(s) && ok; i++ {
			c := s[i]
			ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
				c == '-' || c == '_' || c == '.' || c == ':' || c == '#' || c == '@'
		}
		if ok {
			return s
		}
	}
	return "\"" + strings.ReplaceAll(Line(s, 80), "\"", "'") + "\""
}

// Text is Line for text whose line breaks count (a prompt): each line of s goes through Line
// (no cap), and "\r\n" and "\r" become "\n".
func Text(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Line(l, 0)
	}
	return strings.Join(lines, "\n")
}
