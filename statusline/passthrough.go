package statusline

import (
	"strings"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/safetext"
)

// Passthrough (safetext's rule, escape sequences kept whole) makes one line of another program's output (a wrapped status line) safe to
// print beside zoneline's: its escape sequences are kept (it is the user's own program, its
// colours and links are wanted), but only whole ones — a CSI ending in its final byte, an OSC
// ending in BEL or ESC \, a two-byte escape — and an unterminated one at the end is dropped.
// Invalid UTF-8 becomes U+FFFD, a tab a space, and every other control character (NUL, CR,
// BS, a lone ESC, C1) and bidi override is dropped, so binary output cannot move the cursor
// or break the row. It does not allocate when s is already clean.
func Passthrough(s string) string {
	if passClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, ok := wholeEscape(s[i:])
			if ok {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		case c == '\t':
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f:
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b.WriteString("\uFFFD")
			case !safetext.Unsafe(r):
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		i++
	}
	return b.String()
}

// passClean reports whether s needs nothing from Passthrough: printable ASCII and valid
// UTF-8 without controls, with only whole escape sequences.
func passClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			n, ok := wholeEscape(s[i:])
			if !ok {
				return false
			}
			i += n
			continue
		}
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || safetext.Unsafe(r) {
			return false
		}
		i += size
	}
	return true
}

// wholeEscape returns the length of the escape sequence at the start of s (s[0] == ESC) and
// whether it is whole and printable: a CSI whose parameter bytes are 0x20–0x3F, an OSC
// terminated by BEL or ESC \ without other controls, or ESC and one byte from 0x20–0x7E. A
// sequence that is not whole is skipped up to where it breaks off.
func wholeEscape(s string) (int, bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= 0x40 && c <= 0x7e:
				return i + 1, true
			case c < 0x20 || c > 0x3f:
				return i, false
			}
		}
		return len(s), false
	case ']':
		for i := 2; i < len(s); i++ {
			switch c := s[i]; {
			case c == 0x07:
				return i + 1, true
			case c == 0x1b:
				if i+1 < len(s) && s[i+1] == '\\' {
					return i + 2, true
				}
				return i, false
			case c < 0x20 || c == 0x7f:
				return i, false
			}
		}
		return len(s), false
	}
	if c := s[1]; c >= 0x20 && c <= 0x7e {
		return 2, true
	}
	return 1, false
}
