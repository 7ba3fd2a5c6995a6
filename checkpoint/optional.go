package checkpoint

import (
	"slices"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
)

// verifyOptional checks s when it is one of OptionalSections (and reports whether it was): it
// may appear once, anywhere, and is not left a placeholder.
func verifyOptional(s *Section, seen map[string]int, add func(int, string, ...any)) bool {
	i := slices.IndexFunc(OptionalSections, func(n string) bool { return strings.EqualFold(n, s.Name) })
	if i < 0 {
		return false
	}
	name := OptionalSections[i]
	if first := seen[name]; first > 0 {
		add(s.Line, "section %q appears twice (first on line %d)", name, first)
		return true
	}
	seen[name] = s.Line
	if isPlaceholder(s, name) {
		add(s.BodyLine, "optional section %q is empty or a placeholder: fill it in, or remove it", name)
	}
	return true
}

// CompactLine returns the /compact line handed to the user (by /compact-prep, `zoneline
// checkpoint compact-line`) and typed by compact-flow: "/compact", and after it the user's own
// words ([flow] compact_instructions) folded onto one line when there are any. What to keep is
// not repeated there: zoneline's PreCompact hook gives the summariser its instructions on every
// compaction (hook.Instructions), and /compact arguments survive the boundary and can be acted
// on again afterwards (anthropics/claude-code#55555).
func CompactLine(instructions string) string {
	if in := safetext.Field(instructions, 0); in != "" {
		return "/compact " + in
	}
	return "/compact"
}
