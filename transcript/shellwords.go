package transcript

import "strings"

// maxShellSegments and maxShellWords bound what shellSegments returns for one command, so a
// pasted script costs a bounded amount.
const (
	maxShellSegments = 64
	maxShellWords    = 64
)

// shellSegments splits a shell command as a POSIX shell reads its simple commands, to recognise
// what a command did (never to run anything): words with their quotes removed ('…' literal,
// "…" with \" \\ \$ \` escapes, \x outside quotes), one segment per simple command (split at ;,
// &, &&, |, ||, newlines and parentheses), comments dropped, redirections left out with their
// targets, a here-document's body skipped. Command substitutions ($(…), `…`) stay inside their
// word; nothing is expanded. At most maxShellSegments segments of maxShellWords words each.
func shellSegments(cmd string) [][]string {
	t := shellTokenizer{}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\\' && i+1 < len(cmd):
			i++
			if cmd[i] != '\n' { // a backslash-newline joins lines
				t.add(cmd[i])
			}
		case c == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				j = len(cmd) - i - 1
			}
			t.word.WriteString(cmd[i+1 : i+1+j])
			t.inWord = true
			i += j + 1
		case c == '"':
			i = doubleQuoted(cmd, i+1, &t.word)
			t.inWord = true
		case c == '#' && !t.inWord:
			for i+1 < len(cmd) && cmd[i+1] != '\n' {
				i++
			}
		case c == ' ' || c == '\t':
			t.endWord()
		case c == '\n':
			t.endSeg()
			if len(t.heredocs) > 0 {
				i = skipHeredocs(cmd, i+1, t.heredocs) - 1
				t.heredocs = t.heredocs[:0]
			}
		case c == '&' && i+1 < len(cmd) && cmd[i+1] == '>': // &> file
			t.endWord()
			i = t.operator(cmd, i+1)
		case c == '<' || c == '>':
			if t.inWord && strings.Trim(t.word.String(), "0123456789") != "" {
				t.endWord() // a>b: "a", then the redirection
			}
			t.word.Reset() // a file descriptor number before the operator
			t.inWord = false
			i = t.operator(cmd, i)
		case c == ';' || c == '|' || c == '&' || c == '(' || c == ')':
			t.endSeg()
		default:
			t.add(c)
		}
	}
	t.endSeg()
	return t.segs
}

type shellTokenizer struct {
	segs     [][]string
	cur      []string
	word     strings.Builder
	inWord   bool
	target   string   // the redirection operator whose target is the next word, or ""
	heredocs []string // delimiters whose bodies start at the next newline
}

func (t *shellTokenizer) add(c byte) {
	t.word.WriteByte(c)
	t.inWord = true
}

// operator reads a redirection operator starting at i (<, >, >>, <<, <<-, <<<, >&, <&, >|) and
// returns its last index; the next word is its target.
func (t *shellTokenizer) operator(s string, i int) int {
	j := i + 1
	for j < len(s) && j-i < 3 && strings.IndexByte("<>&|-", s[j]) >= 0 {
		if s[j] == '-' && s[j-1] != '<' {
			break
		}
		j++
	}
	t.target = s[i:j]
	return j - 1
}

func (t *shellTokenizer) endWord() {
	if !t.inWord {
		return
	}
	w := t.word.String()
	t.word.Reset()
	t.inWord = false
	switch t.target {
	case "":
		if len(t.cur) < maxShellWords {
			t.cur = append(t.cur, w)
		}
	case "<<", "<<-":
		t.heredocs = append(t.heredocs, w)
		t.target = ""
	default:
		t.target = ""
	}
}

func (t *shellTokenizer) endSeg() {
	t.endWord()
	t.target = ""
	if len(t.cur) > 0 && len(t.segs) < maxShellSegments {
		t.segs = append(t.segs, t.cur)
	}
	t.cur = nil
}

// doubleQuoted copies the text of a "…" string starting at i (after the quote) into w and
// returns the index of the closing quote (or the last index).
func doubleQuoted(s string, i int, w *strings.Builder) int {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0:
			i++
			if s[i] != '\n' {
				w.WriteByte(s[i])
			}
		default:
			w.WriteByte(c)
		}
	}
	return len(s) - 1
}

// skipHeredocs returns the index after the bodies of the here-documents whose delimiters are
// given, starting at i (the line after the one that opened them). An unterminated body runs to
// the end, as in a shell.
func skipHeredocs(s string, i int, delims []string) int {
	for _, d := range delims {
		for i < len(s) {
			line, _, found := strings.Cut(s[i:], "\n")
			if found {
				i += len(line) + 1
			} else {
				i = len(s)
			}
			if strings.TrimLeft(line, "\t") == d {
				break
			}
		}
	}
	return i
}
