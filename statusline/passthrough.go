package statusline

import (
	"strings"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/safetext"
)

// Passthrough makes one line of another program's output (a wrapped status line) safe to
// print beside zoneline's (safetext's rule, with two kinds of escape sequence kept whole): its
// colours (SGR, CSI … m) and its OSC 8 hyperlinks are kept (it is the user's own program, those
// are wanted); every other escape sequence is dropped whole — a CSI that moves the cursor,
// clears, asks the terminal (6n) or switches screens; an OSC that sets the title or the
// clipboard (0, 2, 52); DCS, SOS, PM and APC with their bodies up to ST (to the end when there
// is none); ESC with intermediates and a final byte (ESC ( 0, 3 bytes); ESC and one byte (ESC c)
// — and an unterminated one at the end is dropped. A line that leaves a link open or colours
// set ends with the link closed and an SGR reset (lineEnd), so nothing of it carries into
// zoneline's part. Invalid UTF-8 becomes U+FFFD, a tab a space, and every other control
// character (NUL, CR, BS, a lone ESC, C1) and bidi override is dropped, so binary output cannot
// move the cursor or break the row. It does not allocate when s is already clean.
func Passthrough(s string) string {
	if passClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(linkClose) + len(sgrReset))
	var st escState
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			n, kind := escape(s[i:])
			if kind != escDrop {
				b.WriteString(s[i : i+n])
				st.see(kind)
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
	b.WriteString(st.lineEnd())
	return b.String()
}

// linkClose ends an OSC 8 hyperlink.
const linkClose = "\x1b]8;;\x1b\\"

// Kinds of escape sequence (escape).
const (
	escDrop      = iota // not kept
	escSGR              // colours or attributes set
	escSGRReset         // ESC [ m, ESC [ 0 m
	escLinkOpen         // OSC 8 with a URI
	escLinkClose        // OSC 8 without one
)

// escState is what a line's kept escape sequences leave open at its end.
type escState struct{ link, sgr bool }

func (st *escState) see(kind int) {
	switch kind {
	case escSGR:
		st.sgr = true
	case escSGRReset:
		st.sgr = false
	case escLinkOpen:
		st.link = true
	case escLinkClose:
		st.link = false
	}
}

// lineEnd closes what st leaves open: the link, then the colours.
func (st escState) lineEnd() string {
	switch {
	case st.link && st.sgr:
		return linkClose + sgrReset
	case st.link:
		return linkClose
	case st.sgr:
		return sgrReset
	}
	return ""
}

// passClean reports whether s needs nothing from Passthrough: printable ASCII and valid
// UTF-8 without controls, with only kept escape sequences, nothing left open at its end.
func passClean(s string) bool {
	var st escState
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			n, kind := escape(s[i:])
			if kind == escDrop {
				return false
			}
			st.see(kind)
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
	return !st.link && !st.sgr
}

// uriBytes reports whether an OSC 8 body (parameters ; URI) holds only printable ASCII
// without spaces (0x21-0x7e), the bytes a URI and its id= parameter are written in. Anything
// else (a C1 control as UTF-8 or raw, which terminals honouring C1 read as ST or CSI and so
// as the start of another sequence; a bidi override; a space) drops the link, never its text.
func uriBytes(body string) bool {
	for i := 0; i < len(body); i++ {
		if c := body[i]; c <= 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// escape returns the length of the escape sequence at the start of s (s[0] == ESC) and its
// kind: escDrop unless it is whole and one Passthrough keeps — an SGR (CSI with parameter
// bytes 0-9 ; : only, final m) or an OSC 8 hyperlink (terminated by BEL or ESC \, its
// parameters and URI printable ASCII only: uriBytes). A sequence that is not whole is skipped
// up to where it breaks off; a DCS, SOS, PM or APC up to its ST (or the end of s).
func escape(s string) (int, int) {
	if len(s) < 2 {
		return len(s), escDrop
	}
	switch s[1] {
	case '[':
		sgr := true
		for i := 2; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= 0x40 && c <= 0x7e:
				if !sgr || c != 'm' {
					return i + 1, escDrop
				}
				if strings.Trim(s[2:i], "0") == "" {
					return i + 1, escSGRReset
				}
				return i + 1, escSGR
			case c < 0x20 || c > 0x3f:
				return i, escDrop
			case !(c >= '0' && c <= ';'): // a private marker (?), an intermediate byte
				sgr = false
			}
		}
		return len(s), escDrop
	case ']':
		for i := 2; i < len(s); i++ {
			end := 0
			switch c := s[i]; {
			case c == 0x07:
				end = i + 1
			case c == 0x1b:
				if i+1 < len(s) && s[i+1] == '\\' {
					end = i + 2
					break
				}
				return i, escDrop
			case c < 0x20 || c == 0x7f:
				return i, escDrop
			}
			if end == 0 {
				continue
			}
			body, ok := strings.CutPrefix(s[2:i], "8;")
			if !ok || !uriBytes(body) {
				return end, escDrop
			}
			_, uri, ok := strings.Cut(body, ";")
			switch {
			case !ok:
				return end, escDrop
			case uri == "":
				return end, escLinkClose
			}
			return end, escLinkOpen
		}
		return len(s), escDrop
	case 'P', 'X', '^', '_': // DCS, SOS, PM, APC: a body up to ST
		if j := strings.Index(s[2:], "\x1b\\"); j >= 0 {
			return 2 + j + 2, escDrop
		}
		return len(s), escDrop
	}
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f { // intermediate bytes: ESC ( 0
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1, escDrop
	}
	return i, escDrop
}
