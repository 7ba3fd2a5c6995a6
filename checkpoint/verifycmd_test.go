package checkpoint

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/skills"
)

// TestVerifyCommand is issue 12 item 2: verify flags the verify commands that exit 0 whatever
// the answer, or read a failed check as "not applied", and says what to write instead.
func TestVerifyCommand(t *testing.T) {
	tests := []struct {
		cmd  string
		want string // a phrase of the problem; "" = accepted
		fix  string // a phrase of the suggestion
	}{
		// exit 0 whatever the answer
		{"git branch --list fix/login", "exits 0 whether or not the branch exists", "git rev-parse --verify --quiet refs/heads/"},
		{"git branch -l fix/login", "exits 0 whether or not the branch exists", "git rev-parse"},
		{"gh pr list --head fix/login", "exits 0 whether or not a PR matches", `[ "$n" -gt 0 ]`},
		{"gh pr list --head fix/login --json number --jq length", "exits 0 whether or not a PR matches", "|| exit 3"},
		{"git ls-remote origin fix/login", "without --exit-code exits 0", "--exit-code"},
		{"git ls-remote origin refs/heads/fix/login", "without --exit-code exits 0", "[ $s -eq 2 ] && exit 1"},
		// answers that are not 0/1
		{"git ls-remote --exit-code origin fix/login", "exits 2 when the ref is missing", "[ $s -eq 2 ] && exit 1"},
		{"gh pr view fix/login", "gh exits 1 for any failure", "|| exit 3"},
		// failures that read as "not applied"
		{"gh pr view fix/login --json state | grep -q OPEN", "exit of a pipeline is its last command's", "out=$(CMD) || exit 3"},
		{`[ -n "$(git branch --list fix/login)" ]`, "drops the inner command's", "|| exit 3"},
		{`test -n "$(git ls-remote origin fix/login)"`, "drops the inner command's", "|| exit 3"},
		{"curl -sf https://example.com/health | grep -q ok", "exit of a pipeline", "|| exit 3"},
		// the shapes the skill teaches, and plain commands that follow the convention
		{"git rev-parse --verify --quiet refs/heads/fix/login", "", ""},
		{"git ls-remote --exit-code origin refs/heads/fix/login >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s", "", ""},
		{`n=$(gh pr list --head fix/login --state all --json number --jq length) || exit 3; [ "$n" -gt 0 ]`, "", ""},
		{`out=$(gh pr view 12 --json state --jq .state) || exit 3; [ "$out" = MERGED ]`, "", ""},
		{`out=$(curl -sf https://example.com/health) || exit 3; printf '%s\n' "$out" | grep -q ok`, "", ""},
		{"set -o pipefail; git log --oneline | grep -q abc123", "exit of a pipeline", "|| exit 3"}, // sh is dash here: no pipefail
		{"test -f /srv/app/migrated-0042", "", ""},
		{"grep -q 'version = 2' config.toml", "", ""},
		{"git merge-base --is-ancestor abc123 origin/main", "", ""},
		// a negated pipeline turns a failure (128) into 0: applied
		{"! git rev-parse --verify --quiet refs/heads/fix/login", "a leading `!` inverts every exit", "|| exit 3"},
		{"cd /srv && ! test -f /srv/app/lock", "a leading `!` inverts", ""},
		{"true; !\tgrep -q x f", "a leading `!` inverts", ""},
		{`[ ! -f /srv/app/lock ]`, "", ""},
		{`out=$(cat v) || exit 3; [ "$out" != 2 ]`, "", ""},
		// words that merely contain the names
		{"ghost --check", "", ""},
		{"git branch-listing-tool fix", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			got := verifyCommand(tt.cmd)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("flagged a good command: %s", got)
			case tt.want != "" && (!strings.Contains(got, tt.want) || !strings.Contains(got, tt.fix)):
				t.Errorf("got %q\nwant a problem saying %q and suggesting %q", got, tt.want, tt.fix)
			}
		})
	}
}

// TestVerifyFlagsCommands: the problem reaches Verify's output, at the row's line.
func TestVerifyFlagsCommands(t *testing.T) {
	c := table("| git | branch fix/login | yes | no | `git branch --list fix/login` |")
	ps := Verify(c, VerifyOptions{})
	for _, p := range ps {
		if p.Line == 5 && strings.Contains(p.Msg, "git rev-parse --verify --quiet") {
			return
		}
	}
	t.Errorf("no problem at line 5 for `git branch --list`: %v", ps)
}

// TestSkillVerifyExamples: every "write" example of the /compact-prep skill's verify table
// passes verify, and the first "not" example of each row is flagged.
func TestSkillVerifyExamples(t *testing.T) {
	data, err := skills.FS.ReadFile("compact-prep/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| to check") || strings.HasPrefix(line, "| system") {
			continue
		}
		cells := splitRow(line)
		if len(cells) != 3 {
			continue
		}
		rows++
		good := unquoteCode(cells[1])
		if msg := verifyCommand(good); msg != "" {
			t.Errorf("the skill teaches %q, which verify flags: %s", good, msg)
		}
		if bad, _, ok := strings.Cut(strings.TrimPrefix(cells[2], "`"), "`"); ok && cells[2] != "" {
			bad = strings.ReplaceAll(bad, `\|`, "|")
			if verifyCommand(bad) == "" {
				t.Errorf("the skill warns against %q, which verify accepts", bad)
			}
		}
	}
	if rows < 5 {
		t.Errorf("found %d example rows in the skill", rows)
	}
}
