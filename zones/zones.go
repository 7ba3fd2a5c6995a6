// Package zones decides the zone of a Claude Code session (smart, warn or dumb) from the absolute
// number of context tokens, with per-model thresholds, and computes the context window and the
// auto-compact point. It is pure: no I/O, no environment; callers hand it every input.
package zones

import (
	"path"
	"strings"
)

// Zone is how deep a session is into context rot.
type Zone int

// The zones, in order of depth.
const (
	Unknown Zone = iota // no token count yet (before the first reply)
	Smart
	Warn
	Dumb
)

// zoneNames are the zones' names, by zone.
var zoneNames = [...]string{Unknown: "unknown", Smart: "smart", Warn: "warn", Dumb: "dumb"}

// String returns the zone's lower-case name: "unknown", "smart", "warn" or "dumb".
func (z Zone) String() string {
	if z < Smart || z > Dumb {
		return zoneNames[Unknown]
	}
	return zoneNames[z]
}

// ParseZone returns the zone named s ("smart", "warn", "dumb"), case-insensitively.
func ParseZone(s string) (Zone, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for z := Smart; z <= Dumb; z++ {
		if zoneNames[z] == s {
			return z, true
		}
	}
	return Unknown, false
}

// Thresholds are the absolute token counts at which a session enters the warn and dumb zones.
type Thresholds struct {
	Warn int64 // tokens >= Warn is the warn zone
	Dumb int64 // tokens >= Dumb is the dumb zone
}

// Classify returns the zone of a session holding tokens context tokens.
func Classify(tokens int64, t Thresholds) Zone {
	switch {
	case tokens >= t.Dumb:
		return Dumb
	case tokens >= t.Warn:
		return Warn
	}
	return Smart
}

// Rule is one per-model override from the config. A rule applies when Match (a path.Match glob
// on the model id, case-insensitive) matches, or, when Match is empty, when the window belongs
// to Window ("200k" or "1m"). Zero thresholds keep the default.
type Rule struct {
	Match  string
	Window string
	Warn   int64
	Dumb   int64
	Prep   string // "", a zone name, a token count ("150000", "150k") or a percent of the window ("70%")
}

// Defaults returns the built-in thresholds for a model id and window (README.md, "Zones").
func Defaults(modelID string, window int64) Thresholds {
	id := strings.ToLower(modelID)
	switch {
	case window >= LargeWindow:
		return Thresholds{Warn: 120_000, Dumb: 250_000}
	case strings.Contains(id, "haiku"):
		return Thresholds{Warn: 50_000, Dumb: 90_000}
	case strings.Contains(id, "opus"), strings.Contains(id, "sonnet"):
		return Thresholds{Warn: 80_000, Dumb: 120_000}
	}
	// Unknown model: min(80k, 40 % of window) and min(120k, 60 % of window).
	w := window
	if w <= 0 {
		w = DefaultWindow
	}
	return Thresholds{Warn: min(80_000, w*40/100), Dumb: min(120_000, w*60/100)}
}

// WindowClass names the class of a window: "1m" for windows of LargeWindow or more, else "200k".
func WindowClass(window int64) string {
	if window >= LargeWindow {
		return "1m"
	}
	return "200k"
}

// Matches reports whether rule r applies to the model id and window: its Match glob against
// the model id (case-insensitively) when it has one, else its Window class.
func (r Rule) Matches(modelID string, window int64) bool {
	if r.Match != "" {
		ok, err := path.Match(strings.ToLower(r.Match), strings.ToLower(modelID))
		return err == nil && ok
	}
	if r.Window != "" {
		return strings.EqualFold(r.Window, WindowClass(window))
	}
	return false
}

// Select returns the first rule that applies: rules with a Match glob first, in order, then
// rules by window class. ok is false when none applies.
func Select(rules []Rule, modelID string, window int64) (Rule, bool) {
	for _, r := range rules {
		if r.Match != "" && r.Matches(modelID, window) {
			return r, true
		}
	}
	for _, r := range rules {
		if r.Match == "" && r.Matches(modelID, window) {
			return r, true
		}
	}
	return Rule{}, false
}

// Resolve returns the thresholds in force for a model and window: the defaults (clamped for
// small windows), overridden by the first rule that applies, then kept inside the window.
func Resolve(rules []Rule, modelID string, window int64) (Thresholds, Rule) {
	t := Clamp(Defaults(modelID, window), window)
	r, ok := Select(rules, modelID, window)
	if ok {
		if r.Warn > 0 {
			t.Warn = r.Warn
		}
		if r.Dumb > 0 {
			t.Dumb = r.Dumb
		}
	}
	return Sane(t, window), r
}

// Clamp fits default thresholds to a small window: warn at most 40 % and dumb at most 60 % of
// it, so a 100k window is not "smart" until it is nearly full.
func Clamp(t Thresholds, window int64) Thresholds {
	if window > 0 {
		t.Dumb = min(t.Dumb, window*60/100)
		t.Warn = min(t.Warn, window*40/100)
	}
	return Sane(t, window)
}

// Sane keeps thresholds ordered and inside the window: 0 < dumb <= window, 0 <= warn <= dumb.
func Sane(t Thresholds, window int64) Thresholds {
	if window > 0 && t.Dumb > window {
		t.Dumb = window
	}
	t.Dumb = max(t.Dumb, 1)
	t.Warn = max(0, min(t.Warn, t.Dumb))
	return t
}
