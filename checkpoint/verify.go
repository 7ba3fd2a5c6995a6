package checkpoint

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/state"
)

// DefaultBudget is the restore budget in characters when none is configured.
const DefaultBudget = 6000

// Problem is one thing wrong with a checkpoint, at a 1-based line (0 for the whole file).
type Problem struct {
	Line int
	Msg  string
}

func (p Problem) String() string { return fmt.Sprintf("%d: %s", p.Line, p.Msg) }

// VerifyOptions say what a checkpoint is checked against.
type VerifyOptions struct {
	Budget  int    // characters the restore puts back; DefaultBudget when <= 0
	Session string // the session the checkpoint must belong to; "" skips that check
}

// mustHaveContent reports whether "none" is not an answer for a section.
func mustHaveContent(section string) bool {
	return section == "Goal" || section == "State" || section == "Next"
}

// isPlaceholderText reports whether body has a placeholder line, code spans aside. A line is a
// placeholder when it is one: a template prompt such as "<the user's ask>" (alone, or after
// "- Action: "), a line that starts with TODO/TBD/FIXME/XXX, or just "...". Real text that
// merely contains one (Result<Config, Error>, "the TODO list") is not.
func isPlaceholderText(body string) bool {
	return hasPlaceholderLine(replaceCodeSpans(body))
}

// Verify checks a checkpoint and returns every problem, in line order. It checks the title and
// the identity header, that each fixed section is present once, in order and not a placeholder,
// that Next is one concrete action with an expected result, that the External state table has its
// columns and each row's applied/idempotent values, that every row that is not idempotent has a
// verify command, and that the whole text fits the budget.
func Verify(c *Checkpoint, o VerifyOptions) []Problem {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	var ps []Problem
	add := func(line int, format string, args ...any) {
		ps = append(ps, Problem{line, fmt.Sprintf(format, args...)})
	}
	if c.TitleLine == 0 {
		add(1, "missing the title line %q", Title)
	}
	c.verifyHeader(o, add)
	c.verifySections(add)
	if s := c.Section("Next"); s != nil && !isPlaceholder(s, "Next") {
		verifyNext(s, add)
	}
	if s := c.Section("External state"); s != nil && !isPlaceholder(s, "External state") {
		c.verifyExternal(s, add)
	}
	verifyControls(c.Text, add)
	if n := utf8.RuneCountInString(c.Text); n > o.Budget {
		add(budgetLine(c.Text, o.Budget), "the checkpoint is %d characters, over the %d-character restore budget from here on: shorten it (move detail into files listed under Pointers)", n, o.Budget)
	}
	slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
	return ps
}

// verifyControls flags every line holding a rune safetext counts unsafe (an escape, a CR, a
// bidi control, an invisible one) but a tab: the restore and `checkpoint show` print them as
// stand-ins, and a checkpoint that needs one is hiding something.
func verifyControls(text string, add func(int, string, ...any)) {
	for i, l := range strings.Split(text, "\n") {
		for _, r := range l {
			if r != '\t' && (safetext.Unsafe(r) || r == utf8.RuneError) {
				add(i+1, "a control or invisible character (%U) in the text: remove it (the restore shows it as a stand-in)", r)
				break
			}
		}
	}
}

func (c *Checkpoint) verifyHeader(o VerifyOptions, add func(int, string, ...any)) {
	at := max(c.TitleLine, 1)
	for _, k := range HeaderKeys {
		if _, ok := c.Header.Line[k]; !ok {
			add(at, "identity header: missing %q line (run 'zoneline checkpoint template' for the header)", k+": …")
		}
	}
	h := c.Header
	if n, ok := h.Line[KeySession]; ok {
		switch {
		case !state.ValidSessionID(h.Session):
			add(n, "identity header: session %q is not a session id (a UUID)", h.Session)
		case o.Session != "" && !strings.EqualFold(h.Session, o.Session):
			add(n, "identity header: session %s is not this session (%s): this checkpoint belongs to another session", h.Session, o.Session)
		}
	}
	if n, ok := h.Line[KeyTime]; ok && h.Time.IsZero() {
		add(n, "identity header: time %q is not an RFC 3339 time such as 2026-11-29T22:14:00Z", h.TimeText)
	}
	if n, ok := h.Line[KeyCompactions]; ok && h.Compactions < 0 {
		add(n, "identity header: compactions is not a whole number")
	}
	if n, ok := h.Line[KeyCwd]; ok && h.Cwd == "" {
		add(n, "identity header: cwd is empty")
	}
}

func (c *Checkpoint) verifySections(add func(int, string, ...any)) {
	seen := map[string]int{}
	last := -1
	for _, s := range c.Sections {
		if verifyOptional(&s, seen, add) {
			continue
		}
		i := slices.IndexFunc(Sections, func(n string) bool { return strings.EqualFold(n, s.Name) })
		switch {
		case i < 0:
			add(s.Line, "unknown section %q: the sections are %s (and, optional, %s)", s.Name, strings.Join(Sections, ", "), strings.Join(OptionalSections, ", "))
			continue
		case seen[Sections[i]] > 0:
			add(s.Line, "section %q appears twice (first on line %d)", Sections[i], seen[Sections[i]])
			continue
		case i < last:
			add(s.Line, "section %q is out of order: the order is %s", Sections[i], strings.Join(Sections, ", "))
		}
		seen[Sections[i]] = s.Line
		last = max(last, i)
		if isPlaceholder(&s, Sections[i]) {
			what := "is empty"
			if s.Body != "" {
				what = "is still a placeholder"
			}
			if mustHaveContent(Sections[i]) {
				add(s.BodyLine, "section %q %s: fill it in", Sections[i], what)
			} else {
				add(s.BodyLine, "section %q %s: fill it in, or write \"none\"", Sections[i], what)
			}
		}
	}
	end := strings.Count(c.Text, "\n") + 1
	for i, name := range Sections {
		if seen[name] > 0 {
			continue
		}
		// point at the next section that is present, or the end
		line := end
		for _, later := range Sections[i+1:] {
			if n := seen[later]; n > 0 {
				line = n
				break
			}
		}
		add(line, "missing section \"## %s\"", name)
	}
}

// isPlaceholder reports whether a section's body says nothing: empty, a template prompt, a
// TODO, or "none" for a section that needs content.
func isPlaceholder(s *Section, name string) bool {
	body := strings.TrimSpace(s.Body)
	if body == "" {
		return true
	}
	if mustHaveContent(name) && isNone(body) {
		return true
	}
	if name == "External state" {
		// a table with only the template row, or a header and no rows, says nothing
		text := stripTable(body)
		if isPlaceholderText(body) || hasPlaceholderCell(replaceCodeSpans(body)) {
			return true
		}
		return strings.TrimSpace(text) == "" && countRows(body) == 0
	}
	return isPlaceholderText(body)
}

// stripTable returns body without its table lines.
func stripTable(body string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "|") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// countRows counts a table's data rows (not its header or delimiter).
func countRows(body string) int {
	n, header := 0, false
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") {
			continue
		}
		if !header {
			header = true
			continue
		}
		if !isDelimiter(splitRow(l)) {
			n++
		}
	}
	return n
}

func verifyNext(s *Section, add func(int, string, ...any)) {
	body := s.Body
	if isVague(body) {
		add(s.BodyLine, "Next is not a concrete action: name the file to change or the command to run, and the expected result")
		return
	}
	if !hasAnchor(body) {
		add(s.BodyLine, "Next names no file or command: name the file (path) or the command (in `backticks`) of the one next action")
	}
	if !hasExpectation(body) {
		add(s.BodyLine, "Next has no expected result: add what shows it worked (\"Expected: …\")")
	}
}

func (c *Checkpoint) verifyExternal(s *Section, add func(int, string, ...any)) {
	if c.TableHeader == nil {
		if !isNone(s.Body) {
			add(s.BodyLine, "External state is not a table: use | system | identifier | applied | idempotent | verify |, or write \"none\"")
		}
		return
	}
	for _, want := range []string{"system", "identifier", "applied", "idempotent", "verify"} {
		if !slices.ContainsFunc(c.TableHeader, func(h string) bool { return strings.HasPrefix(h, want) }) {
			add(c.TableLine, "External state table: missing column %q (columns: system | identifier | applied | idempotent | verify)", want)
		}
	}
	for _, r := range c.External {
		if r.Cells != len(c.TableHeader) {
			add(r.Line, "External state row has %d cells, the header has %d (escape a | inside a cell as \\| or put the command in `backticks`)", r.Cells, len(c.TableHeader))
		}
		if r.System == "" || r.Identifier == "" {
			add(r.Line, "External state row: system and identifier must say what was changed and where")
		}
		if r.Applied != "yes" && r.Applied != "no" && r.Applied != "UNKNOWN" {
			add(r.Line, "External state row: applied is %q: want yes, no or UNKNOWN", r.Applied)
		}
		if r.Idempotent != "yes" && r.Idempotent != "no" {
			add(r.Line, "External state row: idempotent is %q: want yes or no", r.Idempotent)
		}
		if r.Idempotent != "yes" && r.Verify == "" {
			add(r.Line, "External state row %q is not idempotent and has no verify command: add a command that exits 0 when it is applied and 1 when it is not", r.Identifier)
		}
		if r.Verify != "" {
			if msg := verifyCommand(r.Verify); msg != "" {
				add(r.Line, "External state row %q: %s", r.Identifier, msg)
			}
		}
	}
}

// budgetLine returns the 1-based line holding the budget's first character past the limit.
func budgetLine(text string, budget int) int {
	n, line := 0, 1
	for _, r := range text {
		n++
		if n > budget {
			return line
		}
		if r == '\n' {
			line++
		}
	}
	return line
}
