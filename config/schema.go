package config

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/statusline"
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
	val  value  // where the value lives, its kind and its check (kind.go)
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
	{key: "color", want: "one of auto, truecolor, 256, 16, none", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Color }, kind: &textKind, check: checkColor}},
	{key: "glyphs", want: "one of unicode, ascii, nerd", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Glyphs }, kind: &textKind, check: checkGlyphs}},
	{key: "east_asian_width", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.EastAsianWidth }, kind: &boolKind}},
	{key: "window", want: "a token count (0 = 200k)", val: of[int64]{at: func(c *Config, _ *Model) *int64 { return &c.Window }, kind: &int64Kind}, hi: noLimit},

	{key: "statusline.lines", want: "a list of lines, each a list of segment names", val: of[[][]string]{at: func(c *Config, _ *Model) *[][]string { return &c.Statusline.Lines }, kind: &linesKind, check: checkLines}},
	{key: "statusline.separator", want: "a string", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Statusline.Separator }, kind: &textKind}},
	{key: "statusline.bar_width", want: "an integer from 1 to 100", val: of[int]{at: func(c *Config, _ *Model) *int { return &c.Statusline.BarWidth }, kind: &intKind}, lo: 1, hi: 100},
	{key: "statusline.indent", want: "an integer from 0 to 20", val: of[int]{at: func(c *Config, _ *Model) *int { return &c.Statusline.Indent }, kind: &intKind}, hi: 20},
	{key: "statusline.wrap", want: "a command line (\"\" = none)", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Statusline.Wrap }, kind: &textKind}},
	{key: "statusline.wrap_position", want: "one of before, after, line", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Statusline.WrapPosition }, kind: &textKind, check: checkWrapPosition}},
	{key: "statusline.wrap_timeout", want: `a duration such as "2s" or "500ms"`, val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Statusline.WrapTimeout }, kind: &textKind, check: checkWrapTimeout}},

	{key: "autocompact.point", want: "a token count (0 = computed)", val: of[int64]{at: func(c *Config, _ *Model) *int64 { return &c.AutoCompact.Point }, kind: &int64Kind}, hi: noLimit},
	{key: "autocompact.enabled", want: wantBool, val: of[*bool]{at: func(c *Config, _ *Model) **bool { return &c.AutoCompact.Enabled }, kind: &maybeKind}},
	{key: "autocompact.max_output", want: "a token count (0 = the model's)", val: of[int64]{at: func(c *Config, _ *Model) *int64 { return &c.AutoCompact.MaxOutput }, kind: &int64Kind}, hi: noLimit},

	{key: "warning.prep", want: wantPrep, val: of[any]{at: func(c *Config, _ *Model) *any { return &c.Warning.Prep }, kind: &specKind, check: checkPrep}},
	{key: "warning.imminent_distance", want: wantTokens, val: of[int64]{at: func(c *Config, _ *Model) *int64 { return &c.Warning.ImminentDistance }, kind: &int64Kind}, hi: noLimit},
	{key: "warning.nudge", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.Warning.Nudge }, kind: &boolKind}},
	{key: "warning.nudge_text", want: "a string", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Warning.NudgeText }, kind: &textKind}},
	{key: "warning.tiers", want: wantTiers, val: of[[]string]{at: func(c *Config, _ *Model) *[]string { return &c.Warning.Tiers }, kind: &listKind, check: checkTiers}},

	{key: "notify.enabled", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.Notify.Enabled }, kind: &boolKind}},
	{key: "notify.tiers", want: wantTiers, val: of[[]string]{at: func(c *Config, _ *Model) *[]string { return &c.Notify.Tiers }, kind: &listKind, check: checkTiers}},
	{key: "notify.urgency", want: "one of low, normal, critical", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Notify.Urgency }, kind: &textKind, check: checkUrgency}},
	{key: "notify.app_name", want: "a string", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Notify.AppName }, kind: &textKind}},

	{key: "checkpoint.budget", want: "an integer from 500 to 9000 (characters; Claude Code previews context over 10,000)", val: of[int]{at: func(c *Config, _ *Model) *int { return &c.Checkpoint.Budget }, kind: &intKind}, lo: 500, hi: 9000},
	{key: "checkpoint.stale_minutes", want: "an integer from 1 to 525600 (minutes)", val: of[int]{at: func(c *Config, _ *Model) *int { return &c.Checkpoint.StaleMinutes }, kind: &intKind}, lo: 1, hi: 525600},

	{key: "precompact.hold_once", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.PreCompact.HoldOnce }, kind: &boolKind}},
	{key: "precompact.snapshots", want: "an integer from 1 to 1000", val: of[int]{at: func(c *Config, _ *Model) *int { return &c.PreCompact.Snapshots }, kind: &intKind}, lo: 1, hi: 1000},
	{key: "precompact.instructions", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.PreCompact.Instructions }, kind: &boolKind}},
	{key: "precompact.instructions_extra", want: "a string", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.PreCompact.InstructionsExtra }, kind: &textKind}},

	{key: "state.gc_days", want: "an integer from 1 to 3650 (days)", val: of[int]{at: func(c *Config, _ *Model) *int { return &c.State.GCDays }, kind: &intKind}, lo: 1, hi: 3650},

	{key: "flow.compact_instructions", want: "a string", val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Flow.CompactInstructions }, kind: &textKind}},

	{key: "flow.timeouts.prep", want: wantDuration, val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Flow.Timeouts.Prep }, kind: &textKind, check: checkDuration}},
	{key: "flow.timeouts.compact", want: wantDuration, val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Flow.Timeouts.Compact }, kind: &textKind, check: checkDuration}},
	{key: "flow.timeouts.postcompact", want: wantDuration, val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Flow.Timeouts.Postcompact }, kind: &textKind, check: checkDuration}},

	{key: "watch.interval", want: wantDuration, val: of[string]{at: func(c *Config, _ *Model) *string { return &c.Watch.Interval }, kind: &textKind, check: checkDuration}},
	{key: "watch.auto", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.Watch.Auto }, kind: &boolKind}},
	{key: "watch.projects", want: "a list of project dirs or globs", val: of[[]string]{at: func(c *Config, _ *Model) *[]string { return &c.Watch.Projects }, kind: &listKind, check: checkProjects}},

	{key: "resume.check", want: wantBool, val: of[bool]{at: func(c *Config, _ *Model) *bool { return &c.Resume.Check }, kind: &boolKind}},

	{key: "mod.compact_at", want: wantCompactAt, val: of[any]{at: func(c *Config, _ *Model) *any { return &c.Mod.CompactAt }, kind: &specKind, check: checkCompactAt}},
}

// modelSchema is the keys of a [[model]] block.
var modelSchema = []field{
	{key: "match", want: `a glob on model.id such as "claude-opus-*"`, val: of[string]{at: func(_ *Config, m *Model) *string { return &m.Match }, kind: &textKind, check: checkGlob}},
	{key: "window", want: `"200k" or "1m"`, val: of[string]{at: func(_ *Config, m *Model) *string { return &m.Window }, kind: &textKind, check: checkWindow}},
	{key: "warn", want: wantTokens, val: of[int64]{at: func(_ *Config, m *Model) *int64 { return &m.Warn }, kind: &int64Kind}, hi: noLimit},
	{key: "dumb", want: wantTokens, val: of[int64]{at: func(_ *Config, m *Model) *int64 { return &m.Dumb }, kind: &int64Kind}, hi: noLimit},
	{key: "prep", want: wantPrep, val: of[any]{at: func(_ *Config, m *Model) *any { return &m.Prep }, kind: &specKind, check: checkPrep}},
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

func checkOneOf(v string, allowed []string) string {
	if slices.Contains(allowed, v) {
		return ""
	}
	return "want one of " + strings.Join(allowed, ", ")
}

func checkColor(v string) string   { return checkOneOf(v, colors) }
func checkGlyphs(v string) string  { return checkOneOf(v, glyphSet) }
func checkUrgency(v string) string { return checkOneOf(v, urgency) }
func checkWindow(v string) string  { return checkOneOf(v, windows) }

func checkWrapPosition(v string) string { return checkOneOf(v, []string{"before", "after", "line"}) }

func checkTiers(tiers []string) string {
	for _, s := range tiers {
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

func checkLines(lines [][]string) string {
	if len(lines) == 0 {
		return "want at least one line of segments"
	}
	for i, line := range lines {
		if len(line) == 0 {
			return "line " + strconv.Itoa(i+1) + " has no segments"
		}
		for _, s := range line {
			if !statusline.IsSegment(s) {
				names := statusline.SegmentNames()
				msg := "unknown segment " + quote(s)
				if near := closest(s, names); near != "" {
					msg += " (did you mean " + quote(near) + "?)"
				}
				return msg + ": want " + strings.Join(names, ", ")
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

func checkDuration(v string) string {
	if d, err := time.ParseDuration(v); err != nil || d <= 0 {
		return `want a positive duration such as "90s" or "10m"`
	}
	return ""
}

func checkWrapTimeout(v string) string {
	if r := checkDuration(v); r != "" {
		return r
	}
	if d, _ := time.ParseDuration(v); d > MaxWrapTimeout {
		return "at most " + MaxWrapTimeout.String() + " (the longest wrap_timeout honoured)"
	}
	return ""
}

func checkGlob(v string) string {
	if _, err := filepath.Match(v, ""); err != nil {
		return "not a valid glob"
	}
	return ""
}

func checkProjects(projects []string) string {
	for _, p := range projects {
		if _, err := filepath.Match(p, ""); err != nil || p == "" {
			return quote(p) + " is not a valid path or glob"
		}
	}
	return ""
}
