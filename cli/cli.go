// Package cli is zoneline's command line: a plain table of subcommands on the standard flag
// package. It is the one place that reads the environment; it resolves what every other package
// needs and hands it down.
package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/paths"
	"github.com/zoneline/zoneline/state"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and found a problem (config check, verify, doctor)
	exitUsage = 2 // the command line is wrong
)

// Env is the process environment, resolved once.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Home   string
	Paths  paths.Paths
	State  state.Dir
	Now    func() time.Time
	// process: Main built this Env for the process, so Stdin is fd 0 (its reads can be bounded),
	// the statusline's and the hooks' deadlines may end the process, and SIGPIPE may be ignored.
	process bool
	// modCall: this render is `zoneline mod status` (cli/mod.go), whose payload has no model
	// display name: the registry keeps the status line's.
	modCall bool
}

// Command is one subcommand.
type Command struct {
	Name  string
	Short string
	Run   func(e *Env, args []string) int
	// AnyPaths: the command runs without a config path or a state dir (paths.Paths.Resolved):
	// it degrades on its own (the statusline, the hooks, doctor, …). The others refuse.
	AnyPaths bool
}

// noPaths is the answer of a command that needs the config and the state dir when the
// environment gives no absolute path for them: zoneline never guesses one (paths.Resolve).
func (e *Env) noPaths() int {
	for _, p := range e.Paths.Problems {
		fmt.Fprintf(e.Stderr, "zoneline: %s\n", p)
	}
	fmt.Fprintln(e.Stderr, "zoneline: set HOME to your home folder, or ZONELINE_CONFIG and ZONELINE_STATE_DIR to absolute paths")
	return exitFail
}

// commands is the subcommand table, in the order `zoneline help` lists them.
var commands = []*Command{
	{Name: "statusline", Short: "render the status line from Claude Code's JSON on stdin", Run: runStatusline, AnyPaths: true},
	{Name: "preview", Short: "render sample status lines for each zone with your config", Run: runPreview, AnyPaths: true},
	{Name: "config", Short: "config init | check | show | path", Run: runConfig},
	{Name: "hook", Short: "the hook command for every Claude Code hook event (payload on stdin)", Run: runHook, AnyPaths: true},
	{Name: "checkpoint", Short: "checkpoint path | show | verify | reconcile | template (the /compact-prep checkpoint)", Run: runCheckpoint},
	{Name: "install", Short: "register zoneline in Claude Code's settings.json, install the skills (-project, -wrap, -force, -dry-run)", Run: runInstall},
	{Name: "uninstall", Short: "take out exactly what install added (-project, -purge, -dry-run)", Run: runUninstall},
	{Name: "tune", Short: "suggest per-model thresholds from your transcripts (-json, -svg FILE, -write)", Run: runTune, AnyPaths: true},
	{Name: "doctor", Short: "check that everything works and say what to fix (-notify sends a test)", Run: runDoctor, AnyPaths: true},
	{Name: "notify", Short: "notify --test: send one desktop notification to check they reach you", Run: runNotify},
	{Name: "sessions", Short: "the live sessions, most urgent first: zone, tokens, distance to auto-compact, pane (-json, -all)", Run: runSessions},
	{Name: "compact-flow", Short: "checkpoint → /compact → /postcompact in another session's tmux pane, stopping at a failed step", Run: runCompactFlow},
	{Name: "watch", Short: "notify (or -auto: compact-flow) for idle sessions past their prep tier", Run: runWatch},
	{Name: "git-refresh", Short: "refresh the git segment's cache for a worktree (-root DIR; the statusline starts it)", Run: runGitRefresh},
	{Name: "mod", Short: "mod status | fork-prompt | save-checkpoint | receipt: JSON for the Claude Code mod (mod/)", Run: runMod, AnyPaths: true},
	{Name: "version", Short: "print the version", Run: runVersion, AnyPaths: true},
}

// Main runs zoneline with args (without the program name) and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	home, _ := os.UserHomeDir()
	e := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, Home: home, Now: time.Now,
		process: stdin == io.Reader(os.Stdin)}
	e.Paths = paths.Resolve(e.Getenv, home)
	e.State = state.Dir{Root: e.Paths.StateDir}
	return e.Run(args)
}

// Run dispatches args to a subcommand.
func (e *Env) Run(args []string) int {
	if len(args) == 0 {
		e.usage(e.Stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		e.usage(e.Stdout)
		return exitOK
	case "--version", "-version":
		name = "version"
	}
	for _, c := range commands {
		if c.Name == name {
			if !c.AnyPaths && !e.Paths.Resolved() {
				return e.noPaths()
			}
			return c.Run(e, args[1:])
		}
	}
	fmt.Fprintf(e.Stderr, "zoneline: unknown command %q; run 'zoneline help'\n", name)
	return exitUsage
}

func (e *Env) usage(w io.Writer) {
	fmt.Fprintf(w, "zoneline %s: context zones, warnings and compaction survival for Claude Code\n\nusage: zoneline <command> [flags]\n\n", version())
	for _, c := range commands {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, "\nconfig: %s\nstate:  %s\nclaude: %s\n", e.Paths.Config, e.Paths.StateDir, e.Paths.ClaudeDir)
	for _, p := range e.Paths.Problems {
		fmt.Fprintf(w, "⚠ %s\n", p)
	}
}

// flags returns a FlagSet for a subcommand that writes its errors and usage to stderr.
func (e *Env) flags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("zoneline "+name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.Stderr, "usage: zoneline %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; ok is false when the caller should return code.
func parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// loadConfigCached loads the config for the statusline and the hooks, through the parsed-config cache
// in the state dir: a config, valid or broken, is parsed once per change of the file.
func (e *Env) loadConfigCached() (*config.Config, error) {
	cache := ""
	if e.State.Usable() {
		cache = filepath.Join(e.State.Root, config.CacheFile)
	}
	return config.LoadCached(e.Paths.Config, cache, state.Replace)
}

// collectGarbage runs the state dir's daily GC (old sessions, stale temp files) from a command a
// person runs; the hooks run it too (hook/gc.go). Problems go to the log.
func (e *Env) collectGarbage() {
	cfg, _ := e.loadConfigCached()
	if _, _, err := e.State.GCDaily(time.Duration(cfg.State.GCDays)*24*time.Hour, e.Now()); err != nil {
		e.State.Log("gc", "%v", err)
	}
}

func runVersion(e *Env, args []string) int {
	fmt.Fprintf(e.Stdout, "zoneline %s\n", version())
	return exitOK
}

// oneLine flattens s for a log line, a status segment or a report line, and makes it safe to
// print (safetext.Line: no control, C1 or bidi rune survives).
func oneLine(s string) string {
	return safetext.Line(strings.Join(strings.Fields(s), " "))
}
