package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/gitcache"
	"github.com/zoneline/zoneline/statusline"
)

// allSegmentsConfig writes a config whose layout names every segment.
func allSegmentsConfig(t *testing.T, e *Env) {
	t.Helper()
	line := func(names []string) string { return `["` + strings.Join(names, `", "`) + `"]` }
	cfg := "color = \"none\"\n[statusline]\nlines = [" + line(statusline.DefaultLine()) + ", " + line(statusline.OptionalSegments()) + "]\n"
	if err := os.WriteFile(e.Paths.Config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestStatuslineExtraSegments renders the documented payloads (every field, and the nullable
// ones null) with every segment on, through the real command.
func TestStatuslineExtraSegments(t *testing.T) {
	at := time.Unix(1_795_982_020, 0) // 2h13m20s before five_hour.resets_at
	tests := []struct {
		fixture  string
		want     []string
		wantNone []string
	}{
		{"statusline-documented-full.json", []string{
			"5h 43% (2h13m)", "7d 91% (3d", "$12.00/$50.00 monthly", "cache cold 87% hit miss ttl_expired_5m", "$1.23", "12m",
			"+120 −37", "MR !1234 changes requested", "anthropics/claude-code", "wt my-feature", "agent code-architect",
			"effort high", "style Explanatory", "NORMAL", "fast", "thinking", "142k/200k"}, nil},
		{"statusline-documented-nulls.json", []string{"5h 3%", "$0.00"}, []string{"cache", "PR", "MR", "7d", "effort", "style", "thinking", "fast", "wt ", "agent"}},
		{"statusline-edge-06-ctx-180k.json", []string{"cache 1h47m 98% hit", "$0.19", "16s", "thinking", "⚑ /compact-prep (cache 1h47m left)"}, []string{"5h", "PR"}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			e, out, _ := testEnv(t, fixture(t, tt.fixture), map[string]string{"COLUMNS": ""}) // no fitting: every segment shows
			e.Now = func() time.Time { return at }
			allSegmentsConfig(t, e)
			if code := e.Run([]string{"statusline"}); code != 0 {
				t.Fatalf("exit %d", code)
			}
			line := out.String()
			for _, w := range tt.want {
				if !strings.Contains(line, w) {
					t.Errorf("line %q lacks %q", line, w)
				}
			}
			for _, w := range tt.wantNone {
				if strings.Contains(line, w) {
					t.Errorf("line %q has %q", line, w)
				}
			}
		})
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestGitSegmentFromCache: the render reads the cache and only asks for a refresh; the
// refresher (zoneline git-refresh) runs git without the repository's programs and writes the
// entry the next render shows.
func TestGitSegmentFromCache(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	os.MkdirAll(repo, 0o755)
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	git(t, repo, "add", "a.txt")
	git(t, repo, "commit", "-q", "-m", "one")
	// The repository names programs: a filter and an fsmonitor hook that leave a mark.
	mark := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(repo, ".git", "evil.sh")
	os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+mark+"\ncat\n"), 0o755)
	git(t, repo, "config", "core.fsmonitor", hook)
	git(t, repo, "config", "filter.evil.clean", hook)
	os.WriteFile(filepath.Join(repo, ".gitattributes"), []byte("*.txt filter=evil\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("changed\n"), 0o644)

	stdin := []byte(`{"session_id":"3f0c5a52-6a7e-4f51-9b0a-2d3c4e5f6a7b","cwd":"` + repo + `","model":{"id":"claude-sonnet-4-5","display_name":"Sonnet 4.5"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1000}}}`)
	e, _, _ := testEnv(t, stdin, nil)
	if err := os.WriteFile(e.Paths.Config, []byte("color = \"none\"\n[statusline]\nlines = [[\"zone\", \"dir\", \"branch\", \"git\"]]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := config.Load(e.Paths.Config)
	r := e.pipeline().Render(stdin, nil, cfg, nil)
	if r.GitRefresh != repo || strings.Contains(r.Line, "*") || strings.Contains(r.Line, "clean") {
		t.Fatalf("no cache: line %q, refresh %q (want a refresh of %s and no git figures)", r.Line, r.GitRefresh, repo)
	}
	if _, err := os.Stat(gitcache.Path(e.State.Root, repo)); err == nil {
		t.Fatal("the render wrote the cache itself")
	}
	var errb strings.Builder
	e.Stderr = &errb
	if code := e.Run([]string{"git-refresh", "-root", repo}); code != exitOK {
		t.Fatalf("git-refresh exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("git-refresh ran a program the repository names")
	}
	r = e.pipeline().Render(stdin, nil, cfg, nil)
	if !strings.Contains(r.Line, "repo ⎇ main *2") || r.GitRefresh != "" {
		t.Fatalf("after refresh: line %q, refresh %q (want *2: a.txt and .gitattributes)", r.Line, r.GitRefresh)
	}
	// Another branch: the entry is not shown, and a refresh is asked for.
	git(t, repo, "checkout", "-q", "-b", "feature")
	r = e.pipeline().Render(stdin, nil, cfg, nil)
	if strings.Contains(r.Line, "*2") || r.GitRefresh != repo {
		t.Fatalf("after checkout: line %q, refresh %q", r.Line, r.GitRefresh)
	}
	// Not a worktree's top: refused, nothing written.
	if code := e.Run([]string{"git-refresh", "-root", filepath.Join(repo, ".git")}); code == exitOK {
		t.Fatal("git-refresh accepted a folder that is not a worktree's top")
	}
	if code := e.Run([]string{"git-refresh", "-root", "relative"}); code == exitOK {
		t.Fatal("git-refresh accepted a relative root")
	}
}

// TestGitSegmentFailing: git failing in a worktree (here a corrupt index; in life a status
// longer than the deadline) shows "git ?" and is retried after a backoff that grows with each
// failure in a row, not every RefreshAfter.
func TestGitSegmentFailing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	os.MkdirAll(repo, 0o755)
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	git(t, repo, "add", "a.txt")
	git(t, repo, "commit", "-q", "-m", "one")
	os.WriteFile(filepath.Join(repo, ".git", "index"), []byte("DIRC garbage"), 0o644)

	stdin := []byte(`{"session_id":"3f0c5a52-6a7e-4f51-9b0a-2d3c4e5f6a7b","cwd":"` + repo + `","context_window":{"context_window_size":200000,"current_usage":{"input_tokens":1000}}}`)
	e, _, _ := testEnv(t, stdin, nil)
	os.WriteFile(e.Paths.Config, []byte("color = \"none\"\n[statusline]\nlines = [[\"zone\", \"dir\", \"branch\", \"git\"]]\n"), 0o600)
	cfg, _ := config.Load(e.Paths.Config)
	now := time.Now()
	e.Now = func() time.Time { return now }
	for fails := 1; fails <= 3; fails++ {
		var errb strings.Builder
		e.Stderr = &errb
		if code := e.Run([]string{"git-refresh", "-root", repo}); code != exitOK {
			t.Fatalf("git-refresh exit %d: %s", code, errb.String())
		}
		ent, ok := gitcache.Load(e.State.Root, repo)
		if !ok || ent.Err == "" || ent.Fails != fails {
			t.Fatalf("entry after failure %d: %+v %v", fails, ent, ok)
		}
		r := e.pipeline().Render(stdin, nil, cfg, nil)
		if !strings.Contains(r.Line, "main git ?") || strings.Contains(r.Line, "⚠") || r.GitRefresh != "" {
			t.Fatalf("failure %d: line %q, refresh %q (want git ?, no ⚠, no refresh)", fails, r.Line, r.GitRefresh)
		}
		// Past RefreshAfter, and past any earlier backoff: still no refresh.
		e.Now = func() time.Time { return now.Add(gitcache.Backoff(fails) - time.Second) }
		if r := e.pipeline().Render(stdin, nil, cfg, nil); r.GitRefresh != "" || !strings.Contains(r.Line, "git ?") {
			t.Fatalf("failure %d, within the backoff: line %q, refresh %q", fails, r.Line, r.GitRefresh)
		}
		now = now.Add(gitcache.Backoff(fails))
		e.Now = func() time.Time { return now }
		if r := e.pipeline().Render(stdin, nil, cfg, nil); r.GitRefresh != repo {
			t.Fatalf("failure %d, after the backoff: no refresh (line %q)", fails, r.Line)
		}
	}
	// git works again: the figures, and the count of failures is gone.
	os.Remove(filepath.Join(repo, ".git", "index"))
	git(t, repo, "reset", "-q")
	if code := e.Run([]string{"git-refresh", "-root", repo}); code != exitOK {
		t.Fatal("git-refresh failed on a repaired repository")
	}
	if ent, _ := gitcache.Load(e.State.Root, repo); ent.Err != "" || ent.Fails != 0 {
		t.Fatalf("entry after repair: %+v", ent)
	}
	if r := e.pipeline().Render(stdin, nil, cfg, nil); strings.Contains(r.Line, "git ?") || !strings.Contains(r.Line, "main clean") {
		t.Fatalf("after repair: %q", r.Line)
	}
}

// TestCompactionsReclaimed: the compactions segment counts the transcript's compactions and
// the tokens they reclaimed (preTokens − postTokens), kept in the registry between renders.
func TestCompactionsReclaimed(t *testing.T) {
	tr, err := filepath.Abs(filepath.Join("..", "testdata", "claude-code", "manual-compact-opus-1m", "transcript-manual.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	stdin := []byte(`{"session_id":"3f0c5a52-6a7e-4f51-9b0a-2d3c4e5f6a7b","transcript_path":"` + tr + `","model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},"context_window":{"context_window_size":1000000,"current_usage":{"input_tokens":12000}}}`)
	e, out, _ := testEnv(t, stdin, nil)
	for i := 0; i < 2; i++ { // the second render reads the count back from the registry
		e.Stdin = bytes.NewReader(stdin)
		out.Reset()
		if code := e.Run([]string{"statusline"}); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if want := "↻1 -137k"; !strings.Contains(out.String(), want) { // 140120 − 2925
			t.Fatalf("render %d: %q lacks %q", i, out.String(), want)
		}
	}
}
