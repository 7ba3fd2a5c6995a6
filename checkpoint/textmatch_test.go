package checkpoint

import (
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The regexps the hand-written matchers in textmatch.go replace: the oracle they must agree with.
var (
	placeholderRE     = regexp.MustCompile(`(?im)^\s*(?:[-*]\s*)?(?:[\w '/-]{1,40}:\s*)?(?:<[^<>\n]{3,}>\.?|(?:TODO|TBD|FIXME|XXX)\b.*|\.\.\.|…)\s*$`)
	cellPlaceholderRE = regexp.MustCompile(`\|\s*<[^<>|\n]{3,}>\s*\|`)
	codeSpanRE        = regexp.MustCompile("`[^`\n]*`")
	vagueRE           = regexp.MustCompile(`(?i)^\s*[-*]?\s*(continue|keep going|carry on|finish( the task| up)?|proceed|resume|do the rest|next steps?|see above|as before)\.?\s*$`)
	anchorRE          = regexp.MustCompile("`[^`\n]+`" + `|[\w.~-]*/[\w./-]+|\b[\w-]+\.[A-Za-z0-9]{1,8}\b`)
	expectRE          = regexp.MustCompile(`(?i)(expect|should|→|->|=>|so that|until|passes|fails with|returns|prints|exits? 0)`)
)

// matchers pairs each boolean matcher with its regexp.
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

// checkAgainstRegexps fails t where a matcher and its regexp disagree on s.
func checkAgainstRegexps(t *testing.T, s string) {
	t.Helper()
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

// nastyInputs are hand-picked edge cases: case folding (the Kelvin sign and the long s fold
// to k and s under (?i)), '…', CRLF, empty lines, tabs, backticks, invalid UTF-8, length bounds.
var nastyInputs = []string{
	"", " ", "\n", "\r\n", "\n\n\n", "\t", "\f", "\v", "\x00", "\xff", "\xe2\x80", "\xe2\x80\xa6",
	"…", "...", "....", ". . .", "…\r", " … ", "-…", "- ...", "*\t...", "-- ...", "…x", "..", "\u2026\u2026",
	"TODO", "todo", "ToDo", "TODO:", "TODOs", "TODO_", "TODO1", "TODO-x", "TODO\xff", "TODO\u212a", "TODO…", "TBD.", "tbd", "FIXME later", "fixme", "xxx", "XXXX", "XX", "TOD",
	"the TODO list", "Result<Config, Error>", "x TODO", "- TODO: write", "* TBD", "-TODO", "*- TODO", "- - TODO", "\t-\tTODO",
	"<abc>", "<ab>", "<abc", "abc>", "<a<bc>", "<abc>.", "<abc>..", "<abc> .", "<abc>\r", "<abc>\r\n", "<…>", "<……>", "<………>", "<\xff\xfe\xfd>", "<\xff\xfe>", "<a\tb>", "< >", "<   >", "<abc> x", "x <abc>",
	"<the user's ask>", "- Action: <what to do>", "Action:<abc>", "Action :<abc>", "Act-ion/x 'y': <abc>", "a.b: <abc>", "Action::<abc>", ":<abc>", " : <abc>", "\t: <abc>", "  Action: <abc>", "-Action: <abc>", "- - Action: <abc>",
	"\u212aey: <abc>", "\u017fet: TODO", "é: <abc>", "\xff: <abc>", "Key\xff: <abc>",
	strings.Repeat("a", 40) + ": <abc>", strings.Repeat("a", 41) + ": <abc>", strings.Repeat(" ", 39) + "a: TODO", strings.Repeat(" ", 41) + "a: TODO",
	strings.Repeat("\u212a", 40) + ": ...", strings.Repeat("\u017f", 41) + ": ...", "- " + strings.Repeat("b", 40) + ": <abc>", "-" + strings.Repeat("b", 40) + ": <abc>",
	"ok\n<abc>\nok", "ok\r\n<abc>\r\nok", "-\n<abc>", "Action:\n<abc>", "Action:\nx", "<abc>\n.", "\n\n...\n\n",
	"| <system> |", "|<abc>|", "| <ab> |", "|\n<abc>\n|", "| <a|b> |", "| <abc> x |", "| <…> |", "| <\xff\xff\xff> |", "|| <abc> ||", "| <abc>", "<abc> |", "| <abc> |\r\n", "|\t<a\rc>\t|",
	"| system | identifier |\n|---|---|\n| <system> | <id> |",
	"`", "``", "```", "`x`", "``x`", "`x``", "`a`b`c`", "`a\nb`", "`a\r\nb`c`", "`\xff`", "`…`", "x `TODO` y", "`TODO`", "- `<abc>`", "`<abc>`", "| `<abc>` |", "`|` <abc> |",
	"continue", "Continue.", "  - continue  ", "* keep going", "keep  going", "\u212aeep going", "carry on.", "finish", "finish the task", "finish up", "finish the", "finish.", "finish..",
	"pro ceed", "proceed\n", "\nresume\n", "resumes", "do the rest", "next step", "next steps", "next steps.", "Next Step\u017f", "see above", "as before", "a\u017f before", "continue\r\n", "-\ncontinue", "--continue", "- * continue", "continue!",
	"`x`", "a/b", "/b", "a/", "./x", "~/x", "/", "//", "/.", "/-", "/_", "/é", "x.go", "x.", ".go", "-.go", "a-.go", "-a.go", "--.go", "a.go_", "a.gooooooo", "a.goooooooo", "a.123456789", "a.12345678", "a_.b", "_.b", "x.go:12", "é.go", "a.\u212a",
	"expect", "EXPECT", "should", "→", "->", "=>", "so that", "so  that", "until", "passes", "pa\u017f\u017fes", "fails with", "returns", "prints", "exit 0", "exits 0", "exit  0", "exit0", "exi", "\u2192", "\xe2\x86", "- >",
}

func TestTextMatchersTable(t *testing.T) {
	type want struct{ placeholder, cell, vague, anchor, expect bool }
	tests := []struct {
		in string
		want
	}{
		{"<the user's ask>", want{placeholder: true}},
		{"- Action: <what to do>", want{placeholder: true}},
		{"Result<Config, Error> parses", want{anchor: false}},
		{"the TODO list is done", want{}},
		{"TODO", want{placeholder: true}},
		{"TODOs remain", want{}},
		{"todo: later", want{placeholder: true}},
		{"x TODO", want{}},
		{"...", want{placeholder: true}},
		{"…", want{placeholder: true}},
		{"....", want{}},
		{"<ab>", want{}},
		{"<…>", want{}}, // one rune, not three
		{"<\xff\xfe\xfd>", want{placeholder: true}},
		{"ok\r\n  - Step: <abc>.\r\nok", want{placeholder: true}},
		{strings.Repeat("a", 40) + ": <abc>", want{placeholder: true}},
		{strings.Repeat("a", 41) + ": <abc>", want{}},
		{"\u212aey: <abc>", want{placeholder: true}}, // (?i)\w takes in the Kelvin sign
		{"| <system> |", want{cell: true}},
		{"|\n<system>\n|", want{placeholder: true, cell: true}},
		{"| <ab> |", want{}},
		{"continue", want{vague: true}},
		{"  - Keep going.\n", want{vague: true}},
		{"\u212aeep going", want{vague: true}},
		{"finish the task", want{vague: true}},
		{"finish the", want{}},
		{"continue with x.go", want{anchor: true}},
		{"run `go test`", want{anchor: true}},
		{"run ``", want{}},
		{"edit a/b", want{anchor: true}},
		{"edit x.go:12", want{anchor: true}},
		{"edit a.go_", want{}},
		{"edit --.go", want{}},
		{"edit a.123456789", want{}},
		{"edit a.12345678", want{anchor: true}},
		{"it should pass", want{expect: true}},
		{"PA\u017f\u017fES", want{expect: true}},
		{"x → y", want{expect: true}},
		{"exit 0", want{expect: true}},
		{"exit0", want{}},
	}
	for _, tt := range tests {
		got := want{hasPlaceholderLine(tt.in), hasPlaceholderCell(tt.in), isVague(tt.in), hasAnchor(tt.in), hasExpectation(tt.in)}
		if got != tt.want {
			t.Errorf("%q: got %+v, want %+v", tt.in, got, tt.want)
		}
		checkAgainstRegexps(t, tt.in)
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

func TestTextMatchersNasty(t *testing.T) {
	for _, s := range nastyInputs {
		checkAgainstRegexps(t, s)
	}
	// and each pair of them, joined as they might be in a section body
	for _, a := range nastyInputs {
		for _, b := range nastyInputs {
			for _, sep := range []string{"", "\n", " "} {
				checkAgainstRegexps(t, a+sep+b)
			}
		}
		if t.Failed() {
			return
		}
	}
}

// TestTextMatchersLong: very long lines agree and take linear time.
func TestTextMatchersLong(t *testing.T) {
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

// fragments are what TestTextMatchersRandom builds its inputs from: pieces of each pattern,
// their neighbours, and the characters that make them tricky.
var fragments = []string{
	"", " ", "  ", "\t", "\n", "\r\n", "\r", "\f", "\v", "-", "*", ":", ".", "...", "…", "'", "/", "~", "_", "|", "`", "<", ">",
	"a", "Z", "0", "1", "x", "é", "\u212a", "\u017f", "\xff", "\xe2\x80", "\u2192",
	"TODO", "todo", "TBD", "FIXME", "XXX", "abc", "the", "go", "x.go", "a/b", "Action", "<abc>", "<ab>", "| <abc> |", "`x`",
	"continue", "keep", "going", "carry on", "finish", " the task", " up", "proceed", "resume", "do the rest", "next step", "s", "see above", "as before",
	"expect", "should", "->", "=>", "so that", "until", "passes", "fails with", "returns", "prints", "exit", " 0",
	strings.Repeat("w", 38),
}

// TestTextMatchersRandom checks the matchers against the regexps on many inputs built from
// fragments (a fixed seed, so a failure repeats).
func TestTextMatchersRandom(t *testing.T) {
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

// FuzzTextMatchers checks that each hand-written matcher agrees with the regexp it replaced:
// the same match or not, and for code spans the same spans and the same replacement.
func FuzzTextMatchers(f *testing.F) {
	for _, s := range nastyInputs {
		f.Add(s)
	}
	if b, err := os.ReadFile("testdata/good.md"); err == nil {
		f.Add(string(b))
		f.Add(strings.ReplaceAll(string(b), "\n", "\r\n"))
	}
	f.Add(Template(Header{Session: goodSession, Model: "m", Cwd: "/x", Compactions: 1}))
	f.Fuzz(checkAgainstRegexps)
}
