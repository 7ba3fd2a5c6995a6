package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/tune"
	"github.com/zoneline/zoneline/zones"
)

// Progress bar on stderr.
const (
	progressDelay = 400 * time.Millisecond // scans shorter than this show no bar
	progressEvery = 100 * time.Millisecond // redraw at most this often
	progressWidth = 30                     // cells of the bar
	maxRegistry   = 5000                   // session registry entries read for model windows
)

// exitNoTranscripts is tune's exit code when it finds nothing to learn from.
const exitNoTranscripts = exitFail

// noTranscripts is tune's one message when no transcript was found in where.
func noTranscripts(where string) string {
	return "zoneline: no transcripts found in " + where + " (Claude Code writes them as projects/**/*.jsonl in its folder): pass transcript files or folders, or set CLAUDE_CONFIG_DIR"
}

// tuneOptions is `zoneline tune`'s command line.
type tuneOptions struct {
	JSON    bool
	SVG     string
	Write   bool
	Lead    int
	Workers int
	Paths   []string
}

var cmdTune = &Command{
	Name: "tune", UsageLine: "tune [flags] [transcript files or folders]",
	Short: "suggest per-model thresholds from your transcripts",
	Long: `Read your transcripts (default: projects/**/*.jsonl in Claude Code's folder) and report per
model: the context per turn, every compaction, how many turns passed between crossing each zone
and the auto-compact, how often the prep threshold would have warned -lead turns ahead, and a
suggested [[model]] block. -write adds the suggested blocks to the config, showing the diff.
Flags may follow the paths. No transcript found is one message and exit 1.`,
	Parse:    parseTune,
	AnyPaths: true,
}

func parseTune(e *Env, fs *flag.FlagSet) func([]string) error {
	var o tuneOptions
	fs.BoolVar(&o.JSON, "json", false, "print the report as JSON")
	fs.StringVar(&o.SVG, "svg", "", "also write the charts as an SVG `file`")
	fs.BoolVar(&o.Write, "write", false, "add or update the suggested [[model]] blocks in the config (shows the diff)")
	fs.IntVar(&o.Lead, "lead", tune.DefaultLead, "a warning is in time when it comes at least `N` responses before an auto-compact")
	fs.IntVar(&o.Workers, "workers", 0, "files read in parallel (0 = one per core)")
	return func(args []string) error {
		// Flags may follow paths: parse again after each path.
		for len(args) > 0 {
			o.Paths = append(o.Paths, args[0])
			if err := parseFlags(fs, args[1:]); err != nil {
				return err
			}
			args = fs.Args()
		}
		if o.Lead < 1 {
			return usagef("-lead %d: want at least 1 response", o.Lead)
		}
		return e.runTune(o)
	}
}

// runTune is `zoneline tune`: thresholds from the user's own transcripts.
func (e *Env) runTune(o tuneOptions) error {
	cfg, err := config.Load(e.Paths.Config)
	if err != nil {
		return fmt.Errorf("%w\nzoneline: fix the config first ('zoneline config check' shows where)", err)
	}
	paths := o.Paths
	if len(paths) == 0 {
		if e.Paths.ClaudeDir == "" {
			return errors.New("zoneline: no Claude Code folder (HOME and CLAUDE_CONFIG_DIR give no absolute path); pass transcript files or folders")
		}
		dir := filepath.Join(e.Paths.ClaudeDir, "projects")
		if _, err := os.Stat(dir); err != nil {
			return errors.New(noTranscripts(dir)) // exitNoTranscripts
		}
		paths = []string{dir}
	}
	bar := e.progressBar()
	rep, err := tune.Run(tune.Options{
		Paths:   paths,
		Config:  cfg,
		Lead:    o.Lead,
		Workers: o.Workers,
		Compact: func(model string, window int64) zones.Compact {
			return zones.AutoCompact(e.pipeline().CompactInput(cfg, window, ""))
		},
		Windows:  e.registryWindows(),
		Progress: bar.update,
	})
	bar.done()
	if err != nil {
		return err
	}
	if rep.Totals.Turns == 0 && rep.Totals.Compactions == 0 {
		// Nothing to report: the same message and exit code whether the folder is missing,
		// empty or holds no transcript; a file given by name that is not one is named instead.
		var folders []string
		for _, p := range paths {
			fi, err := os.Stat(p)
			switch {
			case err == nil && fi.Mode().IsRegular() && len(paths) == 1:
				fmt.Fprintf(e.Stderr, "zoneline: %s is not a Claude Code transcript (no assistant responses with usage in its %d lines)\n", p, rep.Totals.Lines)
			case err == nil && fi.Mode().IsRegular():
				fmt.Fprintf(e.Stderr, "zoneline: %s is not a Claude Code transcript (no assistant responses with usage)\n", p)
			default:
				folders = append(folders, p)
			}
		}
		if len(folders) > 0 {
			return errors.New(noTranscripts(strings.Join(folders, ", "))) // exitNoTranscripts
		}
		return errReported // exitNoTranscripts: each file is named above
	}
	e.readSpeed(rep.Totals.Bytes, rep.Totals.ElapsedMS)
	if o.JSON {
		if err := e.printJSON(rep); err != nil {
			return err
		}
	} else {
		profile := e.personProfile(cfg.Color)
		tune.Render(e.Stdout, rep, tune.ChartOptions{Profile: profile, ASCII: cfg.Glyphs == "ascii"})
	}
	if o.SVG != "" {
		var b strings.Builder
		tune.SVG(&b, rep)
		if err := state.WritePublic(o.SVG, []byte(b.String())); err != nil {
			return err // "zoneline: writing <path>: <reason>"
		}
		fmt.Fprintf(e.Stderr, "zoneline: wrote %s\n", o.SVG)
	}
	if o.Write {
		out := e.Stdout
		if o.JSON {
			out = e.Stderr
		}
		return e.tuneWrite(rep, out)
	}
	return nil
}

// tuneWrite adds or updates the suggested blocks in the config file, after showing the diff.
func (e *Env) tuneWrite(rep *tune.Report, out io.Writer) error {
	sugg, windows := tune.Changed(rep)
	path := e.Paths.Config
	if len(sugg) == 0 {
		fmt.Fprintf(out, "zoneline: %s already holds the suggested thresholds; nothing to write\n", path)
		return nil
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("zoneline: reading %s: %v", path, err)
	}
	updated, err := tune.Edit(old, sugg, windows)
	if err != nil {
		return err
	}
	fmt.Fprint(out, safetext.Text(tune.Diff(path, old, updated, 2)))
	if err := writeUserFile(path, updated); err != nil {
		return err
	}
	fmt.Fprintf(out, "zoneline: wrote %s\n", path)
	return nil
}

// registryWindows returns the window the statusline last saw for each model id, from the
// state dir's session registry.
func (e *Env) registryWindows() map[string]int64 {
	dir := filepath.Join(e.State.Root, state.SessionsDirName)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type seen struct {
		window int64
		at     time.Time
	}
	best := map[string]seen{}
	for i, ent := range ents {
		if i >= maxRegistry {
			break
		}
		if !ent.IsDir() || !state.ValidSessionID(ent.Name()) {
			continue
		}
		s, err := e.State.LoadSession(ent.Name())
		if err != nil || s.ModelID == "" || s.Window <= 0 || s.WindowGuessed {
			continue
		}
		if b, ok := best[s.ModelID]; !ok || s.Updated.After(b.at) {
			best[s.ModelID] = seen{s.Window, s.Updated}
		}
	}
	out := make(map[string]int64, len(best))
	for k, v := range best {
		out[k] = v.window
	}
	return out
}

// progress draws a bar on stderr when stderr is a terminal and the scan takes a moment.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	last  time.Time
	drawn bool
}

func (e *Env) progressBar() *progress {
	if !e.io().StderrTTY {
		return nil
	}
	return &progress{w: e.Stderr, start: time.Now()}
}

// update is tune.Options.Progress; it is nil-safe so a nil *progress draws nothing.
func (p *progress) update(read, total int64) {
	if p == nil || total <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.drawn = now, true
	frac := min(1, float64(read)/float64(total))
	n := int(frac * progressWidth)
	fmt.Fprintf(p.w, "\r\x1b[Kscanning [%s%s] %3.0f%% %s / %s", strings.Repeat("#", n), strings.Repeat(" ", progressWidth-n), frac*100, tune.Bytes(read), tune.Bytes(total))
}

// done clears the bar.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// writeUserFile writes a file the user owns (the config) atomically, through a symlink to its
// target (a dotfiles setup stays linked) and keeping its mode.
func writeUserFile(path string, data []byte) error {
	target, mode := path, os.FileMode(0o600)
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	return state.WriteFileMode(target, data, mode)
}

// readSpeed tells a person at a terminal how much a scan of transcripts (tune, report) read and
// how fast; nothing when stderr is no terminal or the scan took no time.
func (e *Env) readSpeed(bytes, elapsedMS int64) {
	if secs := float64(elapsedMS) / 1000; secs > 0 && e.io().StderrTTY {
		fmt.Fprintf(e.Stderr, "zoneline: read %s in %.1fs (%.0f MB/s)\n", tune.Bytes(bytes), secs, float64(bytes)/1e6/secs)
	}
}
