package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
	"github.com/zoneline/zoneline/zones"
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
		return e.configShow()
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
	if err := state.TightenConfig(path); err != nil { // an existing 0755 zoneline folder
		fmt.Fprintf(e.Stderr, "%v\n", err)
		return exitFail
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", path)
	return exitOK
}

// configCheck is `zoneline config check`: every problem, in line order, with its caret diagram;
// exit 1 when there is any.
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
	e.printConfigProblems(err)
	return exitFail
}

// printConfigProblems writes a config's problems to stderr, each with its caret diagram, and a
// last line that says what happens meanwhile. Every word config check and show print about a
// broken file goes through here (the file's own bytes are in the diagrams).
func (e *Env) printConfigProblems(err error) {
	var es config.Errors
	if !errors.As(err, &es) {
		fmt.Fprintln(e.Stderr, safetext.Text(err.Error()))
		return
	}
	// The messages quote keys and the caret diagram quotes the file's lines: whatever bytes
	// they hold are shown as visible stand-ins (safetext.Text keeps each at its column).
	for _, ce := range es {
		fmt.Fprintln(e.Stderr, safetext.Text(ce.Error()))
		if ce.Context != "" {
			fmt.Fprintln(e.Stderr, safetext.Text(ce.Context))
		}
	}
	n := es.Count()
	word := "problems"
	if n == 1 {
		word = "problem"
	}
	fmt.Fprintf(e.Stderr, "%d %s; every other key is in force (the statusline shows ⚠ until it is fixed)\n", n, word)
}

// configShow is `zoneline config show`: the config the renderer uses, each value that is not
// the file's own with where it came from. A broken file's problems go to stderr and exit 1.
func (e *Env) configShow() int {
	cfg, set, err := config.LoadSources(e.Paths.Config)
	if err != nil {
		e.printConfigProblems(err)
	}
	io.WriteString(e.Stdout, safetext.Text(string(cfg.ShowEffective(set, e.effective(cfg))))) // values come from the file
	if err != nil {
		return exitFail
	}
	return exitOK
}

// effective returns the values the renderer uses in place of the config's "use the default"
// settings, for a model that reports no window and outside any project.
func (e *Env) effective(cfg *config.Config) map[string]config.Effective {
	eff := map[string]config.Effective{}
	if cfg.Color == "auto" {
		eff["color"] = config.Effective{Value: `"auto"`, From: "auto: " + termcolor.For("auto", e.Getenv).String() + " from NO_COLOR, FORCE_COLOR, COLORTERM, TERM"}
	}
	if cfg.Statusline.Separator == "" {
		eff["statusline.separator"] = config.Effective{Value: strconv.Quote(statusline.DefaultSeparator(cfg.Glyphs)), From: "the " + cfg.Glyphs + " glyph set's"}
	}
	window := zones.Window(0, "", cfg.Window)
	if cfg.Window == 0 {
		eff["window"] = config.Effective{Value: strconv.FormatInt(window, 10), From: "default, for a model that reports no window (a model's own window wins)"}
	}
	c := zones.AutoCompact(e.compactInput(cfg, window, ""))
	if cfg.AutoCompact.Point == 0 || cfg.AutoCompact.Enabled == nil {
		from := "computed for a " + zones.WindowClass(window) + " window (" + c.Source + ")"
		if !c.Enabled {
			from = "auto-compact off (" + c.Source + ")"
		}
		if cfg.AutoCompact.Point == 0 {
			eff["autocompact.point"] = config.Effective{Value: strconv.FormatInt(c.Point, 10), From: from}
		}
		if cfg.AutoCompact.Enabled == nil {
			eff["autocompact.enabled"] = config.Effective{Value: strconv.FormatBool(c.Enabled), From: "detected: " + c.Source}
		}
	}
	if cfg.AutoCompact.MaxOutput == 0 {
		eff["autocompact.max_output"] = config.Effective{Value: strconv.Itoa(zones.MaxOutputReserve), From: "default: Claude Code's output reserve"}
	}
	return eff
}
