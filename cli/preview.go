package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/pipeline"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/termcolor"
)

// sample is a built-in payload for `zoneline preview`.
type sample struct {
	label   string
	modelID string
	name    string
	window  int64
	tokens  int64
	extra   bool // every documented field, every segment (preview_more.go)
}

// samples cover each zone on a 200k and a 1M model, and the state before the first reply.
var samples = []sample{
	{"200k before the first reply", "claude-sonnet-4-5-20250929", "Sonnet 4.5", 200_000, -1, false},
	{"200k smart", "claude-sonnet-4-5-20250929", "Sonnet 4.5", 200_000, 42_000, false},
	{"200k warn", "claude-sonnet-4-5-20250929", "Sonnet 4.5", 200_000, 96_500, false},
	{"200k dumb", "claude-sonnet-4-5-20250929", "Sonnet 4.5", 200_000, 142_000, false},
	{"1M smart", "claude-opus-5-5", "Opus 5.5", 1_000_000, 90_000, false},
	{"1M warn", "claude-opus-5-5", "Opus 5.5", 1_000_000, 180_000, false},
	{"1M dumb", "claude-opus-5-5", "Opus 5.5", 1_000_000, 310_000, false},
	extraSample,
}

// json returns the sample as a statusline payload, shaped as Claude Code 2.1.332 sends it.
func (s sample) json(dir string) []byte {
	usage := "null"
	if s.tokens >= 0 {
		usage = fmt.Sprintf(`{"input_tokens":500,"output_tokens":120,"cache_creation_input_tokens":1500,"cache_read_input_tokens":%d}`, s.tokens-2000)
	}
	return []byte(fmt.Sprintf(`{"cwd":%q,"model":{"id":%q,"display_name":%q},"workspace":{"current_dir":%q,"project_dir":%q},"version":"2.1.332","context_window":{"context_window_size":%d,"current_usage":%s}}`,
		dir, s.modelID, s.name, dir, dir, s.window, usage))
}

var cmdPreview = &Command{
	Name: "preview", UsageLine: "preview [flags]",
	Short: "render sample status lines for each zone with your config",
	Long: `Render sample status lines with your config: each zone on a 200k and a 1M model, and the
line before the first reply. Colour only where it shows (a terminal, or FORCE_COLOR); the
picture written by -svg always has it. Keeps no state and writes no log.`,
	Parse:    parsePreview,
	AnyPaths: true,
}

// previewOptions are `zoneline preview` flags.
type previewOptions struct {
	Width int
	SVG   string
}

func parsePreview(e *Env, fs *flag.FlagSet) func([]string) error {
	var o previewOptions
	fs.IntVar(&o.Width, "width", 0, "fit lines to N columns (0: no fitting)")
	fs.StringVar(&o.SVG, "svg", "", "also write the preview as an SVG picture of a dark terminal to FILE")
	return func(args []string) error {
		switch {
		case len(args) > 0:
			return usagef("preview takes no arguments, got %q", args)
		case o.Width < 0:
			return usagef("preview -width %d: want a number of columns, or 0 for no fitting", o.Width)
		}
		return e.runPreview(o)
	}
}

// runPreview renders the samples with the user's config: the first command a newcomer runs.
func (e *Env) runPreview(o previewOptions) error {
	cfg, cfgErr := config.Load(e.Paths.Config)
	if cfgErr != nil {
		fmt.Fprintf(e.Stderr, "zoneline: %s (rendering on defaults)\n", safetext.Field(cfgErr.Error(), 0))
	}
	// The lines printed are coloured only where colour shows (personProfile); the picture
	// (-svg) always is.
	shown := cfg
	if e.personProfile(cfg.Color) == termcolor.Ascii {
		c := *cfg
		c.Color = "none"
		shown = &c
	}
	pe := *e
	pe.State.Root = "" // preview keeps no state and writes no log
	pe.Getenv = func(k string) string {
		if k == "COLUMNS" {
			if o.Width > 0 {
				return fmt.Sprint(o.Width + pipeline.Reserve(cfg))
			}
			return ""
		}
		return e.Getenv(k)
	}
	for _, s := range samples {
		r := s.render(&pe, shown, cfgErr)
		fmt.Fprintf(e.Stdout, "%-28s %s\n", s.label, strings.ReplaceAll(r.Line, "\n", "\n"+strings.Repeat(" ", 29)))
	}
	fmt.Fprintf(e.Stdout, "\nconfig: %s\n", e.Paths.Config)
	if o.SVG != "" {
		return e.writePreviewSVG(o.SVG, pe, cfg, cfgErr, o.Width)
	}
	return nil
}
