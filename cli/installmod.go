package cli

import (
	"fmt"

	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/mod"
)

// installMod is `zoneline install -mod`'s part: the mod's folder into Claude Code's skills
// folder, where Claude Code auto-loads it (docs/mod.md).
func (e *Env) installMod(dryRun bool) int {
	bin, err := executable()
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return exitFail
	}
	dir, changed, err := install.InstallMod(e.Paths.ClaudeDir, bin, mod.FS, mod.Root, dryRun)
	if err != nil {
		fmt.Fprintln(e.Stderr, safetext.Text(err.Error()))
		return exitFail
	}
	switch {
	case !changed:
		fmt.Fprintf(e.Stdout, "mod: %s is up to date\n", safetext.Line(dir))
	case dryRun:
		fmt.Fprintf(e.Stdout, "mod: would write %s\n", safetext.Line(dir))
	default:
		fmt.Fprintf(e.Stdout, "mod: wrote %s (Claude Code loads it as zoneline-mod@skills-dir from its next session; [mod] compact_at in the config turns on compaction at your threshold)\n", safetext.Line(dir))
	}
	return exitOK
}

// uninstallMod is uninstall's part for the mod: its folder goes when it is zoneline's.
func (e *Env) uninstallMod(dryRun bool) int {
	removed, err := install.UninstallMod(e.Paths.ClaudeDir, dryRun)
	if err != nil {
		fmt.Fprintln(e.Stderr, safetext.Text(err.Error()))
		return exitFail
	}
	if removed {
		verb := "removed"
		if dryRun {
			verb = "would remove"
		}
		fmt.Fprintf(e.Stdout, "mod: %s %s\n", verb, safetext.Line(install.ModDir(e.Paths.ClaudeDir)))
	}
	return exitOK
}
