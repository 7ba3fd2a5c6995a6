//go:build unix

package hardening

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/gitcache"
)

// TestGitSegmentHostileRepo: with the git segment on, in the hostile repository of
// testdata/hostile/git-repo, the render prints its line without the git figures and without
// running git itself, the detached refresher it starts runs none of the repository's programs
// and writes the cache entry, and the next render shows the dirty files from it.
func TestGitSegmentHostileRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	bin := zoneline(t)
	w := newWorld(t)
	os.RemoveAll(w.project)
	if out, err := exec.Command("sh", "../testdata/hostile/git-repo/make.sh", w.project).CombinedOutput(); err != nil {
		t.Fatalf("make.sh: %v: %s", err, out)
	}
	write(t, w.config, []byte("color = \"none\"\n[statusline]\nlines = [[\"zone\", \"dir\", \"branch\", \"git\"]]\n"))
	stdin := []byte(`{"session_id":"` + sessionID + `","cwd":"` + w.project + `","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1000}}}`)
	r := w.run(t, bin, stdin, []string{"statusline"})
	if r.code != 0 || bytes.Contains(r.stdout, []byte("*")) {
		t.Fatalf("first render: exit %d, %q (no cache yet: no git figures)", r.code, r.stdout)
	}
	entry := gitcache.Path(w.state, w.project)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(entry); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the refresher wrote no cache entry %s in 10 s; log: %s", entry, readLog(w))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if m, _ := filepath.Glob(filepath.Join(w.project, "PWNED*")); len(m) > 0 {
		t.Errorf("the repository's programs ran: %v", m)
	}
	if fi, err := os.Stat(entry); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("cache entry: %v %v", fi, err)
	}
	r = w.run(t, bin, stdin, []string{"statusline"})
	if !bytes.Contains(r.stdout, []byte("*")) {
		t.Errorf("second render %q: no dirty count from the cache; entry: %s", r.stdout, mustRead(entry))
	}
	time.Sleep(200 * time.Millisecond)
	if m, _ := filepath.Glob(filepath.Join(w.project, "PWNED*")); len(m) > 0 {
		t.Errorf("the repository's programs ran: %v", m)
	}
}

func readLog(w *world) string { return mustRead(filepath.Join(w.state, "zoneline.log")) }

func mustRead(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(b))
}
