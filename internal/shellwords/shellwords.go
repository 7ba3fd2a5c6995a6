// Package shellwords reads a POSIX shell command line as sh would split it, far enough to
// judge it without running it: the simple commands (their words, quotes removed), the
// redirections of each, and whether anything in it expands or substitutes. It never runs,
// expands or rewrites anything: a caller that must be sure (a read-only check, a match
// against a planned command) treats every flag it does not understand as "not sure".
//
// Not handled, on purpose, and reported instead: command substitution ($(…), `…`), process
// substitution (<(…), >(…)), parameter expansion ($NAME, ${…}), subshells and groups ((…),
// { …; }), here-documents (<<) and unbalanced quotes.
package shellwords

import "strings"

// Redirect is one redirection of a simple command: the file descriptor written as its prefix
// ("" when none), the operator (>, >>, <, >&, <&, &>, &>>, <>, >|) and its target word.
type Redirect struct {
	FD, Op, Target string
}

// Command is one simple command: its words (quotes and escapes removed, words that were quoted
// at all marked in Quoted) and its redirections.
type Command struct {
	Words     []string
	Quoted    []bool
	Redirects []Redirect
}

// Line is a parsed command line.
type Line struct {
	Commands []Command // the simple commands, in order (empty ones left out)
	// Ops are the operators between the commands, in order: "|", "&&", "||", ";", "&",
	// "\n" (a newline), "|&".
	Ops []string
	// Expands: a $ outside single quotes (a parameter, $(…), $((…))), a backquote, or a process
	// substitution: the words are not what sh would run.
	Expands bool
	// Compound: a subshell, group or here-document (parentheses, braces as words, <<).
	Compound bool
	// Broken: an unterminated quote or a trailing backslash.
	Broken bool
}

// Sure reports whether the line's words are exactly what sh would run: nothing expands,
// nothing is compound, nothing is broken.
func (l *Line) Sure() bool { return !l.Expands && !l.Compound && !l.Broken }

// Parse splits a command line. It never fails: what it cannot follow sets a flag.
func Parse(s string) Line {
	var p parser
	p.s = s
	p.run()
	return p.line
}

type parser struct {
	s     string
	i     int
	line  Line
	cur   Command
	word  strings.Builder
	in    bool // a word is being read
	quote bool // the word being read had a quote or an escape
	redir *Redirect
}

func (p *parser) run() {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\'':
			p.single()
		case c == '"':
			p.double()
		case c == '\\':
			p.i++
			if p.i >= len(p.s) {
				p.line.Broken = true
				break
			}
			if p.s[p.i] != '\n' { // a line continuation joins
				p.word.WriteByte(p.s[p.i])
				p.in, p.quote = true, true
			}
			p.i++
		case c == '$' || c == '`':
			p.line.Expands = true
			p.word.WriteByte(c)
			p.in = true
			p.i++
		case c == ' ' || c == '\t':
			p.endWord()
			p.i++
		case c == '#' && !p.in:
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++ // a comment
			}
		case c == '\n' || c == ';' || c == '&' || c == '|':
			if c == '&' && p.i+1 < len(p.s) && p.s[p.i+1] == '>' {
				p.redirect() // &> and &>>
				continue
			}
			p.endWord()
			p.operator()
		case c == '<' || c == '>':
			if (c == '<' || c == '>') && p.i+1 < len(p.s) && p.s[p.i+1] == '(' {
				p.line.Expands = true // process substitution
			}
			p.redirect()
		case c == '(' || c == ')':
			p.line.Compound = true
			p.endWord()
			p.i++
		default:
			p.word.WriteByte(c)
			p.in = true
			p.i++
		}
	}
	p.endWord()
	p.endCommand()
	if p.redir != nil {
		p.line.Broken = true // a redirection with no target
	}
}

// single reads a single-quoted part: everything literal to the next quote.
func (p *parser) single() {
	end := strings.IndexByte(p.s[p.i+1:], '\'')
	if end < 0 {
		p.line.Broken = true
		p.word.WriteString(p.s[p.i+1:])
		p.i = len(p.s)
	} else {
		p.word.WriteString(p.s[p.i+1 : p.i+1+end])
		p.i += end + 2
	}
	p.in, p.quote = true, true
}

// double reads a double-quoted part: a backslash escapes only $ ` " \ and a newline; $ and `
// still expand.
func (p *parser) double() {
	p.i++
	p.in, p.quote = true, true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return
		case c == '\\' && p.i+1 < len(p.s) && strings.IndexByte("$`\"\\\n", p.s[p.i+1]) >= 0:
			if p.s[p.i+1] != '\n' {
				p.word.WriteByte(p.s[p.i+1])
			}
			p.i += 2
			continue
		case c == '$' || c == '`':
			p.line.Expands = true
		}
		p.word.WriteByte(c)
		p.i++
	}
	p.line.Broken = true
}

// operator reads a control operator at p.i.
func (p *parser) operator() {
	op := p.s[p.i : p.i+1]
	if p.i+1 < len(p.s) {
		switch two := p.s[p.i : p.i+2]; two {
		case "&&", "||", "|&", ";;", ";&":
			op = two
		}
	}
	p.i += len(op)
	if op == ";;" || op == ";&" {
		p.line.Compound = true // a case clause
	}
	p.endCommand()
	p.line.Ops = append(p.line.Ops, op)
}

// redirect reads a redirection operator at p.i; a word of digits just before it is its fd.
func (p *parser) redirect() {
	fd := ""
	if p.in && !p.quote && allDigits(p.word.String()) {
		fd = p.word.String()
		p.word.Reset()
		p.in = false
	}
	p.endWord()
	j := p.i
	for j < len(p.s) && j-p.i < 3 && strings.IndexByte("<>&|", p.s[j]) >= 0 {
		j++
	}
	op := p.s[p.i:j]
	switch op {
	case ">", ">>", "<", ">&", "<&", "&>", "&>>", "<>", ">|":
	case "<<", "<<<", "<<-":
		p.line.Compound = true // a here-document or here-string: its text is no word
	default:
		if strings.HasPrefix(op, ">&") || strings.HasPrefix(op, "<&") {
			op = op[:2]
		} else if strings.HasPrefix(op, ">>") {
			op = op[:2]
		} else {
			op = op[:1]
		}
	}
	p.i += len(op)
	p.redir = &Redirect{FD: fd, Op: op}
}

func (p *parser) endWord() {
	if !p.in {
		return
	}
	w := p.word.String()
	p.word.Reset()
	if p.redir != nil {
		p.redir.Target = w
		p.cur.Redirects = append(p.cur.Redirects, *p.redir)
		p.redir = nil
	} else {
		if !p.quote && (w == "{" || w == "}") {
			p.line.Compound = true
		}
		p.cur.Words = append(p.cur.Words, w)
		p.cur.Quoted = append(p.cur.Quoted, p.quote)
	}
	p.in, p.quote = false, false
}

func (p *parser) endCommand() {
	if p.redir != nil {
		p.line.Broken = true
		p.redir = nil
	}
	if len(p.cur.Words) > 0 || len(p.cur.Redirects) > 0 {
		p.line.Commands = append(p.line.Commands, p.cur)
	}
	p.cur = Command{}
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
