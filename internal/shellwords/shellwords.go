// Package shellwords reads a POSIX shell command line as sh would split it, far enough to
// judge it without running it: the simple commands (their words, quotes removed), the
// redirections of each, and whether anything in it expands or substitutes. It never runs,
// expands or rewrites anything: a caller that must be sure (a read-only check, a match
// against a planned command) treats every flag it does not understand as "not sure".
//
// Not handled, on purpose, and reported instead: command substitution ($(…), `…`), process
// substitution (<(…), >(…)), parameter expansion ($NAME, ${…}), subshells and groups ((…),
// { …; }), here-documents (<<) and unbalanced quotes. Their words are still given, as far as
// they go, for a reader that only recognises commands (never judges them safe): a parenthesis
// ends a simple command (the commands of a subshell or an unquoted $(…) read as commands of
// their own), a substitution inside double quotes stays inside its word, a here-document's
// body is skipped, comments are dropped.
//
// A pasted script costs bounded work: at most MaxCommands simple commands of MaxWords words
// (and MaxWords redirections) each are kept; beyond them the line is Cut (never Sure) and
// reading stops at the command past the last one kept.
package shellwords

import "strings"

// The bounds of a Line.
const (
	MaxCommands = 64 // simple commands (and operators) kept
	MaxWords    = 64 // words, and redirections, kept of one command
)

// Redirect is one redirection of a simple command: the file descriptor written as its prefix
// ("" when none), the operator (>, >>, <, >&, <&, &>, &>>, <>, >|; <<, <<- and <<< flag the line
// Compound) and its target word (a here-document's delimiter, quotes removed).
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
	// Splits: such an expansion outside double quotes, so sh also splits its result into
	// words: not even the number of words is known.
	Splits bool
	// Compound: a subshell, group or here-document (parentheses, braces as words, <<).
	Compound bool
	// Broken: an unterminated quote or a trailing backslash.
	Broken bool
	// Comment: a comment (# to the line's end) was left out.
	Comment bool
	// Cut: more than MaxCommands commands, or MaxWords words or redirections in one: the rest
	// is left out.
	Cut bool
}

// Sure reports whether the line's words are exactly what sh would run: nothing expands,
// nothing is compound, nothing is broken, nothing was cut.
func (l *Line) Sure() bool { return !l.Expands && !l.Compound && !l.Broken && !l.Cut }

// Parse splits a command line. It never fails: what it cannot follow sets a flag.
func Parse(s string) Line { return parse(parser{s: s}) }

// ParseKeepBackslash is Parse for a command line that may name a program by a Windows path
// written by hand (`C:\Users\me\zoneline.exe hook`, as settings.json may hold): outside quotes
// a backslash escapes only a blank or a quote, and stays before anything else.
func ParseKeepBackslash(s string) Line { return parse(parser{s: s, keepBackslash: true}) }

func parse(p parser) Line {
	p.run()
	return p.line
}

type parser struct {
	s             string
	i             int
	keepBackslash bool
	line          Line
	cur           Command
	word          strings.Builder
	in            bool // a word is being read
	quote         bool // the word being read had a quote or an escape
	redir         *Redirect
	heredocs      []string // delimiters of here-documents whose bodies start at the next newline
	full          bool     // MaxCommands commands read: reading stops
}

func (p *parser) run() {
	for p.i < len(p.s) && !p.full {
		c := p.s[p.i]
		switch {
		case c == '\'':
			p.single()
		case c == '"':
			p.double()
		case c == '\\':
			p.backslash()
		case c == '$' || c == '`':
			p.line.Expands, p.line.Splits = true, true
			p.word.WriteByte(c)
			p.in = true
			p.i++
		case c == ' ' || c == '\t':
			p.endWord()
			p.i++
		case c == '#' && !p.in:
			p.line.Comment = true
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
			if p.i+1 < len(p.s) && p.s[p.i+1] == '(' {
				p.line.Expands = true // process substitution
			}
			p.redirect()
		case c == '(' || c == ')':
			p.line.Compound = true
			p.endWord()
			if c == '(' {
				p.redir = nil // a process substitution's
			}
			p.endCommand()
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

// backslash reads a backslash outside quotes: it escapes the next character, and joins the
// next line to this one (in ParseKeepBackslash only a blank or a quote, else it stays).
func (p *parser) backslash() {
	p.i++
	switch {
	case p.i >= len(p.s):
		p.line.Broken = true
		p.word.WriteByte('\\') // kept, as the other readers of the word want it
		p.in = true
	case p.keepBackslash && strings.IndexByte(" \"'", p.s[p.i]) < 0:
		p.word.WriteByte('\\')
		p.in = true
	case p.s[p.i] == '\n': // a line continuation joins
		p.i++
	default:
		p.word.WriteByte(p.s[p.i])
		p.in, p.quote = true, true
		p.i++
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
	if len(p.line.Ops) < MaxCommands {
		p.line.Ops = append(p.line.Ops, op)
	}
	if op == "\n" && len(p.heredocs) > 0 {
		p.skipHeredocs()
	}
}

// skipHeredocs moves past the bodies of the here-documents opened on the line just ended, each
// to its delimiter's line (tabs before it allowed, as <<- strips them); an unterminated body runs
// to the end, as in a shell.
func (p *parser) skipHeredocs() {
	for _, d := range p.heredocs {
		for p.i < len(p.s) {
			line, _, found := strings.Cut(p.s[p.i:], "\n")
			p.i += len(line)
			if found {
				p.i++
			}
			if strings.TrimLeft(line, "\t") == d {
				break
			}
		}
	}
	p.heredocs = p.heredocs[:0]
}

// redirect reads a redirection operator at p.i; a word of digits just before it is its fd.
func (p *parser) redirect() {
	fd := ""
	if p.in && !p.quote && p.s[p.i] != '&' && allDigits(p.word.String()) {
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
	case "<<", "<<<":
		if op == "<<" && j < len(p.s) && p.s[j] == '-' {
			op = "<<-"
		}
		p.line.Compound = true // a here-document or here-string: its text is no word
	default: // the longest operator it starts with
		if strings.HasPrefix(op, ">&") || strings.HasPrefix(op, "<&") || strings.HasPrefix(op, ">>") {
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
	switch {
	case p.redir != nil:
		p.redir.Target = w
		if p.redir.Op == "<<" || p.redir.Op == "<<-" {
			p.heredocs = append(p.heredocs, w)
		}
		if len(p.cur.Redirects) < MaxWords {
			p.cur.Redirects = append(p.cur.Redirects, *p.redir)
		} else {
			p.line.Cut = true
		}
		p.redir = nil
	case len(p.cur.Words) < MaxWords:
		if !p.quote && (w == "{" || w == "}") {
			p.line.Compound = true
		}
		p.cur.Words = append(p.cur.Words, w)
		p.cur.Quoted = append(p.cur.Quoted, p.quote)
	default:
		p.line.Cut = true
	}
	p.in, p.quote = false, false
}

func (p *parser) endCommand() {
	if p.redir != nil {
		p.line.Broken = true
		p.redir = nil
	}
	if len(p.cur.Words) > 0 || len(p.cur.Redirects) > 0 {
		if len(p.line.Commands) < MaxCommands {
			p.line.Commands = append(p.line.Commands, p.cur)
		} else {
			p.line.Cut, p.full = true, true
		}
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
