package cli

import (
	"fmt"

	"github.com/zoneline/zoneline/ccmod"
	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/internal/safetext"
)

// checkMod is what `install -mod` checks before anything is written. The mod is the user's: it
// goes to <claude>/skills/zoneline-mod, which Claude Code loads in every session, and has no
// project form, so -project with -mod is refused (for one project: claude --plugin-dir). A folder
// of that name that is not zoneline's stops the install before the settings are touched.
func (e *Env) checkMod(o installOptions) error {
	if o.project {
		return usagef("-mod installs the mod for the user (Claude Code loads %s in every session); it has no -project form: run 'zoneline install -project' and 'zoneline install -mod' separately, or load it for one session with 'claude --plugin-dir'", install.ModDir(e.Paths.ClaudeDir))
	}
	if err := install.CheckModDir(e.Paths.ClaudeDir); err != nil {
		return fmt.Errorf("%w\nzoneline: install changed nothing", err)
	}
	return nil
}

// installMod is `zoneline install -mod`'s part: the mod's folder into Claude Code's skills
// folder, where Claude Code auto-loads it (docs/mod.md). bin is the binary the hooks run (-bin,
// or this binary made stable); the mod runs the same one.
func (e *Env) installMod(bin string, dryRun bool) error {
	if bin == "" {
		var err error
		if bin, err = executable(); err != nil {
			return err
		}
	}
	dir, changed, err := install.InstallMod(e.Paths.ClaudeDir, bin, ccmod.FS, ccmod.Root, dryRun)
	if err != nil {
		return err
	}
	switch {
	case !changed:
		fmt.Fprintf(e.Stdout, "mod: %s is up to date\n", safetext.Line(dir))
	case dryRun:
		fmt.Fprintf(e.Stdout, "mod: would write %s\n", safetext.Line(dir))
	default:
		fmt.Fprintf(e.Stdout, "mod: wrote %s (Claude Code loads it as zoneline-mod@skills-dir from its next session; [mod] compact_at in the config turns on compaction at your threshold)\n", safetext.Line(dir))
	}
	return nil
}

// uninstallMod is uninstall's part for the mod: its folder goes when it is zoneline's.
func (e *Env) uninstallMod(dryRun bool) error {
	removed, err := install.UninstallMod(e.Paths.ClaudeDir, dryRun)
	if err != nil {
		return err
	}
	if removed {
		verb := "removed"
		if dryRun {
			verb = "would remove"
		}
		fmt.Fprintf(e.Stdout, "mod: %s %s\n", verb, safetext.Line(install.ModDir(e.Paths.ClaudeDir)))
	}
	return nil
}
