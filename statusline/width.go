package statusline

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/zoneline/zoneline/internal/safetext"
)

// Text outside ASCII and the fixed glyphs is measured by rivo/uniseg (static tables, nothing
// run at init), one grapheme cluster at a time. uniseg reads East-Asian ambiguous width from a
// package variable, so the slow path sets it under unisegMu for each walk; it is only taken for
// such text, and only when a line may be too wide.
var (
	unisegMu    sync.Mutex
	unisegWalks atomic.Int64 // walks of text through uniseg, so a test can check the common render makes none
)

// eachCluster calls f with each grapheme cluster of s (no escape sequences) and its width,
// East-Asian ambiguous runes two cells wide when eastAsian, until f returns false. A cluster is
// at most two cells, one glyph: uniseg gives the long dashes U+2E3A and U+2E3B three and four,
// terminals one; the cap also keeps fastWidth an upper bound.
func eachCluster(s string, eastAsian bool, f func(cluster string, w int) bool) {
	unisegWalks.Add(1)
	unisegMu.Lock()
	defer unisegMu.Unlock()
	uniseg.EastAsianAmbiguousWidth = 1
	if eastAsian {
		uniseg.EastAsianAmbiguousWidth = 2
	}
	state := -1
	for s != "" {
		var c string
		var w int
		c, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		if !f(c, min(w, 2)) {
			return
		}
	}
}

// Width returns the display width of s in terminal cells, ignoring escape sequences (CSI such
// as SGR, OSC, and two-byte escapes). An escape sequence ends a grapheme cluster: the text
// between escapes is measured piece by piece. eastAsian counts East-Asian ambiguous runes
// (●, …, ·) as two cells.
func Width(s string, eastAsian bool) int {
	w := 0
	for s != "" {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			return w + textWidth(s, eastAsian)
		}
		w += textWidth(s[:i], eastAsian)
		s = s[i+escLen(s[i:]):]
	}
	return w
}

// textWidth returns the display width of s, which holds no escape sequence.
func textWidth(s string, eastAsian bool) int {
	w, exact := fastWidth(s, eastAsian)
	if exact {
		return w
	}
	w = 0
	eachCluster(s, eastAsian, func(_ string, cw int) bool {
		w += cw
		return true
	})
	return w
}

// fastWidth measures s without uniseg: ASCII and the fixed glyphs exactly, any other rune as
// two cells. exact reports whether the result is the width; when it is not, the result is still
// an upper bound (no grapheme cluster is wider than two cells).
func fastWidth(s string, eastAsian bool) (w int, exact bool) {
	exact = true
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != 0x7f {
				w++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if gw, ok := glyphWidth(r, eastAsian); ok {
			w += gw
			continue
		}
		w += 2
		exact = false
	}
	return w, exact
}

// escLen returns the length of the escape sequence at the start of s (s[0] == ESC): a CSI
// (ESC [ … final byte 0x40–0x7E), an OSC (ESC ] … BEL or ESC \), or ESC and one byte. An
// unterminated sequence runs to the end of s.
func escLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			switch {
			case s[i] == 0x07:
				return i + 1
			case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			}
		}
		return len(s)
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}

// truncateText returns the longest prefix of s (no escape sequences) that is at most w cells
// wide, cut between grapheme clusters: never inside a wide glyph, and combining marks stay
// with their base.
func truncateText(s string, w int, eastAsian bool) string {
	if w <= 0 {
		return ""
	}
	if _, exact := fastWidth(s, eastAsian); exact {
		used := 0
		for i := 0; i < len(s); {
			cw, size := 1, 1
			if b := s[i]; b >= utf8.RuneSelf {
				var r rune
				r, size = utf8.DecodeRuneInString(s[i:])
				cw, _ = glyphWidth(r, eastAsian)
			} else if b < 0x20 || b == 0x7f {
				cw = 0
			}
			if used+cw > w {
				return s[:i]
			}
			used += cw
			i += size
		}
		return s
	}
	used, end := 0, 0
	eachCluster(s, eastAsian, func(c string, cw int) bool {
		if used+cw > w {
			return false
		}
		used += cw
		end += len(c)
		return true
	})
	return s[:end]
}

// Fit returns s cut to at most width display cells (as Width measures them, East-Asian
// ambiguous runes wide when eastAsian), ending in ellipsis when something was cut. Escape
// sequences are copied whole, never cut; when s held any and something was cut, the result
// ends with an SGR reset, after closing an OSC 8 hyperlink the cut left open. Text is cut between grapheme clusters. When ellipsis itself does not
// fit, the text is cut without it. width <= 0 gives "".
func Fit(s string, width int, ellipsis string, eastAsian bool) string {
	if width <= 0 {
		return ""
	}
	if Width(s, eastAsian) <= width {
		return s
	}
	ellW := Width(ellipsis, eastAsian)
	if ellW > width {
		ellipsis, ellW = "", 0
	}
	budget := width - ellW
	var b strings.Builder
	b.Grow(len(s) + len(ellipsis) + len(sgrReset))
	used, escaped, link := 0, false, false
	for s != "" {
		i := strings.IndexByte(s, 0x1b)
		text := s
		if i >= 0 {
			text = s[:i]
		}
		if tw := textWidth(text, eastAsian); used+tw <= budget {
			b.WriteString(text)
			used += tw
		} else {
			b.WriteString(strings.TrimRight(truncateText(text, budget-used, eastAsian), " "))
			break
		}
		if i < 0 {
			break
		}
		n := escLen(s[i:])
		if n > 1 && s[i+1] == ']' {
			switch _, kind := escape(s[i : i+n]); kind {
			case escLinkOpen:
				link = true
			case escLinkClose:
				link = false
			}
		}
		b.WriteString(s[i : i+n])
		escaped = true
		s = s[i+n:]
	}
	b.WriteString(ellipsis)
	if link {
		b.WriteString(linkClose) // a cut inside a hyperlink: close it
	}
	if escaped {
		b.WriteString(sgrReset)
	}
	return b.String()
}

// clean makes dynamic text (model, dir, branch, problems) safe to print: safetext.Line, the
// one sanitizer of outside text (invalid UTF-8 becomes U+FFFD, tabs and line breaks spaces,
// other controls, ESC among them, C1 controls and bidi overrides dropped), so only the renderer
// emits escape codes and a line stays one line. It does not allocate when s is already clean.
func clean(s string) string { return safetext.Line(s) }
