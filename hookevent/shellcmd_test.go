package hookevent

import "testing"

// TestNeutralCommands: a Bash call is neutral (only looks) only from the strict list, with no
// option that writes a file or runs a program, no substitution, redirection into a file or
// command list (issue 22 item 5's near misses among them).
func TestNeutralCommands(t *testing.T) {
	for _, tc := range []struct {
		cmd     string
		neutral bool
	}{
		{"git status", true},
		{"git log --oneline -5", true},
		{"git --no-pager diff HEAD~1 -- main.go", true},
		{"git -C sub status --short", true},
		{"git branch --show-current", true},
		{"git stash list", true},
		{"ls -la", true},
		{"ls -la src/ 2>/dev/null", true},
		{"cat f", true},
		{"cat 'a file.txt'", true},
		{"head -n 20 main.go", true},
		{"tail -f log.txt", true},
		{"wc -l *.go", true},
		{"rg foo", true},
		{"rg -n 'func main' --type go", true},
		{"grep -rn TODO .", true},
		{"sed -n 1,5p f", true},
		{"sed -n '/^func/p' main.go", true},
		{"sed -n -e '10,20p' f", true},
		{"find . -name '*.go' -newer go.mod", true},
		{"tree -L 2", true},
		{"uniq notes.txt", true},
		{"uniq -c -f 2 notes.txt", true},
		{"git log | head -20", true},
		{"pwd", true},
		{"jq .version package.json", true},
		{"diff a.txt b.txt", true},
		{"ls # rm -rf /", true},

		// issue 22 item 5: not read-only
		{"uniq notes.txt main.go", false},
		{"tree -o FILE", false},
		{"tree -aRo x", false},
		{"sed -n '1e CMD'", false},
		{"sed -n '1e CMD' f", false},
		{"git -c core.fsmonitor=CMD status", false},
		{"git -c alias.x=!sh x", false},
		{"rg --pre CMD foo", false},
		{"rg --pre=CMD foo", false},
		{"rg -z foo", false},
		// writes, runs or substitutes
		{"sed -n 'w out' f", false},
		{"sed -n 1p f -i", false},
		{"sed -i s/a/b/ f", false},
		{"sed -n -f script.sed f", false},
		{"sed 's/a/b/' f", false},
		{"sed -n 's/a/b/p' f", false},
		{"sed -n '1r /etc/passwd' f", false},
		{"find . -delete", false},
		{"find . -exec rm {} +", false},
		{"find . -fprint out", false},
		{"git diff --output=patch", false},
		{"git diff --ext-diff", false},
		{"git grep -Ovim foo", false},
		{"git branch new-branch", false},
		{"git stash", false},
		{"git push", false},
		{"git checkout -- main.go", false},
		{"date -s 2020-01-01", false},
		{"file -C -m magic", false},
		{"cat f > g", false},
		{"cat f >> g", false},
		{"ls > out.txt", false},
		{"cat $(rm -rf ~)", false},
		{"cat `rm -rf ~`", false},
		{"cat <(rm x)", false},
		{"echo $HOME", false},
		{"ls && rm -rf build", false},
		{"git status; rm x", false},
		{"git status\nrm x", false},
		{"ls & rm x", false},
		{"git status || rm x", false},
		{"(rm x)", false},
		{"{ ls; }", false},
		{"cat <<EOF\nx\nEOF", false},
		{"FOO=1 ls", false},
		{"RIPGREP_CONFIG_PATH=/tmp/x rg foo", false},
		{"/tmp/ls", false},
		{"./cat f", false},
		{"cat 'unterminated", false},
		{"rm -rf build", false},
		{"go test ./...", false},
		{"npm publish", false},
		{"", false},
	} {
		if got := readOnlyCommand(tc.cmd); got != tc.neutral {
			t.Errorf("readOnlyCommand(%q) = %v, want %v", tc.cmd, got, tc.neutral)
		}
	}
}

// TestNextCommand: a call does Next only by Next's whole argument list, beside a cd or neutral
// stages; never a prefix, never with a substitution.
func TestNextCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd, next string
		on        bool
	}{
		{"go test ./...", "go test ./...", true},
		{"go  test   ./...", "go test ./...", true},
		{"cd web && go test ./...", "go test ./...", true},
		{"go test ./... 2>&1 | tail -20", "go test ./...", true},
		{"go test ./... 2>&1", "go test ./...", true},
		{"cd web && npm test", "cd web && npm test", true},
		{"go vet ./... && go test ./...", "go vet ./... && go test ./...", true},
		{`go test -run "TestA|TestB" ./auth`, `go test -run 'TestA|TestB' ./auth`, true},

		// issue 22 item 5
		{"npm publish", "npm publish --tag beta", false},
		{"git reset --hard", "git reset --hard origin/main", false},
		{"go test ./... $(rm -rf ~/projects)", "go test ./...", false},
		{"go test ./... `rm -rf ~/projects`", "go test ./...", false},
		// more arguments, another command beside, a write
		{"go test ./... -run X", "go test ./...", false},
		{"go test", "go test ./...", false},
		{"rm -rf build && go test ./...", "go test ./...", false},
		{"go test ./...; rm -rf ~", "go test ./...", false},
		{"go test ./... > out.txt", "go test ./...", false},
		{"go test ./... | tee out.txt", "go test ./...", false},
		{"go vet ./...", "go vet ./... && go test ./...", false},
		{"git checkout -- main.go", "go test ./...", false},
	} {
		if got := isNextCommand(tc.cmd, []string{tc.next}); got != tc.on {
			t.Errorf("isNextCommand(%q, Next %q) = %v, want %v", tc.cmd, tc.next, got, tc.on)
		}
	}
}

// TestRecoveryCommand: a recovery step is a zoneline command or one the restore named, word for
// word; `zoneline …; rm -rf ~` is not one.
func TestRecoveryCommand(t *testing.T) {
	rec := []string{"git rev-parse --verify --quiet refs/heads/fix/x"}
	for _, tc := range []struct {
		cmd string
		ok  bool
	}{
		{"zoneline checkpoint show", true},
		{"zoneline checkpoint reconcile 2>&1", true},
		{"git rev-parse --verify --quiet refs/heads/fix/x", true},
		{"cd repo && git rev-parse --verify --quiet refs/heads/fix/x", true},
		{"zoneline checkpoint show; rm -rf ~", false},
		{"zoneline checkpoint show > /tmp/x", false},
		{"zoneline $(rm -rf ~)", false},
		{"git rev-parse --verify --quiet refs/heads/fix/y", false},
		{"ls", false},
	} {
		if got := isRecoveryCommand(tc.cmd, rec); got != tc.ok {
			t.Errorf("isRecoveryCommand(%q) = %v, want %v", tc.cmd, got, tc.ok)
		}
	}
}
