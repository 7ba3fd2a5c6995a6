package statusline

import (
	"strconv"
	"strings"
)

// renderShort is the ⚠ segment's short form, which width fitting puts in its place before it
// drops any other segment: the first problem alone, a config problem as the command that
// tells more ("⚠ zoneline config check"), and how many more there are, "+1". It never pushes out the zone, the
// tokens or the distance to compact (PriorityOverProblems): once only those are left, it is
// cut instead, down to its mark.
func (problemsSegment) renderShort(c *ctx, dst []span) []span {
	first, n := "", 0
	for _, p := range c.v.Problems {
		if p != "" {
			if n == 0 {
				first = p
			}
			n++
		}
	}
	text := problemHelp(first)
	if n > 1 {
		text += " +" + strconv.Itoa(n-1)
	}
	return append(dst, span{text: c.g.problem, style: styleWarn}, span{text: text, style: styleWarn})
}

// problemHelp is a problem as the short form shows it: a config problem ("config.toml:4:1: …",
// long with its place and suggestion) as the command that lists them all, any other as it is.
func problemHelp(p string) string {
	if word, _, _ := strings.Cut(p, ":"); strings.HasSuffix(word, ".toml") || word == "config" {
		return "zoneline config check"
	}
	return clean(p)
}
