//go:build unix

package snapshot

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// hostileRepo builds the corpus's hostile repository (testdata/hostile/git-repo) in a new
// folder and returns it.
func hostileRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	if out, err := exec.Command("sh", "../testdata/hostile/git-repo/make.sh", dir).CombinedOutput(); err != nil {
		t.Fatalf("make.sh: %v: %s", err, out)
	}
	return dir
}

func pwned(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "PWNED*"))
	return m
}

// running returns the processes working in dir (or below) whose command line holds the hostile
// repository's slow mark.
func running(t *testing.T, dir string) []string {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, p := range procs {
		cwd, err := os.Readlink(filepath.Join(filepath.Dir(p), "cwd"))
		if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
			continue
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "31.4159") {
			out = append(out, filepath.Dir(p)+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// TestHostileRepoIsHostile: the corpus repository does run programs under a plain `git status`
// on this machine's git, so TestGitStateStartsNothing tests something.
func TestHostileRepoIsHostile(t *testing.T) {
	dir := hostileRepo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "status", "--porcelain")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	ownGroup(cmd)
	cmd.Run()
	killGroup(cmd)
	if len(pwned(t, dir)) == 0 {
		t.Fatal("a plain git status in the hostile repository started nothing: the corpus case proves nothing")
	}
}

// TestGitStateStartsNothing: PreCompact's git state, on the hostile repository, starts none of
// the programs its config, attributes and hooks name, leaves nothing running, and still reports
// the branch, HEAD and the dirty files.
func TestGitStateStartsNothing(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc")
	}
	dir := hostileRepo(t)
	// A hostile environment too: each of these would name a program or another repository.
	t.Setenv("GIT_EXTERNAL_DIFF", "sh -c 'touch "+dir+"/PWNED-env-diff'")
	t.Setenv("GIT_PAGER", "sh -c 'touch "+dir+"/PWNED-env-pager'")
	t.Setenv("GIT_DIR", t.TempDir())
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='sh -c \"touch "+dir+"/PWNED-env-fsmonitor\"'")
	start := time.Now()
	g := gitState(context.Background(), filepath.Join(dir))
	took := time.Since(start)
	time.Sleep(100 * time.Millisecond) // a child that escaped would have touched its file by now
	if p := pwned(t, dir); len(p) > 0 {
		t.Errorf("programs from the repository ran: %v", p)
	}
	if r := running(t, dir); len(r) > 0 {
		t.Errorf("left running: %v", r)
	}
	if g == nil {
		t.Fatal("no git state")
	}
	if g.Err != "" {
		t.Fatalf("git failed (took %s): %s", took, g.Err)
	}
	if g.Branch != "master" && g.Branch != "main" {
		t.Errorf("branch %q", g.Branch)
	}
	if len(g.Head) != 40 {
		t.Errorf("head %q", g.Head)
	}
	for _, want := range []string{"?? .gitattributes", "?? new.txt"} {
		if !slices.Contains(g.Dirty, want) {
			t.Errorf("dirty %q, want %q in it", g.Dirty, want)
		}
	}
	for _, d := range g.Dirty {
		if strings.Contains(d, "PWNED") {
			t.Errorf("dirty %q", g.Dirty)
		}
	}
}

// TestGitStateChangedFile: a modified tracked file is reported, as git status says.
func TestGitStateChangedFile(t *testing.T) {
	dir := hostileRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("changed, longer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	g := gitState(context.Background(), dir)
	if g == nil || g.Err != "" || !slices.Contains(g.Dirty, " M a.txt") {
		t.Fatalf("git state %+v, want \" M a.txt\" dirty", g)
	}
	if p := pwned(t, dir); len(p) > 0 {
		t.Errorf("programs from the repository ran: %v", p)
	}
}

// TestRunGitKillsGroup: when git overruns its deadline, it and everything it started are
// killed: a stand-in git that starts a sleeper and hangs leaves neither behind.
func TestRunGitKillsGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc")
	}
	bin := t.TempDir()
	pidFile := filepath.Join(bin, "pid")
	script := "#!/bin/sh\nsleep 31.4159 &\necho $! >" + pidFile + "\nwait\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	work := t.TempDir()
	_, err := runGit(ctx, work, nil, "status")
	if err == nil {
		t.Fatal("a git that hangs returned no error")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("runGit took %s past a 300ms deadline", took)
	}
	pid, _ := os.ReadFile(pidFile)
	if len(pid) == 0 {
		t.Fatal("the stand-in git did not start its sleeper")
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if len(running(t, work)) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("left running after the deadline: %v", running(t, work))
}

// TestFilterDrivers: every driver the config names is nulled, whatever its name.
func TestFilterDrivers(t *testing.T) {
	got := filterDrivers([]byte("filter.evil.clean\x00filter.evil.smudge\x00filter.a b.c.process\x00filter.clean\x00core.x\x00"))
	want := []string{
		"filter.evil.clean", "", "filter.evil.smudge", "", "filter.evil.process", "", "filter.evil.required", "false",
		"filter.a b.c.clean", "", "filter.a b.c.smudge", "", "filter.a b.c.process", "", "filter.a b.c.required", "false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("filterDrivers = %q, want %q", got, want)
	}
}

// TestGitEnv: no GIT_* variable of the caller's survives; zoneline's own are set.
func TestGitEnv(t *testing.T) {
	env := gitEnv([]string{"PATH=/bin", "GIT_DIR=/x", "git_exec_path=/y", "PAGER=less", "HOME=/h"}, []string{"filter.x.clean", ""})
	for _, e := range env {
		if strings.HasPrefix(e, "GIT_DIR=") || strings.HasPrefix(e, "git_exec_path=") || e == "PAGER=less" {
			t.Errorf("kept %q", e)
		}
	}
	for _, want := range []string{"PATH=/bin", "HOME=/h", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=filter.x.clean", "GIT_CONFIG_VALUE_0="} {
		if !slices.Contains(env, want) {
			t.Errorf("env %q lacks %q", env, want)
		}
	}
}

// TestGitStatePartialClone: in a partial clone whose promisor remote's uploadpack, credential
// helper and insteadOf target each name a program, and whose index and an object of HEAD are
// gone (so a plain `git status` lazily fetches: TestHostileRepoIsHostile's check below), the
// snapshot runs no status, says why, and starts nothing.
func TestGitStatePartialClone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	build := func() string {
		dir := filepath.Join(t.TempDir(), "repo")
		if out, err := exec.Command("sh", "../testdata/hostile/git-repo/make.sh", dir, "partial-clone").CombinedOutput(); err != nil {
			t.Fatalf("make.sh: %v: %s", err, out)
		}
		return dir
	}
	// The case is hostile: a plain status (fsmonitor and hooks off) runs the uploadpack.
	plain := build()
	cmd := exec.Command("git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "status", "--porcelain")
	cmd.Dir = plain
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	cmd.Run()
	if len(pwned(t, plain)) == 0 {
		t.Fatal("a plain git status in the partial clone started nothing: the case proves nothing")
	}
	dir := build()
	g := gitState(context.Background(), dir)
	if p := pwned(t, dir); len(p) > 0 {
		t.Errorf("programs from the repository ran: %v", p)
	}
	if g == nil || !strings.Contains(g.Err, "partial clone") {
		t.Fatalf("git state %+v, want the status skipped for the partial clone", g)
	}
	if g.Branch == "" {
		t.Errorf("branch %q: gitinfo's part should still be there", g.Branch)
	}
}

// TestGitStateOldGit: a git that ignores GIT_CONFIG_COUNT (older than 2.31: a stand-in that
// drops GIT_CONFIG_* before running the real one) would run the repository's filters, as
// nulled only through GIT_CONFIG_COUNT: the probe is missing, so no status runs, and the
// reason is recorded. A repository that plants zoneline.probe itself does not pass.
func TestGitStateOldGit(t *testing.T) {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := hostileRepo(t)
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[zoneline]\n\tprobe = 1\n")
	f.Close()
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := "#!/bin/sh\nunset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0\necho \"$*\" >>" + log + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	g := gitState(context.Background(), dir)
	calls, _ := os.ReadFile(log)
	if !strings.Contains(string(calls), " config ") {
		t.Fatalf("the stand-in git was not called: %q", calls)
	}
	if strings.Contains(string(calls), " status ") {
		t.Errorf("git status ran under a git that ignores GIT_CONFIG_COUNT: %q", calls)
	}
	if g == nil || !strings.Contains(g.Err, "GIT_CONFIG_COUNT") {
		t.Errorf("git state %+v, want the status skipped with the reason", g)
	}
	if p := pwned(t, dir); len(p) > 0 {
		t.Errorf("programs from the repository ran: %v", p)
	}
}

// TestReadConfigKeys: the probe counts only with zoneline's value; a promisor is seen.
func TestReadConfigKeys(t *testing.T) {
	c := readConfigKeys([]byte("filter.evil.clean\nsh -c x\x00zoneline.probe\n1\x00remote.o.promisor\ntrue\x00"), "n0nce")
	if c.probe || !c.promisor || string(c.drivers) != "filter.evil.clean\x00" {
		t.Errorf("%+v", c)
	}
	c = readConfigKeys([]byte("zoneline.probe\nn0nce\x00extensions.partialclone\norigin\x00"), "n0nce")
	if !c.probe || !c.promisor {
		t.Errorf("%+v", c)
	}
}
