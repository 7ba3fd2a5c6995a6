package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/state"
)

// runConfig is `zoneline config init | check | show | path`.
func runConfig(e *Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.Stderr, "usage: zoneline config init [-force] | check | show | path")
		return exitUsage
	}
	switch args[0] {
	case "path":
		fmt.Fprintln(e.Stdout, e.Paths.Config)
		return exitOK
	case "init":
		fs := e.flags("config init", "[-force]")
		force := fs.Bool("force", false, "overwrite an existing config")
		if code, ok := parse(fs, args[1:]); !ok {
			return code
		}
		return e.configInit(*force)
	case "check":
		return e.configCheck()
	case "show":
		cfg, err := config.Load(e.Paths.Config)
		if err != nil {
			fmt.Fprintf(e.Stderr, "%s\nzoneline: showing the defaults instead\n", safetext.Text(err.Error()))
		}
		out, merr := cfg.Show()
		if merr != nil {
			fmt.Fprintf(e.Stderr, "zoneline: %v\n", merr)
			return exitFail
		}
		io.WriteString(e.Stdout, safetext.Text(string(out))) // values come from the file
		if err != nil {
			return exitFail
		}
		return exitOK
	}
	fmt.Fprintf(e.Stderr, "zoneline: unknown config command %q: want init, check, show or path\n", args[0])
	return exitUsage
}

func (e *Env) configInit(force bool) int {
	path := e.Paths.Config
	if _, err := os.Stat(path); err == nil && !force {
		fmt.Fprintf(e.Stderr, "zoneline: %s exists; keep it, or run 'zoneline config init -force' to replace it\n", path)
		return exitFail
	}
	if err := state.WriteFile(path, []byte(config.Template)); err != nil {
		fmt.Fprintf(e.Stderr, "%v\n", err)
		return exitFail
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", path)
	return exitOK
}

func (e *Env) configCheck() int {
	path := e.Paths.Config
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(e.Stdout, "%s: no config file; the defaults are in force ('zoneline config init' writes one)\n", path)
		return exitOK
	}
	_, err := config.Load(path)
	if err == nil {
		fmt.Fprintf(e.Stdout, "%s: ok\n", path)
		return exitOK
	}
	// The messages quote keys and the caret diagram quotes the file's lines: whatever bytes
	// they hold are shown as visible stand-ins (safetext.Text keeps each at its column).
	var es config.Errors
	if errors.As(err, &es) {
		for _, ce := range es {
			fmt.Fprintln(e.Stderr, safetext.Text(ce.Error()))
			if ce.Context != "" {
				fmt.Fprintln(e.Stderr, safetext.Text(ce.Context))
			}
		}
	} else {
		fmt.Fprintln(e.Stderr, safetext.Text(err.Error()))
	}
	return exitFail
}
