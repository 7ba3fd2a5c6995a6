package gitcache

import "github.com/zoneline/zoneline/internal/detach"

// Start starts the refresher bin with args detached (detach.Start: its own session on Unix;
// no console, its own process group and out of Claude Code's job on Windows), and does not
// wait for it.
func Start(bin string, args []string) error { return detach.Start(bin, args) }
