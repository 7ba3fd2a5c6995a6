package checkpoint

// The verifier's text checks, each a plain rule over the text (no regexp: regexp and the
// unicode tables it initialises would be linked into every zoneline process, the statusline
// included). Letters match ASCII case-insensitively; a word character is [A-Za-z0-9_]; blanks
// are spaces, tabs, '\f' and '\r'. textmatch_test.go holds each rule to a table of cases, and
// to the regexps the rules were first written as, on everything but the departures it names.

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// blanks are the white space within a line; spaces add the line end.
const (
	blanks = "\t\f\r "
	spaces = "\t\n\f\r "
)

// isWordByte reports whether b is a word character, [A-Za-z0-9_]; a byte of a non-ASCII rune is not.
func isWordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

// isAlnumByte reports whether b is in [A-Za-z0-9].
func isAlnumByte(b byte) bool { return b != '_' && isWordByte(b) }

// hasPrefixFold reports whether s starts with lit (lower case), ASCII case-insensitively: as
// long a prefix of s as lit, under strings.EqualFold (a non-ASCII rune that folds onto an ASCII
// letter, the Kelvin sign or the long s, is longer than the letter: it never matches).
func hasPrefixFold(s, lit string) bool {
	return len(s) >= len(lit) && strings.EqualFold(s[:len(lit)], lit)
}

// containsFold reports whether s contains lit (lower case), ASCII case-insensitively.
func containsFold(s, lit string) bool {
	for i := 0; i+len(lit) <= len(s); i++ {
		if hasPrefixFold(s[i:], lit) {
			return true
		}
	}
	return false
}

// isBlank reports whether s holds only blanks.
func isBlank(s string) bool { return strings.Trim(s, blanks) == "" }

// hasPlaceholderLine reports whether a line of text is a template prompt left unfilled
// (isPlaceholderLine).
func hasPlaceholderLine(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if isPlaceholderLine(line) {
			return true
		}
	}
	return false
}

// isPlaceholderLine reports whether one line (without its "\n") is, after blanks, an optional
// "-" or "*" bullet and blanks, and an optional label ("Action: ", cutLabel), only a prompt
// (isPrompt).
func isPlaceholderLine(line string) bool {
	s := strings.TrimLeft(line, blanks)
	if s != "" && (s[0] == '-' || s[0] == '*') {
		s = strings.TrimLeft(s[1:], blanks)
	}
	if isPrompt(s) {
		return true
	}
	rest, ok := cutLabel(s)
	return ok && isPrompt(rest)
}

// maxLabel is the longest label before a prompt ("Action: <what to do>").
const maxLabel = 40

// cutLabel cuts a label from the front of s: 1 to maxLabel word characters, spaces, ”', '/'
// or '-' ending in ':', and the blanks after it.
func cutLabel(s string) (string, bool) {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || colon > maxLabel {
		return "", false
	}
	for i := 0; i < colon; i++ {
		if c := s[i]; !isWordByte(c) && c != ' ' && c != '\'' && c != '/' && c != '-' {
			return "", false
		}
	}
	return strings.TrimLeft(s[colon+1:], blanks), true
}

// placeholderWords start a placeholder line, as whole words, whatever follows them.
var placeholderWords = []string{"todo", "tbd", "fixme", "xxx"}

// isPrompt reports whether s is one prompt: a "<…>" of at least three characters, none of them
// '<' or '>', with an optional '.' after it; "..." or "…"; then only blanks. Or one of
// placeholderWords as a whole word, followed by anything.
func isPrompt(s string) bool {
	if strings.HasPrefix(s, "<") {
		end := strings.IndexAny(s[1:], "<>") + 1
		if end < 1 || s[end] != '>' || utf8.RuneCountInString(s[1:end]) < 3 {
			return false
		}
		return isBlank(strings.TrimPrefix(s[end+1:], "."))
	}
	if rest, ok := strings.CutPrefix(s, "..."); ok {
		return isBlank(rest)
	}
	if rest, ok := strings.CutPrefix(s, "…"); ok {
		return isBlank(rest)
	}
	return slices.ContainsFunc(placeholderWords, func(w string) bool {
		return hasPrefixFold(s, w) && (len(s) == len(w) || !isWordByte(s[len(w)]))
	})
}

// hasPlaceholderCell reports whether text has a table cell that is a template prompt,
// "| <system> |": a '|', white space, a "<…>" of at least three characters with none of
// "<>|\n" inside, white space, a '|'. (The white space may hold line ends.)
func hasPlaceholderCell(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != '|' {
			continue
		}
		s := strings.TrimLeft(text[i+1:], spaces)
		if !strings.HasPrefix(s, "<") {
			continue
		}
		end := strings.IndexAny(s[1:], "<>|\n") + 1
		if end < 1 || s[end] != '>' || utf8.RuneCountInString(s[1:end]) < 3 {
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(s[end+1:], spaces), "|") {
			return true
		}
	}
	return false
}

// nextCodeSpan returns the first markdown code span in s at or after from, as s[start:end]: a
// '`', anything but '`' and a line end, a '`'. A '`' with no partner on its line opens nothing.
func nextCodeSpan(s string, from int) (start, end int, ok bool) {
	for i := from; i < len(s); {
		open := strings.IndexByte(s[i:], '`')
		if open < 0 {
			return 0, 0, false
		}
		open += i
		stop := strings.IndexAny(s[open+1:], "`\n")
		if stop < 0 {
			return 0, 0, false
		}
		stop += open + 1
		if s[stop] == '`' {
			return open, stop + 1, true
		}
		i = stop + 1 // an unclosed span ends at the line end; look on the next line
	}
	return 0, 0, false
}

// replaceCodeSpans replaces each code span in s (nextCodeSpan, left to right) with "code".
func replaceCodeSpans(s string) string {
	start, end, ok := nextCodeSpan(s, 0)
	if !ok {
		return s
	}
	var b strings.Builder
	prev := 0
	for ok {
		b.WriteString(s[prev:start])
		b.WriteString("code")
		prev = end
		start, end, ok = nextCodeSpan(s, end)
	}
	b.WriteString(s[prev:])
	return b.String()
}

// vaguePhrases are the Next texts that name no action.
var vaguePhrases = []string{
	"continue", "keep going", "carry on", "finish", "finish the task", "finish up", "proceed",
	"resume", "do the rest", "next step", "next steps", "see above", "as before",
}

// isVague reports whether a Next names no action: the whole text is, besides white space, an
// optional "-" or "*" bullet, one of vaguePhrases and an optional '.'.
func isVague(text string) bool {
	s := strings.TrimLeft(text, spaces)
	if s != "" && (s[0] == '-' || s[0] == '*') {
		s = strings.TrimLeft(s[1:], spaces)
	}
	s = strings.TrimSuffix(strings.TrimRight(s, spaces), ".")
	return slices.ContainsFunc(vaguePhrases, func(p string) bool { return len(s) == len(p) && hasPrefixFold(s, p) })
}

// hasAnchor reports whether a Next names something concrete: a code span with something in
// it, a path or a file name.
func hasAnchor(text string) bool {
	return hasCodeText(text) || hasPath(text) || hasFileName(text)
}

// hasCodeText reports whether text has a code span that is not empty ("`go test`").
func hasCodeText(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != '`' {
			continue
		}
		if stop := strings.IndexAny(text[i+1:], "`\n"); stop > 0 && text[i+1+stop] == '`' {
			return true
		}
	}
	return false
}

// hasPath reports whether text has a path: a '/' followed by a word character, '.', '/' or '-'
// ("a/b", "./x", "/etc").
func hasPath(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if c := text[i+1]; text[i] == '/' && (isWordByte(c) || c == '.' || c == '/' || c == '-') {
			return true
		}
	}
	return false
}

// hasFileName reports whether text has a file name ("x.go", also in "x.go:12"): a run of word
// characters and '-' with a word character in it, a '.', and 1 to 8 letters and digits that end
// the word (no word character follows).
func hasFileName(text string) bool {
	for dot := 0; dot < len(text); dot++ {
		if text[dot] != '.' {
			continue
		}
		word := false
		for i := dot - 1; i >= 0 && (isWordByte(text[i]) || text[i] == '-'); i-- {
			word = word || text[i] != '-'
		}
		if !word {
			continue
		}
		end := dot + 1
		for end < len(text) && isAlnumByte(text[end]) {
			end++
		}
		if n := end - dot - 1; n >= 1 && n <= 8 && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
	}
	return false
}

// expectMarks name an expected result in Next.
var expectMarks = []string{
	"expect", "should", "→", "->", "=>", "so that", "until", "passes", "fails with", "returns",
	"prints", "exit 0", "exits 0",
}

// hasExpectation reports whether a Next names its expected result: it contains one of
// expectMarks.
func hasExpectation(text string) bool {
	return slices.ContainsFunc(expectMarks, func(m string) bool { return containsFold(text, m) })
}
