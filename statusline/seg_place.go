package statusline

import "strconv"

// gitSegment shows the worktree's state from the git cache (never a process on the render):
// "*3 ↑1 ↓2" (dirty files, commits ahead of and behind the upstream; "*3 ^1 v2" in ascii),
// "clean" when there is nothing to say. It sits with dir and branch ("project ⎇ main *3 ↑1").
// Hidden while the cache holds nothing fresh for this worktree; "git ?" dimmed when git failed
// or timed out there (a repository too big for the refresher's deadline): deliberately no ⚠,
// the line's problems are zoneline's own, and the log says why.
type gitSegment struct{}

func (gitSegment) enabled(c *ctx) bool { return c.v.Facts.Git.Known || c.v.Facts.Git.Failed }

func (gitSegment) render(c *ctx, dst []span) []span {
	g := &c.v.Facts.Git
	if !g.Known {
		return append(dst, span{text: "git ?", style: styleDim})
	}
	up, down := "↑", "↓"
	if isASCII(c) {
		up, down = "^", "v"
	}
	b := c.num[:0]
	if g.Dirty > 0 {
		b = strconv.AppendInt(append(b, '*'), int64(g.Dirty), 10)
	}
	if g.Upstream && g.Ahead > 0 {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(append(b, up...), int64(g.Ahead), 10)
	}
	if g.Upstream && g.Behind > 0 {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(append(b, down...), int64(g.Behind), 10)
	}
	if len(b) == 0 {
		return append(dst, span{text: "clean", style: styleDim})
	}
	st := stylePlain
	if g.Dirty > 0 {
		st = styleWarn
	}
	return append(dst, span{text: string(b), style: st})
}

// prSegment shows the branch's open PR, "PR #1234 approved" ("MR !12 …" for GitLab), the
// review state coloured: approved smart, changes requested warn, draft and pending dimmed.
type prSegment struct{}

func (prSegment) enabled(c *ctx) bool {
	n := c.v.Facts.PRNumber
	return n > 0 && n < 1<<40
}

func (prSegment) render(c *ctx, dst []span) []span {
	f := &c.v.Facts
	b := append(c.num[:0], "PR #"...)
	if f.PRKind == "mr" {
		b = append(c.num[:0], "MR !"...)
	}
	b = strconv.AppendInt(b, f.PRNumber, 10)
	dst = append(dst, span{text: string(b)})
	var st style
	state := ""
	switch f.PRState {
	case "":
		return dst
	case "approved":
		state, st = "approved", styleSmart
	case "changes_requested":
		state, st = "changes requested", styleWarn
	case "pending":
		state, st = "pending", styleDim
	case "draft":
		state, st = "draft", styleDim
	default:
		state, st = label(f.PRState), styleDim
	}
	return append(dst, span{text: " " + state, style: st})
}

// repoSegment shows the repository from the origin remote, "anthropics/claude-code".
type repoSegment struct{}

func (repoSegment) enabled(c *ctx) bool { return c.v.Facts.Repo != "" }

func (repoSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: label(c.v.Facts.Repo)})
}

// worktreeSegment shows the worktree's name, "wt my-feature".
type worktreeSegment struct{}

func (worktreeSegment) enabled(c *ctx) bool { return c.v.Facts.Worktree != "" }

func (worktreeSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "wt ", style: styleDim}, span{text: label(c.v.Facts.Worktree)})
}

// agentSegment shows the --agent the session runs as, "agent code-architect".
type agentSegment struct{}

func (agentSegment) enabled(c *ctx) bool { return c.v.Facts.Agent != "" }

func (agentSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "agent ", style: styleDim}, span{text: label(c.v.Facts.Agent)})
}
