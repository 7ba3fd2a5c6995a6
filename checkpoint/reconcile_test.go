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

	"github.com/zoneline/zoneline/internal/testtmp"
)

// gitRepo makes a bare "origin" and a clone of it with one commit; with pushed, the branch
// fix/login exists on origin.
func gitRepo(t *testing.T, pushed bool) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := testtmp.Dir(t)
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

// TestReconcileGit runs real verify commands against a real repository whose branch is, or is
// not, on its remote.
func TestReconcileGit(t *testing.T) {
	// `git ls-remote --exit-code` exits 2 when the ref is missing: mapped to 1, as the
	// /compact-prep skill teaches; anything else (128: no network) stays no answer.
	const verify = "`git ls-remote --exit-code origin refs/heads/fix/login >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s`"
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
	rs := Reconcile(context.Background(), c, ReconcileOptions{Dir: testtmp.Dir(t), Timeout: 300 * time.Millisecond})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s: the timeout did not kill the command's process group", d)
	}
	for i, wantReason := range []string{"no verify command", "not found", "timed out"} {
		if rs[i].Outcome != Unverifiable || !strings.Contains(rs[i].Reason, wantReason) || rs[i].Observed != "" {
			t.Errorf("row %d: %s %q observed %q, want UNVERIFIABLE %q", i, rs[i].Outcome, rs[i].Reason, rs[i].Observed, wantReason)
		}
	}
}

// TestReconcileConvention is issue 12 item 2: exit 0 = applied, exit 1 = not applied, and any
// other exit, a signal or a timeout = UNVERIFIABLE, never "not applied" (which would replay a
// push or a PR that happened).
func TestReconcileConvention(t *testing.T) {
	tests := []struct {
		verify   string
		applied  string
		want     Outcome
		observed string
		reason   string
	}{
		{"`true`", "yes", Confirmed, "yes", "agrees"},
		{"`exit 1`", "yes", Corrected, "no", "NOT applied"},
		{"`exit 1`", "no", Confirmed, "no", "agrees"},
		{"`exit 0`", "no", Corrected, "yes", "IS applied"},
		{"`exit 2`", "yes", Unverifiable, "", "exit 2"},
		{"`exit 128`", "yes", Unverifiable, "", "exit 128"}, // git with the network down
		{"`exit 4`", "no", Unverifiable, "", "exit 4"},      // gh: authentication required
		{"`exit 126`", "yes", Unverifiable, "", "not executable"},
		{"`exit 255`", "UNKNOWN", Unverifiable, "", "exit 255"},
		{"`kill -9 $$`", "yes", Unverifiable, "", "killed"},
		{"`kill -TERM $$`", "no", Unverifiable, "", "killed"},
		{"`sh -c 'kill -9 $$'`", "yes", Unverifiable, "", "exit 137"}, // a child killed: the shell's 128+9
	}
	for _, tt := range tests {
		t.Run(tt.verify+"/"+tt.applied, func(t *testing.T) {
			c := table(fmt.Sprintf("| x | thing | %s | no | %s |", tt.applied, tt.verify))
			r := Reconcile(context.Background(), c, ReconcileOptions{Dir: testtmp.Dir(t), Timeout: 10 * time.Second})[0]
			if r.Outcome != tt.want || r.Observed != tt.observed || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("got %s observed %q (%s), want %s observed %q (%q)", r.Outcome, r.Observed, r.Reason, tt.want, tt.observed, tt.reason)
			}
		})
	}
}

// TestReconcileNetworkDown: `git ls-remote` against a remote that cannot be reached exits 128:
// UNVERIFIABLE, with the bare --exit-code form and with the mapped one alike.
func TestReconcileNetworkDown(t *testing.T) {
	work := gitRepo(t, true)
	cmd := exec.Command("git", "remote", "set-url", "origin", filepath.Join(testtmp.Dir(t), "gone.git"))
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, verify := range []string{
		"`git ls-remote --exit-code origin fix/login`",
		"`git ls-remote --exit-code origin refs/heads/fix/login >/dev/null; s=$?; [ $s -eq 2 ] && exit 1; exit $s`",
	} {
		c := table("| git | branch fix/login on origin | yes | no | " + verify + " |")
		r := Reconcile(context.Background(), c, ReconcileOptions{Dir: work, Timeout: 20 * time.Second})[0]
		if r.Outcome != Unverifiable || r.Observed != "" || r.Exit != 128 {
			t.Errorf("%s: got %s observed %q exit %d (%s), want UNVERIFIABLE after exit 128", verify, r.Outcome, r.Observed, r.Exit, r.Reason)
		}
	}
}
