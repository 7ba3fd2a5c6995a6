// Package config loads zoneline's TOML config: strict decoding (an unknown or misspelt key is an
// error with file:line:col), validation of every value, built-in defaults, and the commented
// template that `zoneline config init` writes.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

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
}

// Statusline shapes the rendered line.
type Statusline struct {
	Lines     [][]string `toml:"lines"`     // segment names per output line
	Separator string     `toml:"separator"` // "" = the glyph set's default
	BarWidth  int        `toml:"bar_width"` // cells in the gauge
	Indent    int        `toml:"indent"`    // columns Claude Code indents the line by
}

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
	NudgeText        string   `toml:"nudge_text"`        // "" = built-in text; {tokens} {zone} {to_compact} {window} {model}
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
}

// State configures the state directory.
type State struct {
	GCDays int `toml:"gc_days"` // per-session state older than this is removed
}

// Flow configures `zoneline compact-flow`.
type Flow struct {
	CompactInstructions string       `toml:"compact_instructions"` // sent after /compact
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

// Default returns the built-in config.
func Default() *Config {
	return &Config{
		Color:  "auto",
		Glyphs: "unicode",
		Statusline: Statusline{
			Lines:     [][]string{slices.Clone(DefaultSegments)},
			Separator: "",
			BarWidth:  10,
			Indent:    2,
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
		PreCompact: PreCompact{Snapshots: 40},
		State:      State{GCDays: 14},
		Flow: Flow{
			CompactInstructions: DefaultCompactInstructions,
			Timeouts:            FlowTimeouts{Prep: "10m", Compact: "5m", Postcompact: "10m"},
		},
		Watch: Watch{Interval: "5s", Projects: []string{}},
	}
}

// DefaultCompactInstructions is the preserve-instructions text compact-flow sends with /compact.
const DefaultCompactInstructions = "Preserve verbatim: the zoneline checkpoint (goal, decisions, rules, external state, next action); exact ids, paths and commands."

// DefaultSegments is the default line's segments, in order.
var DefaultSegments = []string{"zone", "tokens", "bar", "percent", "compact", "nudge", "model", "dir", "branch", "compactions", "problems"}

// Segments is every segment name the statusline knows; validation rejects others.
var Segments = DefaultSegments

// Tiers are the warning tiers.
var Tiers = []string{"warn", "dumb", "imminent"}

// Error is a config problem with its place in the file.
type Error struct {
	File    string
	Line    int // 1-based; 0 when unknown
	Col     int // 1-based; 0 when unknown
	Msg     string
	Context string // multi-line caret diagram, when known
}

// Error returns "file:line:col: msg".
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Short returns the error with the file's base name, for the statusline's ⚠ segment.
func (e *Error) Short() string {
	c := *e
	c.File = filepath.Base(e.File)
	return c.Error()
}

// Errors is every problem found in one file.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// MaxSize is the largest config file read.
const MaxSize = 1 << 20

// Load reads the config at path. A missing file is not an error: it returns the defaults. On any
// problem it returns the defaults too, with an Errors value naming each problem's position, so a
// broken config degrades the statusline but never blanks it.
func Load(path string) (*Config, error) {
	if !filepath.IsAbs(path) {
		return Default(), notAbsolute(path)
	}
	data, err := readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return Default(), Errors{{File: path, Msg: err.Error()}}
	}
	return Parse(path, data)
}

// Parse decodes and validates a config file's contents; name is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	if len(data) > MaxSize {
		return Default(), Errors{{File: name, Msg: "larger than 1 MiB"}}
	}
	c := Default()
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return Default(), Errors(decodeErrors(name, data, err))
	}
	if errs := c.validate(name, data); len(errs) > 0 {
		return Default(), errs
	}
	return c, nil
}

func decodeErrors(name string, data []byte, err error) []*Error {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		out := make([]*Error, 0, len(sm.Errors))
		for i := range sm.Errors {
			de := &sm.Errors[i]
			row, col := de.Position()
			out = append(out, &Error{File: name, Line: row, Col: col,
				Msg: fmt.Sprintf("unknown key '%s'", strings.Join(de.Key(), ".")), Context: de.String()})
		}
		return out
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		msg := de.Error()
		if k := de.Key(); len(k) > 0 {
			msg = fmt.Sprintf("%s (key '%s')", msg, strings.Join(k, "."))
		}
		return []*Error{{File: name, Line: row, Col: col, Msg: msg, Context: de.String()}}
	}
	return []*Error{{File: name, Msg: strings.TrimPrefix(err.Error(), "toml: ")}}
}

// validate checks values decoding cannot: enums, ranges, segment names, globs, prep specs.
func (c *Config) validate(name string, data []byte) Errors {
	var errs Errors
	bad := func(key, format string, args ...any) {
		line := locate(data, key)
		errs = append(errs, &Error{File: name, Line: line, Col: col(line), Msg: fmt.Sprintf(format, args...)})
	}
	oneOf := func(key, v string, allowed ...string) {
		if !slices.Contains(allowed, v) {
			bad(key, "%s = %q: want one of %s", key, v, strings.Join(allowed, ", "))
		}
	}
	oneOf("color", c.Color, "auto", "truecolor", "256", "16", "none")
	oneOf("glyphs", c.Glyphs, "unicode", "ascii", "nerd")
	oneOf("urgency", c.Notify.Urgency, "low", "normal", "critical")
	if c.Window < 0 {
		bad("window", "window = %d: must be positive", c.Window)
	}
	if len(c.Statusline.Lines) == 0 {
		bad("lines", "lines: at least one line of segments")
	}
	for i, line := range c.Statusline.Lines {
		if len(line) == 0 {
			bad("lines", "lines: line %d has no segments", i+1)
		}
		for _, s := range line {
			if !slices.Contains(Segments, s) {
				bad("lines", "unknown segment %q: want one of %s", s, strings.Join(Segments, ", "))
			}
		}
	}
	if c.Statusline.BarWidth < 1 || c.Statusline.BarWidth > 100 {
		bad("bar_width", "bar_width = %d: want 1 to 100", c.Statusline.BarWidth)
	}
	if c.Statusline.Indent < 0 || c.Statusline.Indent > 20 {
		bad("indent", "indent = %d: want 0 to 20", c.Statusline.Indent)
	}
	if c.AutoCompact.Point < 0 || c.AutoCompact.MaxOutput < 0 {
		bad("point", "autocompact values must not be negative")
	}
	if _, err := PrepSpec(c.Warning.Prep); err != nil {
		bad("prep", "%v", err)
	}
	if c.Warning.ImminentDistance < 0 {
		bad("imminent_distance", "imminent_distance = %d: must not be negative", c.Warning.ImminentDistance)
	}
	for _, t := range c.Warning.Tiers {
		if !slices.Contains(Tiers, t) {
			bad("tiers", "unknown tier %q: want %s", t, strings.Join(Tiers, ", "))
		}
	}
	for _, t := range c.Notify.Tiers {
		if !slices.Contains(Tiers, t) {
			bad("tiers", "unknown tier %q: want %s", t, strings.Join(Tiers, ", "))
		}
	}
	for i, m := range c.Models {
		key := "match"
		if m.Match == "" {
			key = "window"
		}
		switch {
		case m.Match == "" && m.Window == "":
			bad("[[model]]", "[[model]] #%d: needs match (a glob on model.id) or window (\"200k\" or \"1m\")", i+1)
		case m.Match != "":
			if _, err := filepath.Match(m.Match, ""); err != nil {
				bad(key, "[[model]] #%d: match %q is not a valid glob", i+1, m.Match)
			}
		case m.Window != "200k" && m.Window != "1m":
			bad(key, "[[model]] #%d: window %q: want \"200k\" or \"1m\"", i+1, m.Window)
		}
		if m.Warn < 0 || m.Dumb < 0 || (m.Warn > 0 && m.Dumb > 0 && m.Warn > m.Dumb) {
			bad("warn", "[[model]] #%d: want 0 <= warn <= dumb (warn %d, dumb %d)", i+1, m.Warn, m.Dumb)
		}
		if _, err := PrepSpec(m.Prep); err != nil {
			bad("prep", "[[model]] #%d: %v", i+1, err)
		}
	}
	if c.Checkpoint.Budget < 500 || c.Checkpoint.Budget > 9000 {
		bad("budget", "budget = %d: want 500 to 9000 characters (Claude Code previews context over 10,000)", c.Checkpoint.Budget)
	}
	if c.Checkpoint.StaleMinutes < 1 {
		bad("stale_minutes", "stale_minutes = %d: want at least 1", c.Checkpoint.StaleMinutes)
	}
	if c.PreCompact.Snapshots < 1 || c.PreCompact.Snapshots > 1000 {
		bad("snapshots", "snapshots = %d: want 1 to 1000", c.PreCompact.Snapshots)
	}
	if c.State.GCDays < 1 {
		bad("gc_days", "gc_days = %d: want at least 1", c.State.GCDays)
	}
	for _, d := range []struct{ key, v string }{
		{"prep", c.Flow.Timeouts.Prep}, {"compact", c.Flow.Timeouts.Compact},
		{"postcompact", c.Flow.Timeouts.Postcompact}, {"interval", c.Watch.Interval},
	} {
		if v, err := time.ParseDuration(d.v); err != nil || v <= 0 {
			bad(d.key, "%s = %q: want a positive duration such as \"90s\" or \"10m\"", d.key, d.v)
		}
	}
	for _, p := range c.Watch.Projects {
		if _, err := filepath.Match(p, ""); err != nil || p == "" {
			bad("projects", "projects: %q is not a valid path or glob", p)
		}
	}
	return errs
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
		return "", fmt.Errorf("prep = %v: want a zone name, a token count or a percent such as \"70%%\"", v)
	}
	if s == "" {
		return "", nil
	}
	if _, ok := zones.Prep(s, zones.Thresholds{Warn: 1, Dumb: 2}, 200_000, zones.Compact{}); !ok {
		return "", fmt.Errorf("prep = %q: want \"warn\", \"dumb\", a token count such as 150000 or \"150k\", or a percent such as \"70%%\"", s)
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

// locate returns the 1-based line of the first "key =" (or the table header) in data, or 0.
func locate(data []byte, key string) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte(key)) {
			rest := bytes.TrimSpace(t[len(key):])
			if strings.HasPrefix(key, "[") || bytes.HasPrefix(rest, []byte("=")) {
				return i + 1
			}
		}
	}
	return 0
}

func col(line int) int {
	if line > 0 {
		return 1
	}
	return 0
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
