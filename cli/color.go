package cli

import (
	"io"
	"os"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// IO is what a command a person runs knows of where its output goes, decided once for the
// process (as gh's iostreams; built on the first ask, so a render never pays the two fstats):
// whether stdout and stderr are terminals, and whether stdout may carry colour at all. Nothing
// else in cli looks at a terminal.
type IO struct {
	StdoutTTY bool
	StderrTTY bool
	// ColorOut: colour may reach stdout: it is a terminal, or FORCE_COLOR asks for colour
	// anyway; never with NO_COLOR. The config's color setting then decides (personProfile).
	ColorOut bool
}

// newIO looks at stdout and stderr once.
func newIO(stdout, stderr io.Writer, getenv func(string) string) *IO {
	o := &IO{StdoutTTY: isTerminal(stdout), StderrTTY: isTerminal(stderr)}
	switch {
	case getenv("NO_COLOR") != "":
	case o.StdoutTTY:
		o.ColorOut = true
	default:
		switch getenv("FORCE_COLOR") {
		case "", "0", "false":
		default:
			o.ColorOut = true
		}
	}
	return o
}

// io returns the Env's IO, deciding it on the first call.
func (e *Env) io() *IO {
	if e.IO == nil {
		e.IO = newIO(e.Stdout, e.Stderr, e.Getenv)
	}
	return e.IO
}

// personProfile is the colour profile of a command a person runs (preview, sessions, tune),
// whose stdout may be a terminal, a file or a pipe: no colour unless IO.ColorOut, then the
// config's color setting decides (termcolor.For). The statusline is not one: its stdout is
// always Claude Code's pipe, and it colours by the config and the environment alone.
func (e *Env) personProfile(setting string) termcolor.Profile {
	if !e.io().ColorOut {
		return termcolor.Ascii
	}
	return termcolor.For(setting, e.Getenv)
}

// isTerminal reports whether w is a terminal (a character device). Only newIO asks.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
