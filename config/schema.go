package config

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The schema is the one description of the config file: every key, the value it wants in the
// user's words, where it lives in Config and what makes a value acceptable. Decoding (decode.go),
// the TOML that `config show` and the cache print (encode.go) and the suggestions for a misspelt
// key all walk it; TestSchemaCoversConfig fails when a field of Config has no entry here.

// field is one key of the config file. Every part is static data (no closures that capture,
// nothing computed): the table costs a fresh process nothing at init.
type field struct {
	key  string // dotted, as written in the file: "statusline.bar_width"; [[model]] keys bare
	want string // the value wanted, in the user's words: "an integer from 1 to 100"
	// ptr returns a pointer to the field's storage: *string, *bool, *int, *int64, **bool,
	// *[]string, *[][]string or *any (a prep spec).
	ptr func(c *Config, m *Model) any
	// check returns why an otherwise well-typed value is refused ("" when it is fine).
	check func(v any) string
	// lo and hi bound an integer (when hi > lo).
	lo, hi int64
}

// tables are the config's tables, in the order the encoder writes them ("" is the top level).
var tables = []string{"", "statusline", "autocompact", "warning", "notify", "checkpoint", "precompact", "state", "flow", "flow.timeouts", "watch", "resume", "mod"}

// modelTable is the one list of tables, [[model]].
const modelTable = "model"

var (
	colors   = []string{"auto", "truecolor", "256", "16", "none"}
	glyphSet = []string{"unicode", "ascii", "nerd"}
	urgency  = []string{"low", "normal", "critical"}
	windows  = []string{"200k", "1m"}
)

const (
	wantDuration  = `a duration such as "90s" or "10m"`
	wantPrep      = `"warn", "dumb", a token count such as 150000 or "150k", or a percent such as "70%"`
	wantTiers     = `a list of tiers: "warn", "dumb", "imminent"`
	wantBool      = "true or false"
	wantTokens    = "a token count"
	wantCompactAt = `"off" (the default), "prep", or a token count of at least 20k such as 150000 or "150k"`
	noLimit       = 1 << 62
)

// schema is every key outside [[model]], grouped by table in the order of tables.
var schema = []field{
	{key: "color", want: "one of auto, truecolor, 256, 16, none", ptr: func(c *Config, _ *Model) any { return &c.Color }, check: checkColor},
	{key: "glyphs", want: "one of unicode, ascii, nerd", ptr: func(c *Config, _ *Model) any { return &c.Glyphs }, check: checkGlyphs},
	{key: "east_asian_width", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.EastAsianWidth }},
	{key: "window", want: "a token count (0 = 200k)", ptr: func(c *Config, _ *Model) any { return &c.Window }, hi: noLimit},

	{key: "statusline.lines", want: "a list of lines, each a list of segment names", ptr: func(c *Config, _ *Model) any { return &c.Statusline.Lines }, check: checkLines},
	{key: "statusline.separator", want: "a string", ptr: func(c *Config, _ *Model) any { return &c.Statusline.Separator }},
	{key: "statusline.bar_width", want: "an integer from 1 to 100", ptr: func(c *Config, _ *Model) any { return &c.Statusline.BarWidth }, lo: 1, hi: 100},
	{key: "statusline.indent", want: "an integer from 0 to 20", ptr: func(c *Config, _ *Model) any { return &c.Statusline.Indent }, hi: 20},
	{key: "statusline.wrap", want: "a command line (\"\" = none)", ptr: func(c *Config, _ *Model) any { return &c.Statusline.Wrap }},
	{key: "statusline.wrap_position", want: "one of before, after, line", ptr: func(c *Config, _ *Model) any { return &c.Statusline.WrapPosition }, check: checkWrapPosition},
	{key: "statusline.wrap_timeout", want: `a duration such as "2s" or "500ms"`, ptr: func(c *Config, _ *Model) any { return &c.Statusline.WrapTimeout }, check: checkWrapTimeout},

	{key: "autocompact.point", want: "a token count (0 = computed)", ptr: func(c *Config, _ *Model) any { return &c.AutoCompact.Point }, hi: noLimit},
	{key: "autocompact.enabled", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.AutoCompact.Enabled }},
	{key: "autocompact.max_output", want: "a token count (0 = the model's)", ptr: func(c *Config, _ *Model) any { return &c.AutoCompact.MaxOutput }, hi: noLimit},

	{key: "warning.prep", want: wantPrep, ptr: func(c *Config, _ *Model) any { return &c.Warning.Prep }, check: checkPrep},
	{key: "warning.imminent_distance", want: wantTokens, ptr: func(c *Config, _ *Model) any { return &c.Warning.ImminentDistance }, hi: noLimit},
	{key: "warning.nudge", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.Warning.Nudge }},
	{key: "warning.nudge_text", want: "a string", ptr: func(c *Config, _ *Model) any { return &c.Warning.NudgeText }},
	{key: "warning.tiers", want: wantTiers, ptr: func(c *Config, _ *Model) any { return &c.Warning.Tiers }, check: checkTiers},

	{key: "notify.enabled", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.Notify.Enabled }},
	{key: "notify.tiers", want: wantTiers, ptr: func(c *Config, _ *Model) any { return &c.Notify.Tiers }, check: checkTiers},
	{key: "notify.urgency", want: "one of low, normal, critical", ptr: func(c *Config, _ *Model) any { return &c.Notify.Urgency }, check: checkUrgency},
	{key: "notify.app_name", want: "a string", ptr: func(c *Config, _ *Model) any { return &c.Notify.AppName }},

	{key: "checkpoint.budget", want: "an integer from 500 to 9000 (characters; Claude Code previews context over 10,000)", ptr: func(c *Config, _ *Model) any { return &c.Checkpoint.Budget }, lo: 500, hi: 9000},
	{key: "checkpoint.stale_minutes", want: "an integer from 1 to 525600 (minutes)", ptr: func(c *Config, _ *Model) any { return &c.Checkpoint.StaleMinutes }, lo: 1, hi: 525600},

	{key: "precompact.hold_once", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.PreCompact.HoldOnce }},
	{key: "precompact.snapshots", want: "an integer from 1 to 1000", ptr: func(c *Config, _ *Model) any { return &c.PreCompact.Snapshots }, lo: 1, hi: 1000},
	{key: "precompact.instructions", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.PreCompact.Instructions }},
	{key: "precompact.instructions_extra", want: "a string", ptr: func(c *Config, _ *Model) any { return &c.PreCompact.InstructionsExtra }},

	{key: "state.gc_days", want: "an integer from 1 to 3650 (days)", ptr: func(c *Config, _ *Model) any { return &c.State.GCDays }, lo: 1, hi: 3650},

	{key: "flow.compact_instructions", want: "a string", ptr: func(c *Config, _ *Model) any { return &c.Flow.CompactInstructions }},

	{key: "flow.timeouts.prep", want: wantDuration, ptr: func(c *Config, _ *Model) any { return &c.Flow.Timeouts.Prep }, check: checkDuration},
	{key: "flow.timeouts.compact", want: wantDuration, ptr: func(c *Config, _ *Model) any { return &c.Flow.Timeouts.Compact }, check: checkDuration},
	{key: "flow.timeouts.postcompact", want: wantDuration, ptr: func(c *Config, _ *Model) any { return &c.Flow.Timeouts.Postcompact }, check: checkDuration},

	{key: "watch.interval", want: wantDuration, ptr: func(c *Config, _ *Model) any { return &c.Watch.Interval }, check: checkDuration},
	{key: "watch.auto", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.Watch.Auto }},
	{key: "watch.projects", want: "a list of project dirs or globs", ptr: func(c *Config, _ *Model) any { return &c.Watch.Projects }, check: checkProjects},

	{key: "resume.check", want: wantBool, ptr: func(c *Config, _ *Model) any { return &c.Resume.Check }},

	{key: "mod.compact_at", want: wantCompactAt, ptr: func(c *Config, _ *Model) any { return &c.Mod.CompactAt }, check: checkCompactAt},
}

// modelSchema is the keys of a [[model]] block.
var modelSchema = []field{
	{key: "match", want: `a glob on model.id such as "claude-opus-*"`, ptr: func(_ *Config, m *Model) any { return &m.Match }, check: checkGlob},
	{key: "window", want: `"200k" or "1m"`, ptr: func(_ *Config, m *Model) any { return &m.Window }, check: checkWindow},
	{key: "warn", want: wantTokens, ptr: func(_ *Config, m *Model) any { return &m.Warn }, hi: noLimit},
	{key: "dumb", want: wantTokens, ptr: func(_ *Config, m *Model) any { return &m.Dumb }, hi: noLimit},
	{key: "prep", want: wantPrep, ptr: func(_ *Config, m *Model) any { return &m.Prep }, check: checkPrep},
}

// lookup returns the field named key in fs, or nil.
func lookup(fs []field, key string) *field {
	for i := range fs {
		if fs[i].key == key {
			return &fs[i]
		}
	}
	return nil
}

// tableOf returns the table a dotted key lives in ("" for the top level).
func tableOf(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[:i]
	}
	return ""
}

func checkOneOf(v any, allowed []string) string {
	if slices.Contains(allowed, v.(string)) {
		return ""
	}
	return "want one of " + strings.Join(allowed, ", ")
}

func checkColor(v any) string   { return checkOneOf(v, colors) }
func checkGlyphs(v any) string  { return checkOneOf(v, glyphSet) }
func checkUrgency(v any) string { return checkOneOf(v, urgency) }
func checkWindow(v any) string  { return checkOneOf(v, windows) }

func checkWrapPosition(v any) string { return checkOneOf(v, []string{"before", "after", "line"}) }

func checkTiers(v any) string {
	for _, s := range v.([]string) {
		if !slices.Contains(Tiers, s) {
			return "unknown tier " + quote(s) + ": want " + strings.Join(Tiers, ", ")
		}
	}
	return ""
}

// checkRange returns why integer n is outside f's bounds, or "".
func (f *field) checkRange(n int64) string {
	switch {
	case f.hi <= f.lo || (n >= f.lo && n <= f.hi):
		return ""
	case f.lo == 0 && f.hi == noLimit:
		return "must not be negative"
	case f.hi == noLimit:
		return "want at least " + strconv.FormatInt(f.lo, 10)
	}
	return "want " + strconv.FormatInt(f.lo, 10) + " to " + strconv.FormatInt(f.hi, 10)
}

func checkLines(v any) string {
	lines := v.([][]string)
	if len(lines) == 0 {
		return "want at least one line of segments"
	}
	for i, line := range lines {
		if len(line) == 0 {
			return "line " + strconv.Itoa(i+1) + " has no segments"
		}
		for _, s := range line {
			if !slices.Contains(Segments, s) {
				msg := "unknown segment " + quote(s)
				if near := closest(s, Segments); near != "" {
					msg += " (did you mean " + quote(near) + "?)"
				}
				return msg + ": want " + strings.Join(Segments, ", ")
			}
		}
	}
	return ""
}

func checkPrep(v any) string {
	if _, err := PrepSpec(v); err != nil {
		return "want " + wantPrep
	}
	return ""
}

func checkCompactAt(v any) string {
	if _, _, err := ModCompactAt(v); err != nil {
		return err.Error()
	}
	return ""
}

func checkDuration(v any) string {
	if d, err := time.ParseDuration(v.(string)); err != nil || d <= 0 {
		return `want a positive duration such as "90s" or "10m"`
	}
	return ""
}

func checkWrapTimeout(v any) string {
	if r := checkDuration(v); r != "" {
		return r
	}
	if d, _ := time.ParseDuration(v.(string)); d > MaxWrapTimeout {
		return "at most " + MaxWrapTimeout.String() + " (the longest wrap_timeout honoured)"
	}
	return ""
}

func checkGlob(v any) string {
	if _, err := filepath.Match(v.(string), ""); err != nil {
		return "not a valid glob"
	}
	return ""
}

func checkProjects(v any) string {
	for _, p := range v.([]string) {
		if _, err := filepath.Match(p, ""); err != nil || p == "" {
			return quote(p) + " is not a valid path or glob"
		}
	}
	return ""
}
