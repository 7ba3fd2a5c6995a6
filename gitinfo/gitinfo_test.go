package gitinfo

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs the git binary in dir (tests only: the package itself starts no process).
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository on branch main with one commit and returns its directory.
func newRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "first")
	return dir
}

func TestBranchRepo(t *testing.T) {
	repo := newRepo(t)
	for _, dir := range []string{repo, filepath.Join(repo, "sub"), filepath.Join(repo, "sub", "deeper")} {
		info, err := Branch(dir)
		if err != nil {
			t.Fatalf("Branch(%s): %v", dir, err)
		}
		if info.Branch != "main" || info.Detached || info.Label() != "main" || info.Root != repo {
			t.Errorf("Branch(%s) = %+v, want main at %s", dir, info, repo)
		}
	}
	git(t, repo, "checkout", "-q", "-b", "feature/x")
	if info, _ := Branch(repo); info.Label() != "feature/x" {
		t.Errorf("after checkout: %+v, want feature/x", info)
	}
}

func TestBranchDetached(t *testing.T) {
	repo := newRepo(t)
	hash := git(t, repo, "rev-parse", "HEAD")
	git(t, repo, "checkout", "-q", "--detach")
	info, err := Branch(filepath.Join(repo, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if !info.Detached || info.Branch != "" || info.Head != hash[:7] || info.Label() != hash[:7] {
		t.Errorf("detached: %+v, want Head %s", info, hash[:7])
	}
}

func TestBranchWorktree(t *testing.T) {
	repo := newRepo(t)
	wt := filepath.Join(filepath.Dir(repo), "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "side", wt)
	if st, err := os.Stat(filepath.Join(wt, ".git")); err != nil || st.IsDir() {
		t.Fatalf("worktree .git should be a file: %v", err)
	}
	if err := os.Mkdir(filepath.Join(wt, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	info, err := Branch(filepath.Join(wt, "pkg"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Branch != "side" || info.Root != wt {
		t.Errorf("worktree: %+v, want side at %s", info, wt)
	}
	// The main checkout is unaffected.
	if info, _ := Branch(repo); info.Branch != "main" {
		t.Errorf("main checkout: %+v", info)
	}
}

func TestBranchRelativeGitFile(t *testing.T) {
	// A submodule's .git file: "gitdir: ../.git/modules/sub", relative to the file's dir.
	root := t.TempDir()
	gitDir := filepath.Join(root, ".git", "modules", "sub")
	sub := filepath.Join(root, "sub")
	for _, d := range []string{gitDir, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(gitDir, "HEAD"), "ref: refs/heads/dev\n")
	write(t, filepath.Join(sub, ".git"), "gitdir: ../.git/modules/sub\n")
	info, err := Branch(sub)
	if err != nil {
		t.Fatal(err)
	}
	if info.Branch != "dev" || info.GitDir != gitDir {
		t.Errorf("relative gitdir: %+v, want dev in %s", info, gitDir)
	}
}

func TestBranchErrors(t *testing.T) {
	tmp := t.TempDir()
	garbage := filepath.Join(tmp, "garbage")
	mustMkdir(t, garbage)
	write(t, filepath.Join(garbage, ".git"), "this is not a gitdir line\n")

	missingDir := filepath.Join(tmp, "gitfile-to-nowhere")
	mustMkdir(t, missingDir)
	write(t, filepath.Join(missingDir, ".git"), "gitdir: /nonexistent/zoneline/gitdir\n")

	badHead := filepath.Join(tmp, "badhead")
	mustMkdir(t, filepath.Join(badHead, ".git"))
	write(t, filepath.Join(badHead, ".git", "HEAD"), "garbage\n")

	bigHead := filepath.Join(tmp, "bighead")
	mustMkdir(t, filepath.Join(bigHead, ".git"))
	write(t, filepath.Join(bigHead, ".git", "HEAD"), "ref: refs/heads/"+strings.Repeat("x", 5000))

	file := filepath.Join(tmp, "plainfile")
	write(t, file, "x")

	tests := []struct {
		name   string
		dir    string
		noRepo bool
	}{
		{"garbage .git file", garbage, false},
		{".git file to a missing dir", missingDir, false},
		{"HEAD garbage", badHead, false},
		{"HEAD over the size cap", bigHead, false},
		{"dir does not exist", filepath.Join(tmp, "does", "not", "exist"), false},
		{"not a directory", file, false},
		{"empty dir name", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := Branch(tt.dir)
			if err == nil {
				t.Fatalf("Branch(%q) = %+v, want an error", tt.dir, info)
			}
			if !strings.HasPrefix(err.Error(), "zoneline: ") {
				t.Errorf("error %q lacks the zoneline: prefix", err)
			}
			if info != (Info{}) {
				t.Errorf("info on error = %+v, want zero", info)
			}
		})
	}
}

func TestBranchNoRepo(t *testing.T) {
	// t.TempDir is usually not inside a repository; skip if this machine puts one above it.
	dir := t.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			t.Skipf("%s is inside a repository", dir)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	_, err := Branch(dir)
	if !errors.Is(err, ErrNoRepo) {
		t.Fatalf("Branch(%s) error = %v, want ErrNoRepo", dir, err)
	}
}

func TestReadHead(t *testing.T) {
	hash := "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		head    string
		want    Info
		wantErr bool
	}{
		{"ref: refs/heads/main\n", Info{Branch: "main"}, false},
		{"ref:refs/heads/a/b\r\n", Info{Branch: "a/b"}, false},
		{"ref: refs/remotes/origin/x\n", Info{Branch: "refs/remotes/origin/x"}, false},
		{hash + "\n", Info{Detached: true, Head: "0123456"}, false},
		{hash + hash[:24] + "\n", Info{Detached: true, Head: "0123456"}, false}, // sha256
		{"ref: \n", Info{}, true},
		{"ref: refs/heads/a b\n", Info{}, true},
		{hash[:39], Info{}, true},
		{"", Info{}, true},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "HEAD"), tt.head)
		got, err := readHead("r", dir)
		if (err != nil) != tt.wantErr {
			t.Errorf("readHead(%q) error = %v, wantErr %v", tt.head, err, tt.wantErr)
			continue
		}
		if !tt.wantErr {
			tt.want.Root, tt.want.GitDir = "r", dir
		}
		if got != tt.want {
			t.Errorf("readHead(%q) = %+v, want %+v", tt.head, got, tt.want)
		}
	}
}

func write(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
