package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/state"

	"github.com/zoneline/zoneline/internal/testtmp"
)

const goodSession = "730c8849-a6f0-454b-a922-063e0b765bf2"

func good(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/good.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParse(t *testing.T) {
	c := Parse(good(t))
	if c.TitleLine != 1 {
		t.Errorf("TitleLine = %d", c.TitleLine)
	}
	h := c.Header
	if h.Session != goodSession || h.Model != "claude-opus-5-5" || h.Cwd != "/home/user/project" || h.Compactions != 1 ||
		!h.Time.Equal(time.Date(2026, 11, 29, 22, 14, 0, 0, time.UTC)) {
		t.Errorf("header = %+v", h)
	}
	var names []string
	for _, s := range c.Sections {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != strings.Join(Sections, ",") {
		t.Errorf("sections = %v", names)
	}
	if s := c.Section("Next"); s == nil || s.Line != 16 || s.BodyLine != 17 || !strings.HasPrefix(s.Body, "- Action:") {
		t.Errorf("Next = %+v", s)
	}
	if len(c.External) != 3 {
		t.Fatalf("External = %+v", c.External)
	}
	r := c.External[0]
	if r.System != "git" || r.Applied != "yes" || r.Idempotent != "no" || r.Verify != "git ls-remote --exit-code origin refs/heads/fix/login >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s" || r.Line != 32 {
		t.Errorf("row 0 = %+v", r)
	}
	if got := c.External[1].Verify; got != `n=$(gh pr list --head fix/login --state all --json number --jq length) || exit 3; [ "$n" -gt 0 ]` {
		t.Errorf("row 1 verify = %q (a pipe in a code span must stay in the cell)", got)
	}
	if c.External[2].Verify != "" || c.External[2].Idempotent != "yes" {
		t.Errorf("row 2 = %+v", c.External[2])
	}
}

func TestSplitRow(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"| a | b |", []string{"a", "b"}},
		{"a | b", []string{"a", "b"}},
		{"| a \\| b | c |", []string{"a | b", "c"}},
		{"| `x | y` | z |", []string{"`x | y`", "z"}},
		{"| a |  |", []string{"a", ""}},
	}
	for _, tt := range tests {
		if got := splitRow(tt.in); strings.Join(got, "¦") != strings.Join(tt.want, "¦") {
			t.Errorf("splitRow(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestVerifyGood(t *testing.T) {
	if ps := Verify(Parse(good(t)), VerifyOptions{Session: goodSession}); len(ps) != 0 {
		t.Fatalf("good checkpoint has problems: %v", ps)
	}
}

// TestVerify breaks the good checkpoint one rule at a time: each edit must produce a problem
// that names the rule, on the expected line, and nothing else.
func TestVerify(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string) string
		opts    VerifyOptions
		line    int
		wantMsg string
	}{
		{"title missing", repl("# zoneline checkpoint\n", ""), VerifyOptions{}, 1, "missing the title"},
		{"header key missing", repl("model: claude-opus-5-5\n", ""), VerifyOptions{}, 1, `missing "model: …"`},
		{"session not a uuid", repl("session: "+goodSession, "session: abc"), VerifyOptions{}, 2, "not a session id"},
		{"other session", nil, VerifyOptions{Session: "00000000-0000-0000-0000-000000000000"}, 2, "not this session"},
		{"bad time", repl("time: 2026-11-29T22:14:00Z", "time: yesterday"), VerifyOptions{}, 5, "not an RFC 3339 time"},
		{"bad compactions", repl("compactions: 1", "compactions: one"), VerifyOptions{}, 6, "whole number"},
		{"section missing", repl("## Rules\n- Never push to main; PRs only.\n\n", ""), VerifyOptions{}, 26, `missing section "## Rules"`},
		{"section last missing", repl("## Pointers\n- auth/session.go\n- docs/auth.md\n", ""), VerifyOptions{}, 39, `missing section "## Pointers"`},
		{"section out of order", swap("## Decisions\n- Keep the cookie name? — yes — mobile clients read it.\n\n", "## Abandoned\n- Clearing cookies in middleware — broke SSO; do not retry.\n\n"), VerifyOptions{}, 23, `"Decisions" is out of order`},
		{"section twice", repl("## Skills\nnone\n", "## Skills\nnone\n\n## Skills\nnone\n"), VerifyOptions{}, 39, "appears twice"},
		{"unknown section", repl("## Skills\n", "## Notes\nx\n\n## Skills\n"), VerifyOptions{}, 36, `unknown section "Notes"`},
		{"empty section", repl("- Never push to main; PRs only.\n", ""), VerifyOptions{}, 26, `"Rules" is empty`},
		{"placeholder angle", repl("- Never push to main; PRs only.", "<constraints settled this session>"), VerifyOptions{}, 27, `"Rules" is still a placeholder`},
		{"placeholder TODO", repl("- Keep the cookie name? — yes — mobile clients read it.", "TODO"), VerifyOptions{}, 21, `"Decisions" is still a placeholder`},
		{"placeholder after a label", repl("- Never push to main; PRs only.", "- Rule: <a rule>"), VerifyOptions{}, 27, `"Rules" is still a placeholder`},
		{"goal none", repl(`"Fix the login redirect loop on /account and open a PR against main."`, "none"), VerifyOptions{}, 9, `"Goal" is still a placeholder`},
		{"next vague", repl("- Action: edit auth/session.go so the cookie path is \"/\", then run `go test ./auth`\n- Expected: TestRedirect passes", "continue"), VerifyOptions{}, 17, "not a concrete action"},
		{"next no anchor", repl("- Action: edit auth/session.go so the cookie path is \"/\", then run `go test ./auth`", "- Action: fix the cookie"), VerifyOptions{}, 17, "names no file or command"},
		{"next no expected", repl("- Expected: TestRedirect passes", ""), VerifyOptions{}, 17, "no expected result"},
		{"external not a table", repl("| local | go build cache warmed | yes | yes | |\n", "").replaceTable(), VerifyOptions{}, 30, "not a table"},
		{"external column missing", repl("| system | identifier | applied | idempotent | verify |", "| system | id | applied | idempotent | verify |"), VerifyOptions{}, 30, `missing column "identifier"`},
		{"external no verify", repl("| yes | no | `git ls-remote --exit-code origin refs/heads/fix/login >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s` |", "| yes | no | |"), VerifyOptions{}, 32, "not idempotent and has no verify command"},
		{"external applied bad", repl("| PR for fix/login | no |", "| PR for fix/login | maybe |"), VerifyOptions{}, 33, "applied is \"maybe\""},
		{"external idempotent bad", repl("| go build cache warmed | yes | yes | |", "| go build cache warmed | yes | sometimes | `true` |"), VerifyOptions{}, 34, "idempotent is \"sometimes\""},
		{"external cells", repl("| local | go build cache warmed | yes | yes | |", "| local | go build cache warmed | yes | yes | | x |"), VerifyOptions{}, 34, "has 6 cells"},
		{"over budget", nil, VerifyOptions{Budget: 500}, 17, "over the 500-character restore budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := good(t)
			if tt.edit != nil {
				text = tt.edit(text)
				if text == good(t) {
					t.Fatal("the edit changed nothing")
				}
			}
			ps := Verify(Parse(text), tt.opts)
			if len(ps) != 1 {
				t.Fatalf("got %d problems, want 1: %v", len(ps), ps)
			}
			if ps[0].Line != tt.line || !strings.Contains(ps[0].Msg, tt.wantMsg) {
				t.Errorf("got %v, want line %d containing %q", ps[0], tt.line, tt.wantMsg)
			}
		})
	}
}

type editFn func(string) string

func repl(old, new string) editFn {
	return func(s string) string { return strings.Replace(s, old, new, 1) }
}

// replaceTable turns the External state section's body into prose (after e).
func (e editFn) replaceTable() editFn {
	return func(s string) string {
		s = e(s)
		i := strings.Index(s, "| system")
		j := strings.Index(s, "\n## Skills")
		return s[:i] + "pushed the branch\n" + s[j:]
	}
}

func swap(a, b string) editFn {
	return func(s string) string {
		return strings.Replace(s, a+b, b+a, 1)
	}
}

func TestVerifyNoneSections(t *testing.T) {
	text := good(t)
	i := strings.Index(text, "| system")
	j := strings.Index(text, "\n## Skills")
	text = text[:i] + "none\n" + text[j:]
	if ps := Verify(Parse(text), VerifyOptions{}); len(ps) != 0 {
		t.Errorf("\"none\" external state: %v", ps)
	}
}

func TestTemplateFailsUntilFilled(t *testing.T) {
	tpl := Template(Header{Session: goodSession, Model: "m", Cwd: "/p", Time: time.Unix(0, 0), Compactions: 2})
	c := Parse(tpl)
	if c.Header.Session != goodSession || c.Header.Compactions != 2 || c.Header.Time.IsZero() {
		t.Errorf("template header = %+v", c.Header)
	}
	ps := Verify(c, VerifyOptions{Session: goodSession})
	placeholders := 0
	for _, p := range ps {
		if strings.Contains(p.Msg, "placeholder") {
			placeholders++
		}
	}
	if placeholders != len(Sections) {
		t.Errorf("template: %d placeholder problems, want %d: %v", placeholders, len(Sections), ps)
	}
}

func TestBudgetLine(t *testing.T) {
	text := "ab\ncd\nef\n"
	for budget, want := range map[int]int{1: 1, 3: 2, 5: 2, 6: 3, 8: 3} {
		if got := budgetLine(text, budget); got != want {
			t.Errorf("budgetLine(%d) = %d, want %d", budget, got, want)
		}
	}
}

func TestPath(t *testing.T) {
	d := state.Dir{Root: testtmp.Dir(t)}
	p, err := Path(d, strings.ToUpper(goodSession))
	if err != nil || p != filepath.Join(d.Root, "sessions", goodSession, FileName) {
		t.Errorf("Path = %q, %v", p, err)
	}
	if _, err := Path(d, "../../etc"); err == nil {
		t.Error("Path accepted a non-UUID id")
	}
}

// TestVerifyRealContent: text that merely contains what a placeholder looks like (a generic
// type, the word TODO, angle brackets in code) is content, not a placeholder.
func TestVerifyRealContent(t *testing.T) {
	base := good(t)
	for _, tc := range []struct{ from, to string }{
		{`"Fix the login redirect loop on /account and open a PR against main."`, "Make `parse() -> Result<Config, Error>` accept empty files."},
		{"- Keep the cookie name? — yes — mobile clients read it.", "- Keep the TODO list in docs/todo.md? — yes — the team reads it."},
		{"- Never push to main; PRs only.", "- Templates use <%= name %> and Vec<Option<T>> stays as it is."},
	} {
		text := strings.Replace(base, tc.from, tc.to, 1)
		if text == base {
			t.Fatalf("fixture changed: %q not found", tc.from)
		}
		if ps := Verify(Parse(text), VerifyOptions{}); len(ps) > 0 {
			t.Errorf("%q: %v", tc.to, ps)
		}
	}
}
