package cli

import (
	"errors"
	"flag"
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

var cmdConfig = &Command{
	Name: "config", UsageLine: "config init [-force] | check | show | path",
	Short: "the config file: write a commented one, check it, show the effective config, print its path",
	Long: `Work with the config file ($ZONELINE_CONFIG, else $XDG_CONFIG_HOME/zoneline/config.toml):

  init    write the commented default config (refuses to replace one without -force)
  check   every problem in the file, in line order, with where it is; exit 1 when there is any
  show    the config the renderer uses, each value that is not the file's own with its source
  path    print the config file's path`,
	Parse: parseConfig,
}

// configOptions are `zoneline config` flags and its subcommand.
type configOptions struct {
	Sub   string
	Force bool // init: overwrite an existing config
}

func parseConfig(e *Env, fs *flag.FlagSet) func([]string) error {
	var o configOptions
	fs.BoolVar(&o.Force, "force", false, "init: overwrite an existing config")
	return func(args []string) error {
		var err error
		if o.Sub, err = parseSub(fs, args, "name a config command: init, check, show or path"); err != nil {
			return err
		}
		if o.Force && o.Sub != "init" {
			return usagef("-force is for config init")
		}
		return e.runConfig(o)
	}
}

// runConfig is `zoneline config init | check | show | path`.
func (e *Env) runConfig(o configOptions) error {
	switch o.Sub {
	case "path":
		fmt.Fprintln(e.Stdout, e.Paths.Config)
		return nil
	case "init":
		return e.configInit(o.Force)
	case "check":
		return e.configCheck()
	case "show":
		return e.configShow()
	}
	return usagef("unknown config command %q: want init, check, show or path", o.Sub)
}

func (e *Env) configInit(force bool) error {
	path := e.Paths.Config
	if _, err := os.Stat(path); err == nil && !force {
		return fmt.Errorf("zoneline: %s exists; keep it, or run 'zoneline config init -force' to replace it", path)
	}
	if err := state.WriteFile(path, []byte(config.Template)); err != nil {
		return err
	}
	if err := state.TightenConfig(path); err != nil { // an existing 0755 zoneline folder
		return err
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", path)
	return nil
}

// configCheck is `zoneline config check`: every problem, in line order, with its caret diagram;
// exit 1 when there is any.
func (e *Env) configCheck() error {
	path := e.Paths.Config
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(e.Stdout, "%s: no config file; the defaults are in force ('zoneline config init' writes one)\n", path)
		return nil
	}
	_, err := config.Load(path)
	if err == nil {
		fmt.Fprintf(e.Stdout, "%s: ok\n", path)
		return nil
	}
	e.printConfigProblems(err)
	return errReported
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
func (e *Env) configShow() error {
	cfg, set, err := config.LoadSources(e.Paths.Config)
	if err != nil {
		e.printConfigProblems(err)
	}
	io.WriteString(e.Stdout, safetext.Text(string(cfg.ShowEffective(set, e.effective(cfg))))) // values come from the file
	if err != nil {
		return errReported
	}
	return nil
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
	c := zones.AutoCompact(e.pipeline().CompactInput(cfg, window, ""))
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
