package checkpoint

import (
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// textCases are the text rules' answers on hand-picked inputs: case, '…', CRLF, empty lines,
// tabs, backticks, invalid UTF-8, the length bounds, and the Kelvin sign and the long s (which
// the rules, unlike regexp's (?i), do not fold onto k and s). want lists the rules that hold:
// p hasPlaceholderLine, c hasPlaceholderCell, s a code span (nextCodeSpan), v isVague,
// a hasAnchor, e hasExpectation. A comment marks where the rules depart from the regexps they
// were first written as (placeholderRE and the others below).
var textCases = []struct{ in, want string }{
	{"<the user's ask>", "p"},
	{"- Action: <what to do>", "p"},
	{"Result<Config, Error> parses", ""},
	{"the TODO list is done", ""},
	{"TODOs remain", ""},
	{"todo: later", "p"},
	{"ok\r\n  - Step: <abc>.\r\nok", "p"},
	{"|\n<system>\n|", "pc"},
	{"  - Keep going.\n", "v"},
	{"continue with x.go", "a"},
	{"run `go test`", "sa"},
	{"run ``", "s"},
	{"edit a/b", "a"},
	{"edit x.go:12", "a"},
	{"edit a.go_", ""},
	{"edit --.go", ""},
	{"edit a.123456789", ""},
	{"edit a.12345678", "a"},
	{"it should pass", "e"},
	{"PA\u017f\u017fES", ""}, // the regexp said "e": (?i) folded the long s onto s
	{"x → y", "e"},
	{"", ""},
	{" ", ""},
	{"\n", ""},
	{"\r\n", ""},
	{"\n\n\n", ""},
	{"\t", ""},
	{"\f", ""},
	{"\v", ""},
	{"\x00", ""},
	{"\xff", ""},
	{"\xe2\x80", ""},
	{"…", "p"},
	{"...", "p"},
	{"....", ""},
	{". . .", ""},
	{"…\r", "p"},
	{" … ", "p"},
	{"-…", "p"},
	{"- ...", "p"},
	{"*\t...", "p"},
	{"-- ...", ""},
	{"…x", ""},
	{"..", ""},
	{"……", ""},
	{"TODO", "p"},
	{"todo", "p"},
	{"ToDo", "p"},
	{"TODO:", "p"},
	{"TODOs", ""},
	{"TODO_", ""},
	{"TODO1", ""},
	{"TODO-x", "p"},
	{"TODO\xff", "p"},
	{"TODO\u212a", "p"},
	{"TODO…", "p"},
	{"TBD.", "p"},
	{"tbd", "p"},
	{"FIXME later", "p"},
	{"fixme", "p"},
	{"xxx", "p"},
	{"XXXX", ""},
	{"XX", ""},
	{"TOD", ""},
	{"the TODO list", ""},
	{"Result<Config, Error>", ""},
	{"x TODO", ""},
	{"- TODO: write", "p"},
	{"* TBD", "p"},
	{"-TODO", "p"},
	{"*- TODO", ""},
	{"- - TODO", ""},
	{"\t-\tTODO", "p"},
	{"<abc>", "p"},
	{"<ab>", ""},
	{"<abc", ""},
	{"abc>", ""},
	{"<a<bc>", ""},
	{"<abc>.", "p"},
	{"<abc>..", ""},
	{"<abc> .", ""},
	{"<abc>\r", "p"},
	{"<abc>\r\n", "p"},
	{"<…>", ""},
	{"<……>", ""},
	{"<………>", "p"},
	{"<\xff\xfe\xfd>", "p"},
	{"<\xff\xfe>", ""},
	{"<a\tb>", "p"},
	{"< >", ""},
	{"<   >", "p"},
	{"<abc> x", ""},
	{"x <abc>", ""},
	{"Action:<abc>", "p"},
	{"Action :<abc>", "p"},
	{"Act-ion/x 'y': <abc>", "pa"},
	{"a.b: <abc>", "a"},
	{"Action::<abc>", ""},
	{":<abc>", ""},
	{" : <abc>", ""}, // the regexp said "p": its label could be only spaces
	{"\t: <abc>", ""},
	{"  Action: <abc>", "p"},
	{"-Action: <abc>", "p"},
	{"- - Action: <abc>", "p"},
	{"\u212aey: <abc>", ""}, // the regexp said "p": (?i) folded the Kelvin sign onto k
	{"\u017fet: TODO", ""},  // the regexp said "p": (?i) folded the long s onto s
	{"é: <abc>", ""},
	{"\xff: <abc>", ""},
	{"Key\xff: <abc>", ""},
	{strings.Repeat("a", 40) + ": <abc>", "p"},
	{strings.Repeat("a", 41) + ": <abc>", ""},
	{strings.Repeat(" ", 39) + "a: TODO", "p"},
	{strings.Repeat(" ", 41) + "a: TODO", "p"},
	{strings.Repeat("\u212a", 40) + ": ...", ""}, // the regexp said "p": (?i) folded the Kelvin sign onto k
	{strings.Repeat("\u017f", 41) + ": ...", ""},
	{"- " + strings.Repeat("b", 40) + ": <abc>", "p"},
	{"-" + strings.Repeat("b", 40) + ": <abc>", "p"},
	{"ok\n<abc>\nok", "p"},
	{"ok\r\n<abc>\r\nok", "p"},
	{"-\n<abc>", "p"},
	{"Action:\n<abc>", "p"},
	{"Action:\nx", ""},
	{"<abc>\n.", "p"},
	{"\n\n...\n\n", "p"},
	{"| <system> |", "c"},
	{"|<abc>|", "c"},
	{"| <ab> |", ""},
	{"|\n<abc>\n|", "pc"},
	{"| <a|b> |", ""},
	{"| <abc> x |", ""},
	{"| <…> |", ""},
	{"| <\xff\xff\xff> |", "c"},
	{"|| <abc> ||", "c"},
	{"| <abc>", ""},
	{"<abc> |", ""},
	{"| <abc> |\r\n", "c"},
	{"|\t<a\rc>\t|", "c"},
	{"| system | identifier |\n|---|---|\n| <system> | <id> |", "c"},
	{"`", ""},
	{"``", "s"},
	{"```", "s"},
	{"`x`", "sa"},
	{"``x`", "sa"},
	{"`x``", "sa"},
	{"`a`b`c`", "sa"},
	{"`a\nb`", ""},
	{"`a\r\nb`c`", "sa"},
	{"`\xff`", "sa"},
	{"`…`", "sa"},
	{"x `TODO` y", "sa"},
	{"`TODO`", "sa"},
	{"- `<abc>`", "sa"},
	{"`<abc>`", "sa"},
	{"| `<abc>` |", "sa"},
	{"`|` <abc> |", "sa"},
	{"continue", "v"},
	{"Continue.", "v"},
	{"  - continue  ", "v"},
	{"* keep going", "v"},
	{"keep  going", ""},
	{"\u212aeep going", ""}, // the regexp said "v": (?i) folded the Kelvin sign onto k
	{"carry on.", "v"},
	{"finish", "v"},
	{"finish the task", "v"},
	{"finish up", "v"},
	{"finish the", ""},
	{"finish.", "v"},
	{"finish..", ""},
	{"pro ceed", ""},
	{"proceed\n", "v"},
	{"\nresume\n", "v"},
	{"resumes", ""},
	{"do the rest", "v"},
	{"next step", "v"},
	{"next steps", "v"},
	{"next steps.", "v"},
	{"Next Step\u017f", ""}, // the regexp said "v": (?i) folded the long s onto s
	{"see above", "v"},
	{"as before", "v"},
	{"a\u017f before", ""}, // the regexp said "v": (?i) folded the long s onto s
	{"continue\r\n", "v"},
	{"-\ncontinue", "v"},
	{"--continue", ""},
	{"- * continue", ""},
	{"continue!", ""},
	{"a/b", "a"},
	{"/b", "a"},
	{"a/", ""},
	{"./x", "a"},
	{"~/x", "a"},
	{"/", ""},
	{"//", "a"},
	{"/.", "a"},
	{"/-", "a"},
	{"/_", "a"},
	{"/é", ""},
	{"x.go", "a"},
	{"x.", ""},
	{".go", ""},
	{"-.go", ""},
	{"a-.go", "a"},
	{"-a.go", "a"},
	{"--.go", ""},
	{"a.go_", ""},
	{"a.gooooooo", "a"},
	{"a.goooooooo", ""},
	{"a.123456789", ""},
	{"a.12345678", "a"},
	{"a_.b", "a"},
	{"_.b", "a"},
	{"x.go:12", "a"},
	{"é.go", ""},
	{"a.\u212a", ""},
	{"expect", "e"},
	{"EXPECT", "e"},
	{"should", "e"},
	{"→", "e"},
	{"->", "e"},
	{"=>", "e"},
	{"so that", "e"},
	{"so  that", ""},
	{"until", "e"},
	{"passes", "e"},
	{"pa\u017f\u017fes", ""}, // the regexp said "e": (?i) folded the long s onto s
	{"fails with", "e"},
	{"returns", "e"},
	{"prints", "e"},
	{"exit 0", "e"},
	{"exits 0", "e"},
	{"exit  0", ""},
	{"exit0", ""},
	{"exi", ""},
	{"\xe2\x86", ""},
	{"- >", ""},
}

// textFlags is the want of textCases for s, as the rules answer.
func textFlags(s string) string {
	var b []byte
	for i, ok := range []bool{hasPlaceholderLine(s), hasPlaceholderCell(s), hasCodeSpan(s), isVague(s), hasAnchor(s), hasExpectation(s)} {
		if ok {
			b = append(b, "pcsvae"[i])
		}
	}
	return string(b)
}

func hasCodeSpan(s string) bool { _, _, ok := nextCodeSpan(s, 0); return ok }

func TestTextRules(t *testing.T) {
	for _, tt := range textCases {
		if got := textFlags(tt.in); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCodeSpansTable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"`x`", "code"},
		{"a `x` b `y` c", "a code b code c"},
		{"``", "code"},
		{"```", "code`"},
		{"``x`", "codex`"},
		{"`a\nb` `c`", "`a\nbcodec`"}, // the first span is unclosed on its line
		{"`\xff`", "code"},
		{"`unclosed\n`closed`", "`unclosed\ncode"},
	}
	for _, tt := range tests {
		if got := replaceCodeSpans(tt.in); got != tt.want {
			t.Errorf("replaceCodeSpans(%q) = %q, want %q", tt.in, got, tt.want)
		}
		checkAgainstRegexps(t, tt.in)
	}
}

// The regexps the rules were first written as. Outside the departures textCases marks
// (departs), they still agree on every input: the tests below hold them to it.
var (
	placeholderRE     = regexp.MustCompile(`(?im)^\s*(?:[-*]\s*)?(?:[\w '/-]{1,40}:\s*)?(?:<[^<>\n]{3,}>\.?|(?:TODO|TBD|FIXME|XXX)\b.*|\.\.\.|…)\s*$`)
	cellPlaceholderRE = regexp.MustCompile(`\|\s*<[^<>|\n]{3,}>\s*\|`)
	codeSpanRE        = regexp.MustCompile("`[^`\n]*`")
	vagueRE           = regexp.MustCompile(`(?i)^\s*[-*]?\s*(continue|keep going|carry on|finish( the task| up)?|proceed|resume|do the rest|next steps?|see above|as before)\.?\s*$`)
	anchorRE          = regexp.MustCompile("`[^`\n]+`" + `|[\w.~-]*/[\w./-]+|\b[\w-]+\.[A-Za-z0-9]{1,8}\b`)
	expectRE          = regexp.MustCompile(`(?i)(expect|should|→|->|=>|so that|until|passes|fails with|returns|prints|exits? 0)`)
)

// departs reports whether s is where the rules knowingly answer otherwise than the regexps:
// it holds the Kelvin sign or the long s (regexp's (?i) folds them onto k and s), or a line
// whose label, after blanks and a bullet, is only spaces (" : <abc>", which the regexp's \s*
// and label could split between them).
func departs(s string) bool {
	if strings.ContainsAny(s, "\u212a\u017f") {
		return true
	}
	for line := range strings.SplitSeq(s, "\n") {
		l := strings.TrimLeft(line, blanks)
		if l != "" && (l[0] == '-' || l[0] == '*') {
			l = strings.TrimLeft(l[1:], blanks)
		}
		if strings.HasPrefix(l, ":") {
			return true
		}
	}
	return false
}

func TestDeparturesAreMarked(t *testing.T) {
	for _, tt := range textCases {
		re := ""
		for i, m := range matchers {
			if m.re.MatchString(tt.in) {
				re += string("pcsvae"[i])
			}
		}
		if re != tt.want && !departs(tt.in) {
			t.Errorf("%q: the rules say %q, the regexps %q, and departs does not cover it", tt.in, tt.want, re)
		}
	}
}

// matchers pairs each rule with its regexp.
var matchers = []struct {
	name  string
	match func(string) bool
	re    *regexp.Regexp
}{
	{"placeholder", hasPlaceholderLine, placeholderRE},
	{"cell", hasPlaceholderCell, cellPlaceholderRE},
	{"codespan", func(s string) bool { _, _, ok := nextCodeSpan(s, 0); return ok }, codeSpanRE},
	{"vague", isVague, vagueRE},
	{"anchor", hasAnchor, anchorRE},
	{"expect", hasExpectation, expectRE},
}

// codeSpans lists every code span nextCodeSpan finds, as FindAllStringIndex does.
func codeSpans(s string) [][]int {
	var out [][]int
	for start, end, ok := nextCodeSpan(s, 0); ok; start, end, ok = nextCodeSpan(s, end) {
		out = append(out, []int{start, end})
	}
	return out
}

// checkAgainstRegexps fails t where a rule and its regexp disagree on s, unless s is where
// they knowingly depart.
func checkAgainstRegexps(t *testing.T, s string) {
	t.Helper()
	if departs(s) {
		return
	}
	for _, m := range matchers {
		if got, want := m.match(s), m.re.MatchString(s); got != want {
			t.Errorf("%s(%q) = %v, regexp says %v", m.name, s, got, want)
		}
	}
	if got, want := codeSpans(s), codeSpanRE.FindAllStringIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("code spans of %q = %v, regexp says %v", s, got, want)
	}
	if got, want := replaceCodeSpans(s), codeSpanRE.ReplaceAllString(s, "code"); got != want {
		t.Errorf("replaceCodeSpans(%q) = %q, regexp says %q", s, got, want)
	}
	// The checks as the verifier composes them.
	if got, want := isPlaceholderText(s), placeholderRE.MatchString(codeSpanRE.ReplaceAllString(s, "code")); got != want {
		t.Errorf("isPlaceholderText(%q) = %v, regexp says %v", s, got, want)
	}
	if got, want := hasPlaceholderCell(replaceCodeSpans(s)), cellPlaceholderRE.MatchString(codeSpanRE.ReplaceAllString(s, "code")); got != want {
		t.Errorf("cell placeholder in %q without code = %v, regexp says %v", s, got, want)
	}
}

// TestTextRulesAgainstRegexps: on the cases and each pair of them, joined as they might be in
// a section body, the rules agree with the regexps outside the departures.
func TestTextRulesAgainstRegexps(t *testing.T) {
	for _, tt := range textCases {
		checkAgainstRegexps(t, tt.in)
	}
	for _, a := range textCases {
		for _, b := range textCases {
			for _, sep := range []string{"", "\n", " "} {
				checkAgainstRegexps(t, a.in+sep+b.in)
			}
		}
		if t.Failed() {
			return
		}
	}
}

// TestTextRulesLong: very long lines agree and take linear time.
func TestTextRulesLong(t *testing.T) {
	const n = 1 << 16
	for _, s := range []string{
		strings.Repeat(" ", n) + "TODO",
		strings.Repeat(" ", n) + "a: <abc>",
		strings.Repeat(" ", n) + "-" + strings.Repeat(" ", n) + "a: <abc>",
		"- " + strings.Repeat(" ", n) + "x",
		strings.Repeat("a", n) + ": <abc>",
		"<" + strings.Repeat("x", n) + ">",
		"<" + strings.Repeat("x", n),
		strings.Repeat("|", n),
		strings.Repeat("| ", n) + "<abc> |",
		strings.Repeat("|\n<", n),
		strings.Repeat("`", n),
		strings.Repeat("`x", n),
		strings.Repeat("`\n", n),
		strings.Repeat("a", n) + ".go",
		strings.Repeat("-", n) + ".go",
		strings.Repeat("a.", n),
		strings.Repeat(".", n),
		strings.Repeat("/", n),
		strings.Repeat("\u212a", n),
		strings.Repeat("\xff", n) + "TODO",
		strings.Repeat("finish ", n),
		strings.Repeat("exit ", n) + "0",
		strings.Repeat("continue\n", n),
	} {
		checkAgainstRegexps(t, s)
	}
}

// fragments are what TestTextRulesRandom builds its inputs from: pieces of each pattern,
// their neighbours, and the characters that make them tricky.
var fragments = []string{
	"", " ", "  ", "\t", "\n", "\r\n", "\r", "\f", "\v", "-", "*", ":", ".", "...", "…", "'", "/", "~", "_", "|", "`", "<", ">",
	"a", "Z", "0", "1", "x", "é", "\u212a", "\u017f", "\xff", "\xe2\x80", "\u2192",
	"TODO", "todo", "TBD", "FIXME", "XXX", "abc", "the", "go", "x.go", "a/b", "Action", "<abc>", "<ab>", "| <abc> |", "`x`",
	"continue", "keep", "going", "carry on", "finish", " the task", " up", "proceed", "resume", "do the rest", "next step", "s", "see above", "as before",
	"expect", "should", "->", "=>", "so that", "until", "passes", "fails with", "returns", "prints", "exit", " 0",
	strings.Repeat("w", 38),
}

// TestTextRulesRandom checks the rules against the regexps on many inputs built from fragments
// (a fixed seed, so a failure repeats).
func TestTextRulesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	var b strings.Builder
	for range n {
		b.Reset()
		for range r.IntN(10) {
			b.WriteString(fragments[r.IntN(len(fragments))])
		}
		checkAgainstRegexps(t, b.String())
		if t.Failed() {
			return
		}
	}
}

// FuzzTextRules checks that each rule agrees with the regexp it was first written as, outside
// the departures: the same match or not, and for code spans the same spans and replacement.
func FuzzTextRules(f *testing.F) {
	for _, tt := range textCases {
		f.Add(tt.in)
	}
	if b, err := os.ReadFile("testdata/good.md"); err == nil {
		f.Add(string(b))
		f.Add(strings.ReplaceAll(string(b), "\n", "\r\n"))
	}
	f.Add(Template(Header{Session: goodSession, Model: "m", Cwd: "/x", Compactions: 1}))
	f.Fuzz(checkAgainstRegexps)
}
