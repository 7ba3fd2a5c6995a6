package zones

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Window returns the context window of a session: the payload's context_window_size when
// positive, else 1M for a model id with the "[1m]" suffix, else the configured default, else
// the model's default window when ModelWindow knows it, else DefaultWindow (a guess).
func Window(payloadSize int64, modelID string, configured int64) int64 {
	switch {
	case payloadSize > 0:
		return payloadSize
	case strings.Contains(strings.ToLower(modelID), "[1m]"):
		return OneMillionWindow
	case configured > 0:
		return configured
	}
	if w, known := ModelWindow(modelID); known {
		return w
	}
	return DefaultWindow
}

// SessionWindow is Window for a session whose context holds tokens (0: unknown): a window
// that Claude Code did not send (no context_window_size, as before 2.1.x) and that is smaller
// than the tokens is proved wrong by them, and becomes the next known window that holds them
// (Holding). Claude Code's own size is kept as sent.
func SessionWindow(payloadSize int64, modelID string, configured, tokens int64) int64 {
	w := Window(payloadSize, modelID, configured)
	if payloadSize > 0 {
		return w
	}
	return Holding(w, tokens)
}

// knownWindows are the windows Claude Code gives, smallest first.
var knownWindows = [...]int64{DefaultWindow, OneMillionWindow}

// Holding returns window when it holds tokens, else the smallest known window that does (the
// largest when none does): tokens above a window prove the window is larger.
func Holding(window, tokens int64) int64 {
	if tokens <= window {
		return window
	}
	for _, w := range knownWindows {
		if w >= tokens {
			return w
		}
	}
	return max(window, knownWindows[len(knownWindows)-1])
}

// ModelWindow returns the window Claude Code gives a model by default, when it is known: 1M
// for a "[1m]" id and for claude-opus-5-5 (2.1.332's default model, which reported
// context_window_size 1000000), 200k for claude-sonnet-4-5 (reported 200000); then a rule by
// family and generation for ids not seen in a payload: the fifth generation of Opus, Sonnet and
// Fable (claude-opus-5, claude-sonnet-5, claude-fable-5, …) 1M, as sessions of each ran to
// 400–560k tokens without a compaction at 200k; the fourth of Opus, Sonnet and Haiku
// (claude-opus-4-8, …) 200k, where their sessions auto-compacted (about 155–180k) unless the
// id says [1m]. known is false for any other id: the window is then a guess. A real account's
// window can still differ (server-side settings), which is why the payload's size wins
// whenever it is sent, and why tokens above a window raise it (SessionWindow).
func ModelWindow(modelID string) (window int64, known bool) {
	id := strings.ToLower(modelID)
	switch {
	case strings.Contains(id, "[1m]"), strings.HasPrefix(id, "claude-opus-5-5"):
		return OneMillionWindow, true
	case strings.HasPrefix(id, "claude-sonnet-4-5"):
		return DefaultWindow, true
	}
	family, gen, ok := familyOf(id)
	switch {
	case !ok:
	case gen >= 5 && (family == "opus" || family == "sonnet" || family == "fable"):
		return OneMillionWindow, true
	case gen == 4 && (family == "opus" || family == "sonnet" || family == "haiku"):
		return DefaultWindow, true
	}
	return 0, false
}

// familyOf reads "claude-<family>-<generation>…" ("claude-opus-4-8", "claude-fable-5",
// "claude-sonnet-4-20250514"); ok is false for any other shape.
func familyOf(id string) (family string, gen int, ok bool) {
	rest, found := strings.CutPrefix(id, "claude-")
	if !found {
		return "", 0, false
	}
	family, rest, found = strings.Cut(rest, "-")
	if !found || family == "" {
		return "", 0, false
	}
	digits := rest
	if i := strings.IndexAny(rest, "-[@."); i >= 0 {
		digits = rest[:i]
	}
	if len(digits) == 0 || len(digits) > 2 {
		return "", 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return family, n, true
}

// CompactInput is everything that decides Claude Code's auto-compact point. The caller reads
// the environment and settings; this package only does the arithmetic.
type CompactInput struct {
	Window         int64  // the session's context window
	MaxOutput      int64  // the model's max output tokens; 0 means "at least MaxOutputReserve"
	EnvWindow      string // CLAUDE_CODE_AUTO_COMPACT_WINDOW
	EnvPct         string // CLAUDE_AUTOCOMPACT_PCT_OVERRIDE
	EnvDisableAuto string // DISABLE_AUTO_COMPACT
	EnvDisableAll  string // DISABLE_COMPACT
	SettingsOn     *bool  // autoCompactEnabled from Claude Code's settings.json; nil when unset
	SettingsWindow int64  // autoCompactWindow from settings; 0 when unset or "auto"
	Override       int64  // the config's autocompact point; 0 when unset
	OverrideOff    bool   // the config says auto-compact is off
}

// Compact is the auto-compact point in force and why.
type Compact struct {
	Enabled  bool
	Point    int64  // tokens at which Claude Code auto-compacts; 0 when disabled
	Source   string // what decided it: "default", "env CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "config", …
	Estimate bool   // true when computed from Claude Code's constants (a server may differ)
}

// AutoCompact computes the auto-compact point as Claude Code 2.1.332 does (README.md, "Window
// and auto-compact point"): effective = window − min(max output, 20k); point = effective − 13k;
// a percent override gives min(floor(effective × p / 100), effective − 13k).
func AutoCompact(in CompactInput) Compact {
	switch {
	case in.OverrideOff:
		return Compact{Source: "config"}
	case truthy(in.EnvDisableAll):
		return Compact{Source: "env DISABLE_COMPACT"}
	case truthy(in.EnvDisableAuto):
		return Compact{Source: "env DISABLE_AUTO_COMPACT"}
	case in.SettingsOn != nil && !*in.SettingsOn:
		return Compact{Source: "settings autoCompactEnabled"}
	case in.Override > 0:
		return Compact{Enabled: true, Point: in.Override, Source: "config"}
	}
	window, source := in.Window, "default"
	if window <= 0 {
		window = DefaultWindow
	}
	if w, err := strconv.ParseInt(strings.TrimSpace(in.EnvWindow), 10, 64); err == nil && w >= MinAutoCompactWin {
		window, source = min(window, w), "env CLAUDE_CODE_AUTO_COMPACT_WINDOW"
	} else if in.SettingsWindow >= MinAutoCompactWin {
		window, source = min(window, in.SettingsWindow), "settings autoCompactWindow"
	}
	reserve := int64(MaxOutputReserve)
	if in.MaxOutput > 0 && in.MaxOutput < reserve {
		reserve = in.MaxOutput
	}
	effective := window - reserve
	point := effective - AutoCompactBuffer
	if p, err := strconv.ParseFloat(strings.TrimSpace(in.EnvPct), 64); err == nil && p > 0 && p <= 100 {
		point = min(int64(float64(effective)*p/100), effective-AutoCompactBuffer)
		source = "env CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"
	}
	return Compact{Enabled: true, Point: max(point, 1), Source: source, Estimate: true}
}

// truthy reports whether an environment value turns a switch on ("1", "true", "yes", "on").
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Prep returns the prep threshold: the token count at which the marker is written and the
// agent is nudged to /compact-prep. spec is "" (the dumb threshold), a zone name, a token count
// ("150000", "150k") or a percent of the window ("70%"). It is never later than the auto-compact
// point minus PrepBeforeCompact. ok is false when spec cannot be read (the default is used).
func Prep(spec string, t Thresholds, window int64, c Compact) (tokens int64, ok bool) {
	tokens, ok = parsePrep(spec, t, window)
	if !ok {
		tokens = t.Dumb
	}
	if c.Enabled && c.Point > 0 {
		tokens = min(tokens, c.Point-PrepBeforeCompact)
	}
	return max(tokens, 1), ok
}

func parsePrep(spec string, t Thresholds, window int64) (int64, bool) {
	s := strings.ToLower(strings.TrimSpace(spec))
	if s == "" {
		return t.Dumb, true
	}
	if z, ok := ParseZone(s); ok {
		switch z {
		case Warn:
			return t.Warn, true
		case Dumb:
			return t.Dumb, true
		}
		return 0, false
	}
	if p, found := strings.CutSuffix(s, "%"); found {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f <= 0 || f > 100 || window <= 0 {
			return 0, false
		}
		return int64(float64(window) * f / 100), true
	}
	n, err := ParseTokens(s)
	return n, err == nil && n > 0
}

// ParseTokens reads a token count: "150000", "150k", "1.5m", "150_000".
func ParseTokens(s string) (int64, error) {
	s = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "")
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1e6, strings.TrimSuffix(s, "m")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	f *= mult
	if math.IsNaN(f) || f < 0 || f > maxTokens {
		return 0, fmt.Errorf("zoneline: %q is not a token count", s)
	}
	return int64(f), nil
}
