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

// DefaultCompactInstructions is what the /compact line asks the compaction to keep. It is
// phrased as what to keep, never as a request to act: inline /compact arguments survive the
// boundary and can be acted on again afterwards (anthropics/claude-code#55555).
const DefaultCompactInstructions = "Keep verbatim: the zoneline checkpoint (goal, state, next action, plan and phase, decisions, abandoned approaches, rules, external state, workers, traps); the work in flight (background commands, subagents and task list, with their ids and output files); exact ids, paths and commands."

// CompactLine returns the /compact line handed to the user (by /compact-prep, `zoneline
// checkpoint compact-line`) and typed by compact-flow: "/compact " and the instructions
// (DefaultCompactInstructions when empty), on one line.
func CompactLine(instructions string) string {
	in := safetext.Field(instructions, 0)
	if in == "" {
		in = DefaultCompactInstructions
	}
	return "/compact " + in
}
