package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/skills"
)

// installOptions are the flags of `zoneline install` and `zoneline uninstall`.
type installOptions struct {
	project bool    // .claude/settings.json of the current repository instead of the user's
	force   bool    // install: replace a foreign statusLine, overwrite edited skill files
	wrap    bool    // install: a foreign statusLine becomes zoneline wrapping its command
	dryRun  bool    // print the diff, change nothing
	purge   bool    // uninstall: remove config and state too
	bin     string  // install: the zoneline Claude Code is to run; "" means this binary
	mod     bool    // install: the Claude Code mod too; uninstall: the mod alone (installmod.go)
	usedBin *string // install: set to the binary the hooks run (the mod runs the same one)
}

var cmdInstall = &Command{
	Name: "install", UsageLine: "install [flags]",
	Short: "register zoneline in Claude Code's settings.json and install the skills",
	Long: `Register zoneline in Claude Code's settings.json: the status line and one hook command for
each event zoneline handles; install the /compact-prep and /postcompact skills, and write the
default config when there is none. What was there before is kept (a backup, and an install
record uninstall reads); another tool's statusLine is kept (the Stop hook runs the warnings),
run inside zoneline's with -wrap, or replaced with -force. -mod also installs the Claude Code
mod (docs/mod.md).`,
	Parse:  parseInstall,
	NoArgs: true,
}

var cmdUninstall = &Command{
	Name: "uninstall", UsageLine: "uninstall [flags]",
	Short: "take out exactly what install added",
	Long: `Take out exactly what install added to settings.json and the skills folder, putting back a
statusLine install replaced, and the mod. -purge also removes the config file and the state
dir; -mod removes the mod alone.`,
	Parse:  parseUninstall,
	NoArgs: true,
}

func parseInstall(e *Env, fs *flag.FlagSet) func([]string) error {
	var o installOptions
	fs.StringVar(&o.bin, "bin", "", "the absolute path of the zoneline binary Claude Code and the skills are to run (default: this binary; install.sh's dry run names the one it would install)")
	fs.BoolVar(&o.project, "project", false, "register in .claude/settings.json of the current repository instead of "+filepath.Join(e.Paths.ClaudeDir, "settings.json"))
	fs.BoolVar(&o.force, "force", false, "replace another statusLine (uninstall puts it back) and overwrite edited skill files")
	fs.BoolVar(&o.wrap, "wrap", false, "keep another statusLine by running it inside zoneline's (zoneline statusline -wrap 'THEIR COMMAND'); uninstall puts it back")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the diff that would be applied and change nothing")
	fs.BoolVar(&o.mod, "mod", false, "also install the Claude Code mod (a zone row above the prompt, the keep-list on every compaction)")
	return func([]string) error {
		if o.mod {
			// Checked before anything is written: no half install.
			if err := e.checkMod(o); err != nil {
				return err
			}
		}
		var bin string
		o.usedBin = &bin
		if err := e.install(o, false); err != nil {
			return err
		}
		if o.mod {
			if err := e.installMod(bin, o.dryRun); err != nil {
				return err
			}
		}
		if !o.dryRun {
			e.whatNext(bin, o.project)
		}
		return nil
	}
}

func parseUninstall(e *Env, fs *flag.FlagSet) func([]string) error {
	var o installOptions
	fs.BoolVar(&o.project, "project", false, "unregister from .claude/settings.json of the current repository")
	fs.BoolVar(&o.purge, "purge", false, "also remove the config file and the state dir")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the diff that would be applied and change nothing")
	fs.BoolVar(&o.mod, "mod", false, "remove only the Claude Code mod (the hooks, status line and skills stay)")
	return func([]string) error {
		switch {
		case o.mod && (o.project || o.purge):
			return usagef("uninstall -mod removes only the mod, which is installed for the user: run it without -project and -purge")
		case o.mod:
			return e.uninstallMod(o.dryRun)
		case o.project && o.purge:
			return usagef("-purge removes the user's config and state, which the user-level install still uses; run 'zoneline uninstall -project' here, and 'zoneline uninstall -purge' once for the user")
		}
		if !o.project {
			// The mod first: its folder is in the skills folder, which the uninstall then
			// removes when install created it and nothing else is left there.
			if err := e.uninstallMod(o.dryRun); err != nil {
				return err
			}
		}
		return e.install(o, true)
	}
}

// whatNext prints what to do after an install, the one text for both routes (install.sh runs
// this install): the commands name bin as the user types it (plain zoneline when PATH finds
// that very file).
func (e *Env) whatNext(bin string, project bool) {
	zl := skills.Word(bin, runtime.GOOS == "windows")
	if p, err := lookPath("zoneline", e.Getenv("PATH")); err == nil {
		if a, err1 := os.Stat(p); err1 == nil {
			if b, err2 := os.Stat(bin); err2 == nil && os.SameFile(a, b) {
				zl = "zoneline"
			}
		}
	}
	tune := zl + " config init"
	if c := e.Paths.Config; c != "" {
		if _, err := os.Stat(c); err == nil {
			tune = "edit " + safetext.Line(c) + ", then: " + zl + " config check"
		}
	}
	uninstall := zl + " uninstall   (--purge: config and state too)"
	if project {
		uninstall = zl + " uninstall -project"
	}
	fmt.Fprintf(e.Stdout, `
What next:
  - Start Claude Code (or a new session): the zone line appears under the prompt box (%s preview shows it here).
  - Check that everything works, and what to fix:  %s doctor
  - Before you compact, in Claude Code:            /compact-prep   (a checkpoint that survives)
  - Tune thresholds and segments:                  %s
  - Take out all that install put in:              %s
`, zl, zl, tune, uninstall)
}

// installTarget returns the settings file and the Claude folder install works on.
func (e *Env) installTarget(project bool) (settings, claudeDir string, err error) {
	if !project {
		if e.Paths.ClaudeDir == "" {
			return "", "", errors.New("zoneline: no Claude Code folder: set HOME, or CLAUDE_CONFIG_DIR to an absolute path")
		}
		return filepath.Join(e.Paths.ClaudeDir, "settings.json"), e.Paths.ClaudeDir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", "", fmt.Errorf("zoneline: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			claude := filepath.Join(dir, ".claude")
			return filepath.Join(claude, "settings.json"), claude, nil
		}
		if filepath.Dir(dir) == dir {
			return "", "", fmt.Errorf("zoneline: --project: no git repository at or above %s; run it inside your project", wd)
		}
	}
}

// executable returns the absolute path of the running zoneline, symlinks resolved unless that
// loses the name zoneline (settings entries are recognised by it, see install.IsOurs).
func executable() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("zoneline: cannot find my own binary: %v", err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil && isZoneline(r) {
		p = r
	}
	if !isZoneline(p) && len(os.Args) > 0 && isZoneline(os.Args[0]) {
		if lp, err := exec.LookPath(os.Args[0]); err == nil {
			p = lp
		}
	}
	if !isZoneline(p) {
		return "", fmt.Errorf("zoneline: this binary is named %s: Claude Code's entries are recognised by the name zoneline; rename it", filepath.Base(p))
	}
	return filepath.Abs(p)
}

// binFlag checks install's -bin: an absolute path named zoneline, and (unless a dry run, which
// names the binary install.sh would put there) an executable file.
func binFlag(p string, dryRun bool) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("zoneline: -bin %s: want an absolute path", p)
	}
	if !isZoneline(p) {
		return "", fmt.Errorf("zoneline: -bin %s: the binary must be named zoneline (Claude Code's entries are recognised by the name)", p)
	}
	if dryRun {
		return filepath.Clean(p), nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("zoneline: -bin: %v", err)
	}
	if !fi.Mode().IsRegular() || (runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0) {
		return "", fmt.Errorf("zoneline: -bin %s: not an executable file", p)
	}
	return filepath.Clean(p), nil
}

func isZoneline(p string) bool {
	return install.IsOurs(install.CommandLine(p, "x", runtime.GOOS), "x")
}

func (e *Env) install(o installOptions, uninstall bool) error {
	settings, claudeDir, err := e.installTarget(o.project)
	if err != nil {
		return err
	}
	bin, err := executable()
	switch {
	case o.bin != "":
		bin, err = binFlag(o.bin, o.dryRun) // install.sh names the binary it installs
	case err == nil && !uninstall:
		bin, err = e.stableBin(bin, o.dryRun, e.Stdout)
	}
	if err != nil {
		return err
	}
	if o.usedBin != nil {
		*o.usedBin = bin
	}
	opts := install.Options{
		Settings: settings, ClaudeDir: claudeDir, Bin: bin, GOOS: runtime.GOOS,
		Skills: skills.FS, Config: e.Paths.Config, StateDir: e.Paths.StateDir,
		Force: o.force, Wrap: o.wrap, DryRun: o.dryRun, Purge: o.purge, Now: e.Now,
	}
	if o.project {
		opts.Within = filepath.Dir(claudeDir) // the repository
	}
	verb := "install"
	run := install.Install
	if uninstall {
		verb, run = "uninstall", install.Uninstall
	}
	res, err := run(opts)
	if err != nil {
		var pe *install.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("zoneline: %w\nzoneline: %s changed nothing", err, verb)
		}
		return err
	}
	printInstall(e.Stdout, verb, res, o.dryRun)
	if note := companionNote(bin); note != "" && !uninstall {
		fmt.Fprintln(e.Stdout, "note: "+note)
	}
	return nil
}

func printInstall(w io.Writer, verb string, res *install.Result, dryRun bool) {
	// Every string here may come from outside: the paths (a repository's folder names, with
	// -project), the items (hook event names, skill folders a settings file or record names) and
	// the details (another tool's statusLine command). Each is one safe line.
	line := safetext.Line
	fmt.Fprintf(w, "zoneline %s: %s\n", verb, line(res.Settings))
	for _, c := range res.Changes {
		fmt.Fprintf(w, "  %-16s %-28s %s\n", c.Action, line(c.Item), line(c.Detail))
	}
	switch {
	case dryRun && res.Diff != "":
		fmt.Fprintf(w, "\ndry run: nothing was written. The change to %s would be:\n%s", line(res.Settings), safetext.Text(res.Diff))
	case dryRun:
		fmt.Fprintf(w, "\ndry run: nothing was written; %s would not change\n", line(res.Settings))
	case res.Diff == "":
		fmt.Fprintf(w, "settings unchanged\n")
	default:
		if res.Backup != "" {
			fmt.Fprintf(w, "backup of the previous settings: %s\n", line(res.Backup))
		}
		if verb == "install" {
			fmt.Fprintf(w, "install record (read by uninstall): %s\n", line(res.Record))
		}
	}
	for _, c := range res.Changes {
		if c.Action == install.Skipped {
			fmt.Fprintf(w, "note: %s was skipped: %s\n", line(c.Item), line(c.Detail))
		}
	}
}
