package checkpoint

import (
	"slices"
	"strings"
)

// Verify commands that cannot answer. Reconcile reads exit 0 as applied and exit 1 as not
// applied (any other exit is no answer), so a verify command must exit 0 or 1 according to the
// world, and with another code when it could not look. verifyCommand names the shapes that do
// not, with what to write instead.
const (
	fixRevParse = "`git rev-parse --verify --quiet refs/heads/NAME` (0 when the branch exists, 1 when not)"
	fixLsRemote = "`git ls-remote --exit-code origin refs/heads/NAME >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s` " +
		"(--exit-code's 2, no such ref, becomes 1; a failure such as 128, no network, stays no answer)"
	fixGhPrList = "`n=$(gh pr list --head NAME --state all --json number --jq length) || exit 3; [ \"$n\" -gt 0 ]` " +
		"(a gh failure exits 3: no answer; else 0 when a PR exists, 1 when none)"
	fixCapture = "capture the output first, so that a failure is no answer: `out=$(CMD) || exit 3; printf '%s\\n' \"$out\" | grep -q PATTERN`"
)

// verifyCommand returns what is wrong with a verify command's shape, or "".
func verifyCommand(c string) string {
	c = strings.TrimSpace(c)
	switch {
	case negatesPipeline(c):
		return "a leading `!` inverts every exit: a failure (128, no network, no auth) becomes 0 and reads as applied: test for the opposite instead, e.g. `[ -z \"$out\" ]` after " + fixCapture
	case strings.Contains(c, "git branch") && (strings.Contains(c, "--list") || hasWord(c, "-l")) && !testsOutput(c):
		return "`git branch --list` exits 0 whether or not the branch exists, so reconcile would read every answer as applied: write " + fixRevParse
	case strings.Contains(c, "gh pr list") && !testsOutput(c):
		return "`gh pr list` exits 0 whether or not a PR matches, so reconcile would read every answer as applied: test its output, e.g. " + fixGhPrList
	case strings.Contains(c, "ls-remote") && !strings.Contains(c, "--exit-code") && !testsOutput(c):
		return "`git ls-remote` without --exit-code exits 0 whether or not the ref exists, so reconcile would read every answer as applied: write " + fixLsRemote
	case strings.Contains(c, "ls-remote") && strings.Contains(c, "--exit-code") && !strings.Contains(c, "$?"):
		return "`git ls-remote --exit-code` exits 2 when the ref is missing, which reconcile reads as no answer (UNVERIFIABLE), never as not applied: map 2 to 1: " + fixLsRemote
	case hasWord(c, "gh") && !testsOutput(c):
		return "gh exits 1 for any failure (no auth, no network) as it does for \"not found\", so a failure would read as not applied: capture and test its output, e.g. " + fixGhPrList
	case hidesFailure(c) && !capturesStatus(c):
		return "the exit of a pipeline is its last command's, and `$(…)` drops the inner command's: when the first command fails (no network, no auth) this reads as not applied; " + fixCapture
	}
	return ""
}

// negatesPipeline reports whether c has sh's pipeline negation: a `!` word where a command
// starts (at the start, or after ; & | ( { or a newline). `[ ! -f x ]` and `!=` are test's own.
func negatesPipeline(c string) bool {
	for i := 0; i < len(c); i++ {
		if c[i] != '!' || (i+1 < len(c) && c[i+1] != ' ' && c[i+1] != '\t' && c[i+1] != '\n') {
			continue
		}
		j := i
		for j > 0 && (c[j-1] == ' ' || c[j-1] == '\t') {
			j--
		}
		if j == 0 {
			return true
		}
		switch c[j-1] {
		case ';', '&', '|', '(', '{', '\n':
			return true
		}
		if strings.HasSuffix(c[:j], "then") || strings.HasSuffix(c[:j], "do") || strings.HasSuffix(c[:j], "else") {
			return true
		}
	}
	return false
}

// testsOutput reports whether a command tests something's output (so its exit is not simply
// the listing command's 0).
func testsOutput(c string) bool {
	return slices.ContainsFunc([]string{"[", "[[", "test", "grep", "case"}, func(w string) bool { return hasWord(c, w) })
}

// hidesFailure reports whether a command has a pipe or a command substitution, whose exit code
// is not the first command's.
func hidesFailure(c string) bool {
	return strings.Contains(strings.ReplaceAll(c, "||", ""), "|") || strings.Contains(c, "$(") || strings.Contains(c, "`")
}

// capturesStatus reports whether a command handles a failure of its inner commands itself.
// (Not `set -o pipefail`: reconcile runs sh, and dash has no pipefail.)
func capturesStatus(c string) bool {
	return strings.Contains(c, "|| exit") || strings.Contains(c, "$?")
}

// hasWord reports whether w appears in c as a shell word (between blanks, operators or quotes).
func hasWord(c, w string) bool {
	for i := 0; ; {
		j := strings.Index(c[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || isWordBreak(c[j-1])) && (end == len(c) || isWordBreak(c[end])) {
			return true
		}
		i = j + 1
	}
}

func isWordBreak(b byte) bool {
	switch b {
	case ' ', '\t', '\n', ';', '&', '|', '(', ')', '!', '"', '\'', '`', '$', '{', '}':
		return true
	}
	return false
}
