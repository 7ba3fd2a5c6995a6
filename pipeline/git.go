package pipeline

import (
	"time"

	"github.com/zoneline/zoneline/gitcache"
	"github.com/zoneline/zoneline/statusline"
)

// gitFacts reads the git cache for the worktree at root on branch when the layout shows the
// git segment; refresh reports whether the entry is stale (the caller starts the refresher
// after printing). An entry whose git failed shows as "git ?" and is retried after its
// backoff. It reads one small file; it never starts a process.
func (c *Context) gitFacts(lines [][]string, root, branch string, now time.Time) (g statusline.Git, refresh bool) {
	if root == "" || !c.State.Usable() || !statusline.LayoutHas(lines, "git") {
		return g, false
	}
	ent, ok := gitcache.Load(c.State.Root, root)
	if ok && ent.Fresh(now, branch) {
		g = statusline.Git{Known: true, Dirty: ent.Dirty, Ahead: ent.Ahead, Behind: ent.Behind, Upstream: ent.Upstream}
	}
	g.Failed = ok && ent.Failed(branch)
	return g, gitcache.Stale(ent, ok, now, branch)
}
