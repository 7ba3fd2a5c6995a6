package cli

import (
	"errors"
	"flag"
	"fmt"

	"github.com/zoneline/zoneline/internal/safetext"
)

// usageError is a wrong command line: exit 2, after its message (when it has one: a bad flag
// was named by the flag package already) and the command's usage line.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// usagef is a usageError with a message.
func usagef(format string, a ...any) error {
	return usageError{msg: fmt.Sprintf(format, a...)}
}

// errReported: the command said what went wrong itself (a list of problems, a report, a stale
// checkpoint under its banner): exit 1 with nothing more printed.
var errReported = errors.New("zoneline: failed")

// exitCode is the one place an error of a command a person runs becomes an exit code (the
// statusline and the hooks never get here: they always exit 0):
//   - nil: 0
//   - flag.ErrHelp (-h, -help, --help anywhere a flag may be): the command's help on stdout, 0
//   - usageError: its message, the usage line and where the help is, on stderr, 2
//   - errReported: 1, the command printed its own account
//   - any other error: its text (made safe to print: errors quote files, paths and panes), 1
func (e *Env) exitCode(c *Command, err error) int {
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		e.printHelp(e.Stdout, c)
		return exitOK
	case errors.As(err, &ue):
		if ue.msg != "" {
			fmt.Fprintf(e.Stderr, "zoneline %s: %s\n", c.Name, safetext.Line(ue.msg))
		}
		fmt.Fprintf(e.Stderr, "usage: zoneline %s\nRun 'zoneline help %s' for the flags.\n", e.usageLine(c), c.Name)
		return exitUsage
	case errors.Is(err, errReported):
		return exitFail
	}
	fmt.Fprintln(e.Stderr, safetext.Text(err.Error()))
	return exitFail
}
