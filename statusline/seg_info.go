package statusline

import "strconv"

// modelSegment shows the model's display name, "Opus 5.5".
type modelSegment struct{}

func (modelSegment) enabled(c *ctx) bool { return c.v.Model != "" }

func (modelSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: clean(c.v.Model)})
}

// dirSegment shows the project directory's base name.
type dirSegment struct{}

func (dirSegment) enabled(c *ctx) bool { return c.v.Dir != "" }

func (dirSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: clean(c.v.Dir)})
}

// branchSegment shows the git branch (or short HEAD): "⎇ main", "git:main" in ascii.
type branchSegment struct{}

func (branchSegment) enabled(c *ctx) bool { return c.v.Branch != "" }

func (branchSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: c.g.branch}, span{text: clean(c.v.Branch)})
}

// compactionsSegment shows the compactions seen in this session, dimmed: "↻2" ("c2" in ascii),
// and the tokens they reclaimed when known, "↻2 -280k".
type compactionsSegment struct{}

func (compactionsSegment) enabled(c *ctx) bool { return c.v.Compactions > 0 }

func (compactionsSegment) render(c *ctx, dst []span) []span {
	b := append(c.num[:0], c.g.compactions...)
	b = strconv.AppendInt(b, int64(c.v.Compactions), 10)
	if r := c.v.Reclaimed; r > 0 { // the tokens they reclaimed: "↻2 -280k"
		b = appendTokens(append(b, " -"...), r)
	}
	return append(dst, span{text: string(b), style: styleDim})
}

// problemsSegment shows the problems, "⚠ config.toml:4:1 unknown key 'colour'", joined by
// "; ", in the warn colour. Width fitting never drops it (it may truncate it).
type problemsSegment struct{}

func (problemsSegment) enabled(c *ctx) bool {
	for _, p := range c.v.Problems {
		if p != "" {
			return true
		}
	}
	return false
}

func (problemsSegment) render(c *ctx, dst []span) []span {
	dst = append(dst, span{text: c.g.problem, style: styleWarn})
	first := true
	for _, p := range c.v.Problems {
		if p == "" {
			continue
		}
		if !first {
			dst = append(dst, span{text: c.g.problemSep, style: styleWarn})
		}
		first = false
		dst = append(dst, span{text: clean(p), style: styleWarn})
	}
	return dst
}
