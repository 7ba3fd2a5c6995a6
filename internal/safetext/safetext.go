// Package safetext is the one sanitizer for text that came from outside zoneline (a payload, a
// transcript, a repository, a config or settings file, the environment, a terminal pane) on its
// way to a terminal, the log or the agent. One rule says which runes are unsafe (Unsafe); the
// functions differ only in what they put in their place (the rule includes the invisible runes
// that hide text, tag characters and zero-width ones; a ZWJ inside an emoji sequence is kept):
//
//   - Line: one line for a segment or a table cell: line breaks and tabs become spaces, the
//     other unsafe runes are dropped (the statusline, `sessions`, `doctor`).
//   - Text: several lines whose layout matters (a config file's caret diagram, a checkpoint):
//     newlines and tabs stay, every other unsafe rune becomes one visible stand-in (␛ for ESC),
//     so a caret under a column still points at it.
//   - Escape: the log: unsafe runes become \xNN or \uNNNN, readable and unambiguous; newlines
//     and tabs are left to the caller.
//   - JSON: encoded JSON for scripts: unsafe runes encoding/json leaves raw (C1, bidi) become
//     \uNNNN escapes, so the decoded value is unchanged and the bytes are safe to print.
//
// Invalid UTF-8 becomes U+FFFD everywhere. Nothing is built at init and a clean string is
// returned without allocating: the statusline calls Line on its hot path.
package safetext

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal as it is: the C0 controls (ESC starts
// every escape sequence; CR and BS overwrite what was printed), DEL, the C1 controls
// U+0080–U+009F (U+009B is a one-rune CSI on some terminals) and the bidi embedding, override
// and isolate controls U+202A–U+202E, U+2066–U+2069 (they reorder what is shown: "Trojan
// source"). Line separators U+2028 and U+2029 count too: they break a line. So do the invisible
// runes that hide or smuggle text from a reader while a model still reads them: the tag
// characters U+E0000–U+E007F (ASCII spelled invisibly), the zero-width space, non-joiner and
// joiner U+200B–U+200D, the word joiner U+2060, the BOM U+FEFF, and the marks LRM, RLM and
// ALM (U+200E, U+200F, U+061C).
//
// The one exception, deliberately: a zero-width joiner between two emoji (👨‍👩‍👧, the
// statusline's width code treats the sequence as one cluster) is kept by every function here,
// on the status line and in text for the agent alike: it joins pictures, it cannot spell or
// split a word (joinsEmoji). Anywhere else it is unsafe like the others.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x200b && r <= 0x200f, r == 0x2060, r == 0xfeff, r == 0x061c, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// isEmoji reports whether r is a pictograph or an emoji's modifier (a side of an emoji ZWJ
// sequence): the pictograph blocks, dingbats and miscellaneous symbols, and VS16.
func isEmoji(r rune) bool {
	return (r >= 0x1f000 && r <= 0x1faff) || (r >= 0x2600 && r <= 0x27bf) || r == 0xfe0f || r == 0x2b50 || r == 0x2b55
}

// joinsEmoji reports whether the ZWJ at s[i:i+3] sits between two emoji.
func joinsEmoji(s string, i int) bool {
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	next, _ := utf8.DecodeRuneInString(s[i+3:])
	return isEmoji(prev) && isEmoji(next)
}

// clean reports whether s is valid UTF-8 with no unsafe rune but those keep allows.
func clean(s string, keep func(rune) bool) bool {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if (b < 0x20 || b == 0x7f) && (keep == nil || !keep(rune(b))) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (Unsafe(r) && (keep == nil || !keep(r)) && !(r == 0x200d && joinsEmoji(s, i))) {
			return false
		}
		i += size
	}
	return true
}

// mapRunes is strings.Map over valid UTF-8 that keeps a ZWJ joining two emoji.
func mapRunes(f func(rune) rune, s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		if r == 0x200d && joinsEmoji(s, i) {
			b.WriteRune(r)
			continue
		}
		if m := f(r); m >= 0 {
			b.WriteRune(m)
		}
	}
	return b.String()
}

// Line returns s as one safe line: tabs, newlines, CR and the line separators become spaces,
// other unsafe runes are dropped, invalid UTF-8 becomes U+FFFD.
func Line(s string) string {
	if clean(s, nil) {
		return s
	}
	return mapRunes(lineRune, s)
}

func lineRune(r rune) rune {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
		return ' '
	case Unsafe(r):
		return -1
	}
	return r
}

func keepLayout(r rune) bool { return r == '\n' || r == '\t' }

// Text returns s safe to print as lines: newlines and tabs stay, every other unsafe rune
// becomes one stand-in of one column: a C0 control its Control Pictures symbol (U+2400 + c:
// ␛ for ESC, ␍ for CR), DEL ␡, the rest U+FFFD. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if clean(s, keepLayout) {
		return s
	}
	return mapRunes(textRune, s)
}

func textRune(r rune) rune {
	switch {
	case keepLayout(r) || !Unsafe(r):
		return r
	case r < 0x20:
		return 0x2400 + r
	case r == 0x7f:
		return 0x2421
	}
	return utf8.RuneError
}

// Escape returns s with every unsafe rune but newline and tab written as an escape: \xNN for
// a C0 control or DEL, \uNNNN for the others. Invalid UTF-8 becomes U+FFFD.
func Escape(s string) string {
	if clean(s, keepLayout) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		if keepLayout(r) || !Unsafe(r) || (r == 0x200d && joinsEmoji(s, i)) {
			b.WriteRune(r)
			continue
		}
		if r <= 0x7f {
			b.WriteString(`\x`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
			continue
		}
		writeU(&b, r)
	}
	return b.String()
}

const hex = "0123456789abcdef"

// writeU writes r as \uNNNN; a rune past the BMP (the tag characters) as \UNNNNNNNN (Escape)
// or, for JSON, as its UTF-16 surrogate pair.
func writeU(b *strings.Builder, r rune) { writeEscape(b, r, false) }

func writeEscape(b *strings.Builder, r rune, json bool) {
	if r > 0xffff {
		if json {
			r1, r2 := utf16.EncodeRune(r)
			writeEscape(b, r1, true)
			writeEscape(b, r2, true)
			return
		}
		b.WriteString(`\U`)
		for shift := 28; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&0xf])
		}
		return
	}
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hex[(r>>shift)&0xf])
	}
}

// JSON returns encoded JSON (encoding/json's output, valid UTF-8 with C0 controls already
// escaped) with the unsafe runes it leaves raw (DEL, C1, bidi) written as \uNNNN escapes. Such a
// rune can only sit inside a string, so the value decodes the same.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			if b[i] == 0x7f {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if Unsafe(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		i += size
	}
	if i == len(b) {
		return b
	}
	var sb strings.Builder
	sb.Grow(len(b) + 16)
	sb.Write(b[:i])
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			if b[i] == 0x7f {
				sb.WriteString(`\u007f`)
			} else {
				sb.WriteByte(b[i])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			sb.WriteString(`\ufffd`)
		case Unsafe(r):
			writeEscape(&sb, r, true)
		default:
			sb.Write(b[i : i+size])
		}
		i += size
	}
	return []byte(sb.String())
}
