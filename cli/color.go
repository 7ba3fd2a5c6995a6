package cli

import "github.com/zoneline/zoneline/internal/termcolor"

// personProfile is the colour profile of a command a person runs (preview, sessions, tune),
// whose stdout may be a terminal, a file or a pipe: colour only on a terminal unless
// FORCE_COLOR asks for it anyway, never with NO_COLOR; then the config's color setting
// decides (termcolor.For). The statusline is not one: its stdout is always Claude Code's pipe,
// and it colours by the config and the environment alone.
func (e *Env) personProfile(setting string) termcolor.Profile {
	if e.Getenv("NO_COLOR") != "" {
		return termcolor.Ascii
	}
	switch f := e.Getenv("FORCE_COLOR"); f {
	case "", "0", "false":
		if !isTerminal(e.Stdout) {
			return termcolor.Ascii
		}
	}
	return termcolor.For(setting, e.Getenv)
}
