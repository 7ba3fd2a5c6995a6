package checkpoint

// The verifier's text checks. Each was a regexp; they are written out by hand because regexp
// (through regexp/syntax and the unicode tables it initialises) would be linked into every
// zoneline process, the statusline included, and slow each start. Each function quotes the
// regexp it replaces; textmatch_test.go checks them against those regexps. Where a regexp
// was case-insensitive, its simple case folding is kept: 'k' also matches the Kelvin sign
// "\u212a" and 's' the long s "\u017f", as in regexp.

import (
	"strings"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/textfold"
)

// spaces is regexp's \s, [\t\n\f\r ]; blanks is \s without "\n", what \s matches within a line.
const (
	blanks = "\t\f\r "
	spaces = "\t\n\f\r "
)

// isWordByte reports whether b is a \w character, [0-9A-Za-z_]; a byte of a non-ASCII rune is not.
func isWordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

// isAlnumByte reports whether b is in [A-Za-z0-9].
func isAlnumByte(b byte) bool { return b != '_' && isWordByte(b) }

// hasPlaceholderLine reports whether text has a line that is a placeholder. It replaces
//
//	(?im)^\s*(?:[-*]\s*)?(?:[\w '/-]{1,40}:\s*)?(?:<[^<>\n]{3,}>\.?|(?:TODO|TBD|FIXME|XXX)\b.*|\.\.\.|…)\s*$
//
// The regexp's \s can cross a line end, but a match that does so leaves a line that matches by
// itself, so the text is checked line by line.
func hasPlaceholderLine(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if isPlaceholderLine(line) {
			return true
		}
	}
	return false
}

// isPlaceholderLine reports whether one line (without its "\n") is a placeholder: blanks, an
// optional "-" or "*" bullet and blanks, an optional label such as "Action: ", then a prompt.
func isPlaceholderLine(line string) bool {
	// The \s* before and after the bullet may stop early, as a label can begin with spaces; but
	// not more than 40 characters early, the most a label can have.
	lead := len(line) - len(strings.TrimLeft(line, blanks))
	for p := max(0, lead-40); p <= lead; p++ {
		if isLabelledPrompt(line[p:]) {
			return true
		}
	}
	if lead < len(line) && (line[lead] == '-' || line[lead] == '*') {
		rest := line[lead+1:]
		lead = len(rest) - len(strings.TrimLeft(rest, blanks))
		for p := max(0, lead-40); p <= lead; p++ {
			if isLabelledPrompt(rest[p:]) {
				return true
			}
		}
	}
	return false
}

// isLabelledPrompt reports whether s is `(?:[\w '/-]{1,40}:\s*)?` then a prompt (isPrompt).
func isLabelledPrompt(s string) bool {
	if isPrompt(s) {
		return true
	}
	rest, ok := cutLabel(s)
	return ok && isPrompt(rest)
}

// cutLabel cuts `[\w '/-]{1,40}:\s*` (under (?i), so \w takes in "\u212a" and "\u017f") from the
// front of s. The label ends at the first ':', as ':' is not one of its characters.
func cutLabel(s string) (string, bool) {
	n := 0
	for i, r := range s {
		if r == ':' {
			return strings.TrimLeft(s[i+1:], blanks), n >= 1
		}
		if !(r < utf8.RuneSelf && (isWordByte(byte(r)) || strings.ContainsRune(" '/-", r)) || r == '\u212a' || r == '\u017f') {
			return "", false
		}
		if n++; n > 40 {
			return "", false
		}
	}
	return "", false
}

// isPrompt reports whether s is one prompt then only blanks:
// `(?:<[^<>\n]{3,}>\.?|(?:TODO|TBD|FIXME|XXX)\b.*|\.\.\.|…)\s*$` within a line.
func isPrompt(s string) bool {
	if strings.HasPrefix(s, "<") {
		end := strings.IndexAny(s[1:], "<>") + 1
		if end < 1 || s[end] != '>' || utf8.RuneCountInString(s[1:end]) < 3 {
			return false
		}
		return strings.Trim(strings.TrimPrefix(s[end+1:], "."), blanks) == ""
	}
	for _, mark := range []string{"...", "…"} {
		if rest, ok := strings.CutPrefix(s, mark); ok {
			return strings.Trim(rest, blanks) == ""
		}
	}
	for _, kw := range []string{"todo", "tbd", "fixme", "xxx"} {
		if n, ok := textfold.Prefix(s, kw); ok && (n == len(s) || !isWordByte(s[n])) {
			return true // \b.* : anything may follow
		}
	}
	return false
}

// hasPlaceholderCell reports whether text has a table cell that is a template prompt,
// "| <system> |". It replaces
//
//	\|\s*<[^<>|\n]{3,}>\s*\|
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

// nextCodeSpan returns the first markdown code span in s at or after from, as s[start:end]. It
// replaces one step of the leftmost-first search for
//
//	`[^`\n]*`
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

// replaceCodeSpans replaces each code span in s with "code", as
// regexp.MustCompile("`[^`\n]*`").ReplaceAllString(s, "code") did.
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

// vaguePhrases are the Next texts that name no action; isVague's alternation, spelt out.
var vaguePhrases = []string{
	"continue", "keep going", "carry on", "finish", "finish the task", "finish up", "proceed",
	"resume", "do the rest", "next step", "next steps", "see above", "as before",
}

// isVague reports whether a Next names no action: the whole text is an optional bullet and
// one of vaguePhrases. It replaces
//
//	(?i)^\s*[-*]?\s*(continue|keep going|carry on|finish( the task| up)?|proceed|resume|do the rest|next steps?|see above|as before)\.?\s*$
func isVague(text string) bool {
	s := strings.TrimLeft(text, spaces)
	if s != "" && (s[0] == '-' || s[0] == '*') {
		s = strings.TrimLeft(s[1:], spaces)
	}
	for _, p := range vaguePhrases {
		if n, ok := textfold.Prefix(s, p); ok && strings.Trim(strings.TrimPrefix(s[n:], "."), spaces) == "" {
			return true
		}
	}
	return false
}

// hasAnchor reports whether a Next names something concrete: a `code span`, a path (a/b) or a
// file name (name.ext, also in file:line). It replaces
//
//	`[^`\n]+`|[\w.~-]*/[\w./-]+|\b[\w-]+\.[A-Za-z0-9]{1,8}\b
func hasAnchor(text string) bool {
	return hasCodeText(text) || hasPath(text) || hasFileName(text)
}

// hasCodeText reports whether text has a code span with something in it: "`[^`\n]+`".
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

// hasPath reports whether text has `[\w.~-]*/[\w./-]+`: as the part before the '/' may be
// empty, that is a '/' followed by a character of [\w./-].
func hasPath(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if c := text[i+1]; text[i] == '/' && (isWordByte(c) || c == '.' || c == '/' || c == '-') {
			return true
		}
	}
	return false
}

// hasFileName reports whether text has `\b[\w-]+\.[A-Za-z0-9]{1,8}\b`: a '.' after a run of
// [\w-] with a \w in it (a run of only '-' has no word boundary to start at), and before a run
// of 1 to 8 letters and digits not followed by '_' (the boundary must come at its end).
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

// expectMarks are what names an expected result in Next; hasExpectation's alternation, spelt out.
var expectMarks = []string{
	"expect", "should", "→", "->", "=>", "so that", "until", "passes", "fails with", "returns",
	"prints", "exit 0", "exits 0",
}

// hasExpectation reports whether a Next names its expected result. It replaces
//
//	(?i)(expect|should|→|->|=>|so that|until|passes|fails with|returns|prints|exits? 0)
func hasExpectation(text string) bool {
	for _, m := range expectMarks {
		if textfold.Contains(text, m) {
			return true
		}
	}
	return false
}
