package snapshot

import (
	"fmt"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
)

// summaryPrompt is how many characters of one prompt the summary shows.
const summaryPrompt = 300

// Summary returns the snapshot's most useful lines, most useful first, as plain text of at most
// maxChars characters (cut on a line boundary): git, the last prompts verbatim, files written,
// recent commands, skills.
func (s *Snapshot) Summary(maxChars int) string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	add("taken %s (trigger %s), context %d tokens, cwd %s", s.Time.Format("2006-01-02 15:04:05Z07:00"), s.Trigger, s.ContextTokens, s.Cwd)
	if g := s.Git; g != nil {
		where := g.Branch
		if where == "" {
			where = "detached HEAD"
		}
		head := g.Head
		if len(head) > 12 {
			head = head[:12]
		}
		add("git: %s at %s, %d dirty file(s)%s", where, orNone(head), len(g.Dirty)+g.DirtyMore, list(g.Dirty, 8))
		if g.Err != "" {
			add("git: %s", g.Err)
		}
	}
	if len(s.Prompts) > 0 {
		add("last prompts (oldest first, verbatim):")
		start := max(0, len(s.Prompts)-5)
		for _, p := range s.Prompts[start:] {
			add("  > %s", strings.ReplaceAll(safetext.Text(cut(p.Text, summaryPrompt)), "\n", "\n    "))
		}
	}
	if len(s.Files) > 0 {
		add("files written or edited: %s", strings.Join(safeAll(last(s.Files, 15)), ", "))
	}
	if len(s.Commands) > 0 {
		add("recent commands:")
		for _, c := range last(s.Commands, 6) {
			if c.Description != "" {
				add("  $ %s   # %s", safetext.Clip(c.Command, 160), safetext.Clip(c.Description, 160))
			} else {
				add("  $ %s", safetext.Clip(c.Command, 160))
			}
		}
	}
	if len(s.Skills) > 0 {
		add("skills and slash commands used: %s", strings.Join(safeAll(last(s.Skills, 10)), ", "))
	}
	return fit(lines, maxChars)
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
	out := ": " + strings.Join(safeAll(xs[:min(n, len(xs))]), "; ")
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

// safeAll returns each string through safetext.Clip: the summary reaches the agent.
func safeAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = safetext.Clip(x, 300)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(no commits)"
	}
	return s
}
