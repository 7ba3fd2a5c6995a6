package statusline

import "strconv"

// gitSegment shows the worktree's state from the git cache (never a process on the render):
// "*3 ↑1 ↓2" (dirty files, commits ahead of and behind the upstream; "*3 ^1 v2" in ascii),
// "clean" when there is nothing to say. It sits with dir and branch ("project ⎇ main *3 ↑1").
// Hidden while the cache holds nothing fresh for this worktree; "git ?" dimmed when git failed
// or timed out there (a repository too big for the refresher's deadline): deliberately no ⚠,
// the line's problems are zoneline's own, and the log says why.
type gitSegment struct{}

func (gitSegment) enabled(c *ctx) bool { return c.v.Git.Known || c.v.Git.Failed }

func (gitSegment) render(c *ctx, dst []span) []span {
	g := &c.v.Git
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
	pr := c.v.Payload.PR
	return pr != nil && pr.Number > 0 && pr.Number < 1<<40
}

func (prSegment) render(c *ctx, dst []span) []span {
	pr := c.v.Payload.PR
	b := append(c.num[:0], "PR #"...)
	if pr.Kind == "mr" {
		b = append(c.num[:0], "MR !"...)
	}
	b = strconv.AppendInt(b, int64(pr.Number), 10)
	dst = append(dst, span{text: string(b)})
	var st style
	state := ""
	switch pr.ReviewState {
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
		state, st = label(pr.ReviewState), styleDim
	}
	return append(dst, span{text: " " + state, style: st})
}

// repoSegment shows the repository from the origin remote, "anthropics/claude-code".
type repoSegment struct{}

func (repoSegment) enabled(c *ctx) bool {
	w := c.v.Payload.Workspace
	return w != nil && w.Repo != nil && w.Repo.Owner != "" && w.Repo.Name != ""
}

func (repoSegment) render(c *ctx, dst []span) []span {
	r := c.v.Payload.Workspace.Repo
	return append(dst, span{text: label(r.Owner + "/" + r.Name)})
}

// worktreeSegment shows the worktree's name, "wt my-feature".
type worktreeSegment struct{}

func (worktreeSegment) enabled(c *ctx) bool { return worktreeName(c) != "" }

// worktreeName is a --worktree session's worktree, else the linked git worktree cwd is in.
func worktreeName(c *ctx) string {
	if wt := c.v.Payload.Worktree; wt != nil && wt.Name != "" {
		return wt.Name
	}
	if w := c.v.Payload.Workspace; w != nil {
		return w.GitWorktree
	}
	return ""
}

func (worktreeSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "wt ", style: styleDim}, span{text: label(worktreeName(c))})
}

// agentSegment shows the --agent the session runs as, "agent code-architect".
type agentSegment struct{}

func (agentSegment) enabled(c *ctx) bool { a := c.v.Payload.Agent; return a != nil && a.Name != "" }

func (agentSegment) render(c *ctx, dst []span) []span {
	return append(dst, span{text: "agent ", style: styleDim}, span{text: label(c.v.Payload.Agent.Name)})
}
