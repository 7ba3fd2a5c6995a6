//go:build unix

package checkpoint

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitRepo makes a bare "origin" and a clone of it with one commit; with pushed, the branch
// fix/login exists on origin.
func gitRepo(t *testing.T, pushed bool) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	origin, work := filepath.Join(root, "origin.git"), filepath.Join(root, "work")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(root, "init", "-q", "--bare", origin)
	run(root, "clone", "-q", origin, work)
	run(work, "checkout", "-q", "-b", "fix/login")
	if err := os.WriteFile(filepath.Join(work, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(work, "add", "a.txt")
	run(work, "commit", "-q", "-m", "a")
	if pushed {
		run(work, "push", "-q", "origin", "fix/login")
	}
	return work
}

func table(rows ...string) *Checkpoint {
	text := "# zoneline checkpoint\n## External state\n| system | identifier | applied | idempotent | verify |\n|---|---|---|---|---|\n" +
		strings.Join(rows, "\n") + "\n"
	return Parse(text)
}

// TestReconcileGit runs real verify commands against a real repository whose branch is, or is
// not, on its remote.
func TestReconcileGit(t *testing.T) {
	const verify = "`git ls-remote --exit-code origin fix/login`"
	tests := []struct {
		pushed   bool
		applied  string
		want     Outcome
		observed string
	}{
		{true, "yes", Confirmed, "yes"},
		{false, "yes", Corrected, "no"},
		{true, "no", Corrected, "yes"},
		{false, "no", Confirmed, "no"},
		{true, "UNKNOWN", Corrected, "yes"},
		{false, "UNKNOWN", Corrected, "no"},
	}
	repos := map[bool]string{true: gitRepo(t, true), false: gitRepo(t, false)}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("pushed=%v/applied=%s", tt.pushed, tt.applied), func(t *testing.T) {
			c := table(fmt.Sprintf("| git | branch fix/login on origin | %s | no | %s |", tt.applied, verify))
			rs := Reconcile(context.Background(), c, ReconcileOptions{Dir: repos[tt.pushed], Timeout: 20 * time.Second})
			if len(rs) != 1 {
				t.Fatalf("%d results", len(rs))
			}
			r := rs[0]
			if r.Outcome != tt.want || r.Observed != tt.observed {
				t.Errorf("got %s observed %q (exit %d, %s; output %q), want %s observed %q", r.Outcome, r.Observed, r.Exit, r.Reason, r.Output, tt.want, tt.observed)
			}
		})
	}
}

func TestReconcileUnverifiable(t *testing.T) {
	c := table(
		"| local | cache | yes | yes | |",
		"| x | missing tool | yes | no | `no-such-command-zoneline --check` |",
		"| x | slow | yes | no | `sleep 30 & sleep 30` |",
	)
	start := time.Now()
	rs := Reconcile(context.Background(), c, ReconcileOptions{Dir: t.TempDir(), Timeout: 300 * time.Millisecond})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s: the timeout did not kill the command's process group", d)
	}
	for i, wantReason := range []string{"no verify command", "not found", "timed out"} {
		if rs[i].Outcome != Unverifiable || !strings.Contains(rs[i].Reason, wantReason) || rs[i].Observed != "" {
			t.Errorf("row %d: %s %q observed %q, want UNVERIFIABLE %q", i, rs[i].Outcome, rs[i].Reason, rs[i].Observed, wantReason)
		}
	}
}
