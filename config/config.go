// Package config loads zoneline's TOML config: one schema (schema.go) decodes and validates every
// key in one linear pass, keeps every valid value and reports every problem with file:line:col in
// the user's words (the key, the value wanted, the default kept, a close known key); it writes the
// config back as TOML (`config show`, the cache) and holds the built-in defaults and the commented
// template that `zoneline config init` writes.
package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/statusline"
	"github.com/zoneline/zoneline/zones"
)

// Config is the whole config file. Every field has a default (Default).
type Config struct {
	Color          string `toml:"color"`            // auto | truecolor | 256 | 16 | none
	Glyphs         string `toml:"glyphs"`           // unicode | ascii | nerd
	EastAsianWidth bool   `toml:"east_asian_width"` // ambiguous-width runes are wide
	Window         int64  `toml:"window"`           // window of a model that reports none; 0 = 200k

	Statusline  Statusline  `toml:"statusline"`
	AutoCompact AutoCompact `toml:"autocompact"`
	Models      []Model     `toml:"model"`
	Warning     Warning     `toml:"warning"`
	Notify      Notify      `toml:"notify"`
	Checkpoint  Checkpoint  `toml:"checkpoint"`
	PreCompact  PreCompact  `toml:"precompact"`
	State       State       `toml:"state"`
	Flow        Flow        `toml:"flow"`
	Watch       Watch       `toml:"watch"`
	Resume      Resume      `toml:"resume"`
	Mod         Mod         `toml:"mod"`
}

// Resume configures the check, after a restore, that the agent resumed the checkpoint's Next.
type Resume struct {
	Check bool `toml:"check"` // compare the first tool calls after a restore with Next; notify when off plan
}

// Statusline shapes the rendered line.
type Statusline struct {
	Lines     [][]string `toml:"lines"`     // segment names per output line
	Separator string     `toml:"separator"` // "" = the glyph set's default
	BarWidth  int        `toml:"bar_width"` // cells in the gauge
	Indent    int        `toml:"indent"`    // columns Claude Code indents the line by
	// Wrap is another status line command (the user's own: ccstatusline, claude-powerline, a
	// script) run with the same stdin and environment and shown with zoneline's segments.
	Wrap         string `toml:"wrap"`
	WrapPosition string `toml:"wrap_position"` // where zoneline's part goes: before | after | line
	WrapTimeout  string `toml:"wrap_timeout"`  // the wrapped command's deadline (a Go duration)
}

// DefaultWrapTimeout is the wrapped status line command's deadline when wrap_timeout is unset.
// The command runs in the background (zoneline wrap-refresh): the line never waits for it, so
// the deadline only bounds a hung command (a node program such as ccstatusline takes 2-3 s).
const DefaultWrapTimeout = 10 * time.Second

// MaxWrapTimeout is the longest wrap_timeout honoured (config check reports a longer one).
const MaxWrapTimeout = 30 * time.Second

// AutoCompact overrides the computed auto-compact point.
type AutoCompact struct {
	Point     int64 `toml:"point"`      // tokens; 0 = computed as Claude Code does
	Enabled   *bool `toml:"enabled"`    // false = treat auto-compact as off; unset = detect
	MaxOutput int64 `toml:"max_output"` // the model's max output tokens, if below 20k
}

// Model is a per-model override, matched by glob on model.id, else by window class.
type Model struct {
	Match  string `toml:"match"`  // glob on model.id, e.g. "claude-opus-*"
	Window string `toml:"window"` // "200k" or "1m", used when match is empty
	Warn   int64  `toml:"warn"`   // tokens at which the warn zone starts
	Dumb   int64  `toml:"dumb"`   // tokens at which the dumb zone starts
	Prep   any    `toml:"prep"`   // prep threshold: a zone name, tokens, or "70%"
}

// Warning configures the marker and the nudge.
type Warning struct {
	Prep             any      `toml:"prep"`              // default prep threshold: "dumb", tokens or "70%"
	ImminentDistance int64    `toml:"imminent_distance"` // the "imminent" tier fires this close to auto-compact
	Nudge            bool     `toml:"nudge"`             // UserPromptSubmit injects the nudge
	NudgeText        string   `toml:"nudge_text"`        // "" = built-in text; {tokens} {zone} {to_compact} {window} {model} {next}
	Tiers            []string `toml:"tiers"`             // tiers that write a marker: warn, dumb, imminent
}

// Notify configures desktop notifications.
type Notify struct {
	Enabled bool     `toml:"enabled"`
	Tiers   []string `toml:"tiers"`    // warn, dumb, imminent
	Urgency string   `toml:"urgency"`  // low | normal | critical
	AppName string   `toml:"app_name"` // shown by the notification server
}

// Checkpoint configures /compact-prep checkpoints and their restore.
type Checkpoint struct {
	Budget       int `toml:"budget"`        // characters restored after compaction
	StaleMinutes int `toml:"stale_minutes"` // older than this before the compaction: stale
}

// PreCompact configures the PreCompact hook.
type PreCompact struct {
	HoldOnce  bool `toml:"hold_once"` // block one auto compaction when no fresh checkpoint exists
	Snapshots int  `toml:"snapshots"` // snapshots kept
	// Instructions: PreCompact prints instructions for the summariser, built from the session's
	// records (Claude Code appends a PreCompact hook's stdout to the summarisation request).
	Instructions bool `toml:"instructions"`
	// InstructionsExtra is the user's own standing instructions, appended to them.
	InstructionsExtra string `toml:"instructions_extra"`
}

// State configures the state directory.
type State struct {
	GCDays int `toml:"gc_days"` // per-session state older than this is removed
}

// Flow configures `zoneline compact-flow`.
type Flow struct {
	CompactInstructions string       `toml:"compact_instructions"` // the user's own words after /compact ("": none)
	Timeouts            FlowTimeouts `toml:"timeouts"`
}

// FlowTimeouts bound each wait of compact-flow (Go durations: "10m", "90s").
type FlowTimeouts struct {
	Prep        string `toml:"prep"`        // until the checkpoint is written and verified
	Compact     string `toml:"compact"`     // until the hooks record the compaction
	Postcompact string `toml:"postcompact"` // until the /postcompact report is done
}

// Watch configures `zoneline watch`.
type Watch struct {
	Interval string   `toml:"interval"` // how often the registry is read (a Go duration)
	Auto     bool     `toml:"auto"`     // run compact-flow instead of notifying
	Projects []string `toml:"projects"` // project dirs (or globs) auto may compact
}

// Mod configures the Claude Code mod (mod/, `zoneline install -mod`).
type Mod struct {
	// CompactAt is when the mod compacts an idle session by itself: "off" (the default), "prep"
	// (the session's prep tier) or a token count (150000, "150k").
	CompactAt any `toml:"compact_at"`
}

// MinCompactAt is the smallest token count [mod] compact_at accepts: the margin the prep rules
// keep before auto-compact (zones.PrepBeforeCompact). Below it a compaction would leave about as
// much context as it found, and the mod would compact on every turn.
const MinCompactAt = zones.PrepBeforeCompact

// ModCompactAt reads [mod] compact_at: off (ok and tokens 0, prep false), "prep" (prep true) or
// a token count of at least MinCompactAt. err says why a value cannot be read.
func ModCompactAt(v any) (tokens int64, prep bool, err error) {
	var shown string // the count as written, for the floor's message
	switch x := v.(type) {
	case nil:
		return 0, false, nil
	case int64:
		tokens, shown = x, strconv.FormatInt(x, 10)
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "", "off", "false", "none":
			return 0, false, nil
		case "prep":
			return 0, true, nil
		}
		if tokens, err = zones.ParseTokens(x); err != nil {
			tokens = 0
		}
		shown = quote(x)
	}
	switch {
	case tokens <= 0:
		return 0, false, errors.New("want " + wantCompactAt)
	case tokens < MinCompactAt:
		return 0, false, errors.New(shown + " is below the floor of 20k; want " + wantCompactAt)
	}
	return tokens, false, nil
}

// Default returns the built-in config.
func Default() *Config {
	return &Config{
		Color:  "auto",
		Glyphs: "unicode",
		Statusline: Statusline{
			Lines:     [][]string{statusline.DefaultLine()},
			Separator: "",
			BarWidth:  10,
			Indent:    2,

			WrapPosition: "before",
			WrapTimeout:  "10s",
		},
		Warning: Warning{
			Prep:             "dumb",
			ImminentDistance: zones.DefaultImminentGap,
			Nudge:            true,
			Tiers:            []string{"dumb", "imminent"},
		},
		Notify: Notify{
			Enabled: true,
			Tiers:   []string{"warn", "dumb", "imminent"},
			Urgency: "normal",
			AppName: "zoneline",
		},
		Checkpoint: Checkpoint{Budget: 6000, StaleMinutes: 30},
		PreCompact: PreCompact{Snapshots: 40, Instructions: true},
		State:      State{GCDays: 14},
		Flow: Flow{
			Timeouts: FlowTimeouts{Prep: "10m", Compact: "5m", Postcompact: "10m"},
		},
		Watch:  Watch{Interval: "5s", Projects: []string{}},
		Resume: Resume{Check: true},
		Mod:    Mod{CompactAt: "off"},
	}
}

// Tiers are the warning tiers.
var Tiers = []string{"warn", "dumb", "imminent"}

// Error is a config problem with its place in the file.
type Error struct {
	File    string
	Line    int // 1-based; 0 when unknown
	Col     int // 1-based; 0 when unknown
	Msg     string
	Context string // multi-line caret diagram, when known
	more    int    // on the last Error of a shortened list: how many problems it stands for
}

// Error returns "file:line:col: msg".
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
	case e.Line > 0:
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
	}
	return e.File + ": " + e.Msg
}

// Short returns the error with the file's base name, for the statusline's ⚠ segment.
func (e *Error) Short() string {
	c := *e
	c.File = filepath.Base(e.File)
	return c.Error()
}

// Errors is every problem found in one file, in line order. A valid key is never lost to
// another key's problem: the config that comes with Errors holds every value that was valid.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Count returns how many problems es stands for (a shortened list ends in one that counts
// the rest).
func (es Errors) Count() int {
	n := len(es)
	if n > 0 && es[n-1].more > 0 {
		n += es[n-1].more - 1
	}
	return n
}

// Summary returns the first problem, short, and how many more there are: one line for the
// statusline's ⚠ segment and for doctor.
func (es Errors) Summary() string {
	if len(es) == 0 {
		return ""
	}
	s := es[0].Short()
	if n := es.Count(); n > 1 {
		s += " (+" + strconv.Itoa(n-1) + " more)"
	}
	return s
}

// shorten keeps the first n problems and one that stands for the rest.
func (es Errors) shorten(n int) Errors {
	if len(es) <= n {
		return es
	}
	rest := es.Count() - n
	out := append(Errors(nil), es[:n]...)
	return append(out, &Error{File: es[0].File, Msg: "and " + strconv.Itoa(rest) + " more problems ('zoneline config check' lists them all)", more: rest})
}

// MaxSize is the largest config file read.
const MaxSize = 1 << 20

// Load reads the config at path. A missing file is not an error: it returns the defaults. On
// problems it returns every valid value of the file (the defaults for the rest) and an Errors
// value naming each problem's position, in line order, with its caret diagram, so a broken
// config degrades the statusline but never blanks it.
func Load(path string) (*Config, error) {
	c, _, err := LoadSources(path)
	return c, err
}

// LoadSources is Load that also returns the keys the file set ("model" for the [[model]] blocks),
// for `config show`.
func LoadSources(path string) (*Config, map[string]bool, error) {
	if !filepath.IsAbs(path) {
		return Default(), nil, notAbsolute(path)
	}
	data, err := readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil, nil
	}
	if err != nil {
		return Default(), nil, Errors{{File: path, Msg: err.Error()}}
	}
	c, set, es := parse(path, data, true)
	return c, set, errOrNil(es)
}

// Parse decodes and validates a config file's contents; name is used in errors. On problems it
// returns the valid part of the file over the defaults, and Errors.
func Parse(name string, data []byte) (*Config, error) {
	c, _, es := parse(name, data, true)
	return c, errOrNil(es)
}

func parse(name string, data []byte, context bool) (*Config, map[string]bool, Errors) {
	if len(data) > MaxSize {
		return Default(), nil, Errors{{File: name, Msg: "larger than 1 MiB; the defaults are in use"}}
	}
	c, probs, set := decode(data)
	return c, set, finish(name, data, probs, context)
}

// PrepSpec normalises a prep threshold from the config (a string or an integer) into the
// string form zones.Prep reads, and checks it.
func PrepSpec(v any) (string, error) {
	var s string
	switch p := v.(type) {
	case nil:
		return "", nil
	case string:
		s = p
	case int64:
		s = strconv.FormatInt(p, 10)
	case float64:
		s = strconv.FormatFloat(p, 'f', -1, 64)
	default:
		return "", errors.New("want " + wantPrep)
	}
	if s == "" {
		return "", nil
	}
	if _, ok := zones.Prep(s, zones.Thresholds{Warn: 1, Dumb: 2}, 200_000, zones.Compact{}); !ok {
		return "", errors.New("prep = " + quote(s) + ": want " + wantPrep)
	}
	return s, nil
}

// Rules returns the per-model overrides in the form zones reads.
func (c *Config) Rules() []zones.Rule {
	rules := make([]zones.Rule, 0, len(c.Models))
	for _, m := range c.Models {
		prep, _ := PrepSpec(m.Prep)
		rules = append(rules, zones.Rule{Match: m.Match, Window: m.Window, Warn: m.Warn, Dumb: m.Dumb, Prep: prep})
	}
	return rules
}

// Prep returns the prep spec for a rule: the rule's own, else the [warning] default.
func (c *Config) Prep(r zones.Rule) string {
	if r.Prep != "" {
		return r.Prep
	}
	s, _ := PrepSpec(c.Warning.Prep)
	return s
}

// notAbsolute is Load's answer for a path that is not absolute: nil for "" (no config file:
// the defaults, as paths.Resolve reports why), else an error. A relative path is never read:
// under Claude Code it would be a file of whatever project the process runs in.
func notAbsolute(path string) error {
	if path == "" {
		return nil
	}
	return Errors{{File: path, Msg: "not an absolute path: not read (the defaults are in force)"}}
}
