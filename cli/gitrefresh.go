package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zoneline/zoneline/gitcache"
	"github.com/zoneline/zoneline/gitinfo"
	"github.com/zoneline/zoneline/internal/detach"
	"github.com/zoneline/zoneline/snapshot"
)

var cmdGitRefresh = &Command{
	Name: "git-refresh", UsageLine: "git-refresh -root DIR",
	Short: "refresh the git segment's cache for a worktree (the statusline starts it)",
	Long: `Run git once for the worktree DIR (filters, fsmonitor, hooks and pagers off, killed at its
deadline) and write the git segment's cache entry. The status line starts it detached when the
entry is stale, after its line is printed; DIR must be a worktree's top directory.`,
	Parse: parseGitRefresh,
}

// parseGitRefresh is `zoneline git-refresh -root DIR`: it runs git once for the worktree DIR
// (snapshot.GitStatus: filters, fsmonitor, hooks and pagers off, its own process group,
// killed at the deadline) and writes the git segment's cache entry atomically. The statusline
// starts it detached when the entry is stale, after its line is printed; a person may run it
// too. DIR must be a worktree's top directory (as gitinfo finds it): nothing else is run.
func parseGitRefresh(e *Env, fs *flag.FlagSet) func([]string) error {
	root := fs.String("root", "", "the worktree's top directory (absolute)")
	return func(args []string) error {
		if *root == "" || !filepath.IsAbs(*root) || len(args) > 0 {
			return usagef("git-refresh takes -root, a worktree's absolute top directory")
		}
		return e.runGitRefresh(*root)
	}
}

// runGitRefresh refreshes the cache entry of the worktree at root.
func (e *Env) runGitRefresh(root string) error {
	info, err := gitinfo.Branch(root)
	if err != nil || info.Root != filepath.Clean(root) {
		return fmt.Errorf("zoneline: git-refresh: %s is not a worktree's top directory", root)
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitcache.Deadline)
	defer cancel()
	start := e.Now()
	g := snapshot.GitStatus(ctx, info.Root)
	ent := gitcache.Entry{Root: info.Root, Branch: info.Label(), Time: start}
	switch {
	case g == nil:
		ent.Err = "not a git checkout"
	case g.Err != "":
		ent.Err = g.Err
	default:
		ent.Dirty = len(g.Dirty) + g.DirtyMore
		ent.Ahead, ent.Behind, ent.Upstream = g.Ahead, g.Behind, g.Upstream != ""
	}
	if ent.Err != "" {
		ent.Fails = 1 // the backoff grows with each failure in a row (gitcache.Backoff)
		if prev, ok := gitcache.Load(e.State.Root, info.Root); ok && prev.Err != "" {
			ent.Fails = prev.Fails + 1
		}
	}
	if err := gitcache.Save(e.State.Root, ent); err != nil {
		return fmt.Errorf("zoneline: git-refresh: %v", err)
	}
	if ent.Err != "" {
		e.State.Log("git-refresh", "%s: %s (failure %d in a row; next try in %s)", info.Root, ent.Err, ent.Fails, gitcache.Backoff(ent.Fails))
	}
	return nil
}

// startGitRefresh starts `zoneline git-refresh` for root, detached, unless another render
// started one within gitcache.RefreshAfter. It runs after the line is printed.
func (e *Env) startGitRefresh(root string) {
	if !gitcache.Claim(e.State.Root, root, e.Now()) {
		return
	}
	bin, err := os.Executable()
	if err != nil {
		e.State.Log("statusline", "git refresh: %v", err)
		return
	}
	if strings.TrimSuffix(filepath.Base(bin), ".exe") != "zoneline" {
		return // a test binary running cli in-process: it has no git-refresh command to start
	}
	args := []string{"git-refresh", "-root", root}
	if err := detach.Start(bin, args); err != nil {
		e.State.Log("statusline", "git refresh: %v", err)
	}
}
