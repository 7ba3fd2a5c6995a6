package snapshot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
)

// summaryPrompt is how many characters of one prompt the summary shows.
const summaryPrompt = 300

// Summary returns the snapshot's most useful lines, most useful first, as plain text of at most
// maxChars characters (cut on a line boundary): git, the last prompts verbatim, files written,
// recent commands, skills. Every field is outside text (a file name, a branch, a command may
// hold a newline or a control): each single-line field is one line (one), and a prompt's own
// newlines are indented under it, so no field can begin a line of the restore.
func (s *Snapshot) Summary(maxChars int) string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	add("taken %s (trigger %s), context %d tokens, cwd %s", s.Time.Format("2006-01-02 15:04:05Z07:00"), one(s.Trigger), s.ContextTokens, one(s.Cwd))
	if g := s.Git; g != nil {
		where := one(g.Branch)
		if where == "" {
			where = "detached HEAD"
		}
		head := g.Head
		if len(head) > 12 {
			head = head[:12]
		}
		add("git: %s at %s, %d dirty file(s)%s", where, orNone(one(head)), len(g.Dirty)+g.DirtyMore, list(ones(g.Dirty), 8))
		if g.Err != "" {
			add("git: %s", one(g.Err))
		}
	}
	if len(s.Prompts) > 0 {
		add("last prompts (oldest first, verbatim):")
		start := max(0, len(s.Prompts)-5)
		for _, p := range s.Prompts[start:] {
			add("  > %s", indented(cut(p.Text, summaryPrompt)))
		}
	}
	if len(s.Files) > 0 {
		add("files written or edited: %s", strings.Join(ones(last(s.Files, 15)), ", "))
	}
	if len(s.Commands) > 0 {
		add("recent commands:")
		for _, c := range last(s.Commands, 6) {
			if c.Description != "" {
				add("  $ %s   # %s", one(cut(c.Command, 160)), one(cut(c.Description, 160)))
			} else {
				add("  $ %s", one(cut(c.Command, 160)))
			}
		}
	}
	if len(s.Skills) > 0 {
		add("skills and slash commands used: %s", strings.Join(ones(last(s.Skills, 10)), ", "))
	}
	return fit(lines, maxChars)
}

// one returns s when it is one safe line (safetext), else Go-quoted: a newline shows as \n, a
// control or bidi rune as its escape, so the value stays readable and cannot start a line.
func one(s string) string {
	if safetext.Line(s) == s {
		return s
	}
	return strconv.Quote(strings.ToValidUTF8(s, "\uFFFD"))
}

// ones is one for each field of a list, each cut to 300 characters first.
func ones(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = one(cut(x, 300))
	}
	return out
}

// indented returns a prompt as safe text (safetext.Text: a control becomes a visible stand-in,
// a line separator too) with every line after the first indented under its "  > ".
func indented(s string) string {
	return strings.ReplaceAll(safetext.Text(s), "\n", "\n    ")
}

// fit joins lines, dropping whole lines from the end to stay within maxChars.
func fit(lines []string, maxChars int) string {
	var b strings.Builder
	n := 0
	for _, l := range lines {
		c := len([]rune(l)) + 1
		if maxChars > 0 && n+c > maxChars {
			b.WriteString("[snapshot summary cut to fit]\n")
			break
		}
		b.WriteString(l + "\n")
		n += c
	}
	return strings.TrimRight(b.String(), "\n")
}

func list(xs []string, n int) string {
	if len(xs) == 0 {
		return ""
	}
	out := ": " + strings.Join(xs[:min(n, len(xs))], "; ")
	if len(xs) > n {
		out += fmt.Sprintf("; … %d more", len(xs)-n)
	}
	return out
}

func last[T any](xs []T, n int) []T {
	if len(xs) > n {
		return xs[len(xs)-n:]
	}
	return xs
}

func orNone(s string) string {
	if s == "" {
		return "(no commits)"
	}
	return s
}
