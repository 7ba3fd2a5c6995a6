// Package cli is zoneline's command line: a plain table of subcommands on the standard flag
// package. It is the one place that reads the environment; it resolves what every other package
// needs and hands it down.
package cli

// The reference pages docs/commands.md, docs/segments.md and docs/config.md are generated from
// the command table, the segment table and the config schema (docs_test.go):
//go:generate go test -run ^TestDocsUpToDate$ -fixdocs .

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
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
	// Sleep waits (nil: time.Sleep): the Stop hook's wait for the turn's reply, driven by a
	// test's clock.
	Sleep func(time.Duration)
	// IO is what a command a person runs knows of its terminal, decided once, when a command
	// first asks (e.io(), newIO): the statusline, the hooks and mod status, whose stdout is a
	// pipe of Claude Code's, never look.
	IO *IO
	// process: Main built this Env for the process, so Stdin is fd 0 (its reads can be bounded),
	// the statusline's and the hooks' deadlines may end the process, and SIGPIPE may be ignored.
	process bool
	// modCall: this render is `zoneline mod status` (cli/mod.go), whose payload has no model
	// display name: the registry keeps the status line's.
	modCall bool
}

// Command is one subcommand, built as cmd/go and gh build theirs: its usage is written once,
// here, and parsing comes before running. Parse defines the command's flags on a FlagSet bound
// to a fresh options value and returns the run step for the arguments the flags leave; the run
// step returns an error that Run maps to an exit code in one place (exitCode). Help calls
// Parse only to print the flags with their defaults.
type Command struct {
	Name string
	// UsageLine is the synopsis after "zoneline ", its flags written as "[flags]": usageLine
	// puts the flag set's flags there, so the synopsis lists every flag and no other. A flag
	// the synopsis must place (a required one, one of a subcommand) is written out, and left
	// out of "[flags]" (TestUsageLinesFromFlags: each one written is a flag).
	UsageLine string
	Short     string // one line for `zoneline help`: what the command does (its flags are in the synopsis)
	Long      string // the help text after the synopsis (the flags are printed from Parse)
	Parse     func(e *Env, fs *flag.FlagSet) func(args []string) error
	// Hot is set for what Claude Code runs after every turn (statusline, hook): it reads its
	// own arguments, never fails (always exit 0: an exit 2 would erase a prompt), and builds
	// no FlagSet on its path; Parse then only documents its flags for help.
	Hot func(e *Env, args []string)
	// AnyPaths: the command runs without a config path or a state dir (paths.Paths.Resolved):
	// it degrades on its own (the statusline, the hooks, doctor, …). The others refuse.
	AnyPaths bool
	// NoArgs: the command takes flags only; an argument is a usage error.
	NoArgs bool
}

// commands is the subcommand table, in the order `zoneline help` lists them.
var commands = []*Command{
	cmdStatusline, cmdPreview, cmdConfig, cmdHook, cmdCheckpoint, cmdInstall, cmdUninstall,
	cmdTune, cmdReport, cmdDoctor, cmdNotify, cmdSessions, cmdCompactFlow, cmdWatch, cmdGitRefresh, cmdWrapRefresh, cmdMod,
	cmdVersion,
}

// lookup returns the command named name, or nil.
func lookup(name string) *Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// noFlags is the Parse of a command without flags (and, NoArgs, without arguments).
func noFlags(run func(e *Env) error) func(e *Env, fs *flag.FlagSet) func([]string) error {
	return func(e *Env, fs *flag.FlagSet) func([]string) error {
		return func([]string) error { return run(e) }
	}
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

// Run dispatches args to a subcommand and returns its exit code.
func (e *Env) Run(args []string) int {
	if len(args) == 0 {
		e.usage(e.Stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return e.help(args[1:])
	case "--version", "-version", "-v":
		name = "version"
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(e.Stderr, "zoneline: unknown command %q; run 'zoneline help'\n", name)
		return exitUsage
	}
	if c.Hot != nil {
		if wantsHelp(args[1:]) {
			e.printHelp(e.Stdout, c)
			return exitOK
		}
		c.Hot(e, args[1:])
		return exitOK
	}
	return e.exitCode(c, e.runCommand(c, args[1:]))
}

// runCommand parses args into the command's options (flags first: nothing is loaded before a
// bad or -h command line is answered) and runs it.
func (e *Env) runCommand(c *Command, args []string) error {
	fs := flag.NewFlagSet("zoneline "+c.Name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr) // a bad flag is named there; exitCode adds the usage line
	fs.Usage = func() {}   // -h is answered by exitCode, on stdout
	run := c.Parse(e, fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !c.AnyPaths && !e.Paths.Resolved() {
		return e.noPaths()
	}
	if c.NoArgs && fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return run(fs.Args())
}

// parseFlags parses args on fs: a bad flag (already named on stderr by the flag package) is a
// usage error; -h is flag.ErrHelp. Commands with subcommands, or flags after arguments, call
// it again on what is left.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err != nil && err != flag.ErrHelp {
		return usageError{}
	}
	return err
}

// parseSub reads a command with subcommands: the subcommand (none is a usage error, missing),
// then its flags; no argument may follow.
func parseSub(fs *flag.FlagSet, args []string, missing string) (string, error) {
	if len(args) == 0 {
		return "", usagef("%s", missing)
	}
	if err := parseFlags(fs, args[1:]); err != nil { // flags after the subcommand
		return "", err
	}
	if fs.NArg() > 0 {
		return "", usagef("unexpected argument %q", fs.Arg(0))
	}
	return args[0], nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// wantsHelp reports whether a hot command's arguments ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// noPaths is the error of a command that needs the config and the state dir when the
// environment gives no absolute path for them: zoneline never guesses one (paths.Resolve).
func (e *Env) noPaths() error {
	for _, p := range e.Paths.Problems {
		fmt.Fprintf(e.Stderr, "zoneline: %s\n", p)
	}
	return errors.New("zoneline: set HOME to your home folder, or ZONELINE_CONFIG and ZONELINE_STATE_DIR to absolute paths")
}

func (e *Env) usage(w io.Writer) {
	fmt.Fprintf(w, "zoneline %s: context zones, warnings and compaction survival for Claude Code\n\nusage: zoneline <command> [flags]\n\n", version())
	for _, c := range commands {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Short)
		if u := e.usageLine(c); u != c.Name {
			fmt.Fprintf(w, "  %-12s zoneline %s\n", "", u)
		}
	}
	fmt.Fprintf(w, "\nRun 'zoneline help <command>' (or 'zoneline <command> -h') for a command's usage and flags.\n")
	fmt.Fprintf(w, "\nconfig: %s\nstate:  %s\nclaude: %s\n", e.Paths.Config, e.Paths.StateDir, e.Paths.ClaudeDir)
	for _, p := range e.Paths.Problems {
		fmt.Fprintf(w, "⚠ %s\n", p)
	}
}

// help is `zoneline help [command]`.
func (e *Env) help(args []string) int {
	if len(args) == 0 {
		e.usage(e.Stdout)
		return exitOK
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(e.Stderr, "zoneline: unknown command %q; run 'zoneline help'\n", args[0])
		return exitUsage
	}
	e.printHelp(e.Stdout, c)
	return exitOK
}

// printHelp prints a command's usage line, its long text and its flags with their defaults.
func (e *Env) printHelp(w io.Writer, c *Command) {
	fs := e.flagSet(c)
	fmt.Fprintf(w, "usage: zoneline %s\n\n", usageLine(c, fs))
	long := c.Long
	if long == "" {
		long = c.Short
	}
	fmt.Fprintf(w, "%s\n", strings.TrimSpace(long))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintf(w, "\nflags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// flagSet returns c's flags, defined on a fresh FlagSet (for help and the synopsis: the run
// step Parse returns is dropped).
func (e *Env) flagSet(c *Command) *flag.FlagSet {
	fs := flag.NewFlagSet("zoneline "+c.Name, flag.ContinueOnError)
	c.Parse(e, fs)
	return fs
}

// usageLine is c's synopsis, generated from its flag set.
func (e *Env) usageLine(c *Command) string { return usageLine(c, e.flagSet(c)) }

// usageLine returns c.UsageLine with "[flags]" replaced by fs's flags that it does not write
// out, in fs's (sorted) order: "[-dry-run] [-bin BIN] …".
func usageLine(c *Command, fs *flag.FlagSet) string {
	named := namedFlags(c.UsageLine)
	var list []string
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(named, f.Name) {
			return
		}
		if arg := flagArg(f); arg != "" {
			list = append(list, "[-"+f.Name+" "+arg+"]")
		} else {
			list = append(list, "[-"+f.Name+"]")
		}
	})
	return strings.Join(strings.Fields(strings.Replace(c.UsageLine, "[flags]", strings.Join(list, " "), 1)), " ")
}

// flagArg names f's argument in a synopsis: the name its usage text gives in backquotes, D for a
// duration, N for a number, the flag's name in capitals for an unnamed string; "" for a bool.
func flagArg(f *flag.Flag) string {
	switch name, _ := flag.UnquoteUsage(f); name {
	case "":
		return ""
	case "duration":
		return "D"
	case "int", "int64", "uint", "uint64", "float":
		return "N"
	case "string", "value":
		return strings.ToUpper(f.Name)
	default:
		return strings.ToUpper(name)
	}
}

// namedFlags returns the flags a synopsis writes out ("-root" in "git-refresh -root DIR").
func namedFlags(usage string) []string {
	var names []string
	for _, w := range strings.Fields(usage) {
		w = strings.TrimLeft(w, "[(")
		if !strings.HasPrefix(w, "-") {
			continue
		}
		names = append(names, strings.TrimRight(strings.TrimLeft(w, "-"), "])|"))
	}
	return names
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

var cmdVersion = &Command{
	Name: "version", UsageLine: "version", Short: "print the version",
	Long:     "Print zoneline's version (also: zoneline --version).",
	Parse:    noFlags(runVersion),
	AnyPaths: true,
	NoArgs:   true,
}

func runVersion(e *Env) error {
	fmt.Fprintf(e.Stdout, "zoneline %s\n", version())
	return nil
}
