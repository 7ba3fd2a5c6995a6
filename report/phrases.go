package report

import (
	"hash/maphash"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/zoneline/zoneline/transcript"
)

// PhraseWords is how many words make one phrase.
const PhraseWords = 5

// phraseSeed hashes phrases; one per process, made on first use (not at init: this package
// is linked into every zoneline process).
var phraseSeed = sync.OnceValue(maphash.MakeSeed)

// words splits s into lower-cased words with punctuation dropped: runs of characters between
// white space, each keeping only its letters and digits (a word left empty is no word).
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case unicode.IsSpace(r):
			flush()
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	flush()
	return out
}

// Phrases returns the distinct phrases of text (PhraseWords consecutive words, normalised by
// words), as hashes.
func Phrases(text string) map[uint64]struct{} {
	w := words(text)
	set := make(map[uint64]struct{}, max(0, len(w)-PhraseWords+1))
	var h maphash.Hash
	h.SetSeed(phraseSeed())
	for i := 0; i+PhraseWords <= len(w); i++ {
		h.Reset()
		for _, x := range w[i : i+PhraseWords] {
			h.WriteString(x)
			h.WriteByte(0)
		}
		set[h.Sum64()] = struct{}{}
	}
	return set
}

// Kept returns how many of the distinct phrases of body are found in the summary's phrases,
// and how many distinct phrases body has.
func Kept(body string, summary map[uint64]struct{}) (kept, of int) {
	for p := range Phrases(body) {
		of++
		if _, ok := summary[p]; ok {
			kept++
		}
	}
	return kept, of
}

// Named reports whether the summary names the skill: its name, without a leading "/", or the
// part after a plugin's "plugin:" prefix, found case-insensitively.
func Named(name, summaryLower string) bool {
	name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "/"))
	if name == "" {
		return false
	}
	if strings.Contains(summaryLower, name) {
		return true
	}
	if _, short, ok := strings.Cut(name, ":"); ok && short != "" {
		return strings.Contains(summaryLower, short)
	}
	return false
}

// KeptID reports whether the summary keeps an action's id (branch, tag, PR number or URL),
// case-insensitively. A PR or issue named by its URL also counts as kept by "#N" or "PR N"
// when the URL ends in its number; an id of only digits counts as "#N", "PR N", "issue N" or
// the number standing alone.
func KeptID(a transcript.Action, summaryLower string) bool {
	id := strings.ToLower(strings.TrimSpace(a.ID))
	if id == "" {
		return false
	}
	if !isDigits(id) && containsID(summaryLower, id) {
		return true
	}
	num := id
	if !isDigits(num) {
		i := strings.LastIndexByte(id, '/')
		if i < 0 || (a.Kind != "pr" && a.Kind != "issue") {
			return false
		}
		num = id[i+1:]
		if !isDigits(num) {
			return false
		}
	}
	for _, form := range []string{"#" + num, "pr " + num, "pr#" + num, "pull/" + num, "issue " + num, "issues/" + num} {
		if containsNumber(summaryLower, form) {
			return true
		}
	}
	return isDigits(id) && containsNumber(summaryLower, num)
}

// containsNumber reports whether s holds form not followed by another digit (#12 is not #123).
func containsNumber(s, form string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], form)
		if j < 0 {
			return false
		}
		end := i + j + len(form)
		before := i + j
		okBefore := !isDigitByte(form[0]) || before == 0 || !isDigitByte(s[before-1])
		if (end == len(s) || !isDigitByte(s[end])) && okBefore {
			return true
		}
		i = before + 1
	}
}

// containsID reports whether s holds id as a whole name: not inside a longer word ("main" is
// not kept by "maintain"), where a name's characters are letters, digits, '-' and '_'.
func containsID(s, id string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], id)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(id)
		before, _ := utf8.DecodeLastRuneInString(s[:at])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (at == 0 || !nameRune(before)) && (end == len(s) || !nameRune(after)) {
			return true
		}
		i = at + 1
	}
}

func nameRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
