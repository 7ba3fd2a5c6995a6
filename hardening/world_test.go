//go:build unix

package hardening

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/internal/termcolor"
)

// hangGuard is how long one process may run before the case fails as a hang. It is a hang
// check, not a speed test: the hook's own deadline is 4 s.
const hangGuard = 10 * time.Second

// sessionID is the session every world's payloads name.
const sessionID = "730c8849-a6f0-454b-a922-063e0b765bf2"

// fixtures is the recorded Claude Code session the worlds start from.
const fixtures = "../testdata/claude-code/manual-compact-opus-1m"

// world is a private tree for one case: the state dir, the config, Claude Code's folder, HOME,
// TMPDIR, a project and a transcript. Everything but state/ must be unchanged by a run.
type world struct {
	root, state, config, claude, home, project, transcript string
	env                                                    []string
}

func zoneline(t testing.TB) string {
	t.Helper()
	return procbench.Build(t, "./cmd/zoneline")
}

func newWorld(t testing.TB) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{
		root:       root,
		state:      filepath.Join(root, "state"),
		config:     filepath.Join(root, "config.toml"),
		claude:     filepath.Join(root, "claude"),
		home:       filepath.Join(root, "home"),
		project:    filepath.Join(root, "project"),
		transcript: filepath.Join(root, "transcript.jsonl"),
	}
	for _, d := range []string{w.claude, w.home, w.project, filepath.Join(root, "tmp"), filepath.Join(root, "run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := os.ReadFile(filepath.Join(fixtures, "transcript-manual.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, w.transcript, tr)
	write(t, filepath.Join(w.project, "main.go"), []byte("package main\n"))
	w.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + w.home,
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(root, "run"),
		"ZONELINE_STATE_DIR=" + w.state,
		"ZONELINE_CONFIG=" + w.config,
		"CLAUDE_CONFIG_DIR=" + w.claude,
		"COLUMNS=120",
		"GIT_CONFIG_NOSYSTEM=1",
		"CLAUDECODE=1", // run as Claude Code runs it: a hand render keeps no state
	}
	return w
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// substHead is how much of a big template subst fills in: zoneline reads at most 1 MiB of
// stdin, and the big generated cases keep their placeholders at the start.
const substHead = 2 << 20

// subst fills a payload template's placeholders with the world's paths.
func (w *world) subst(b []byte, event string) []byte {
	r := strings.NewReplacer("@SESSION@", sessionID, "@TRANSCRIPT@", w.transcript, "@CWD@", w.project,
		"@EVENT@", event, "@ROOT@", w.root)
	if len(b) > substHead {
		return append([]byte(r.Replace(string(b[:substHead]))), b[substHead:]...)
	}
	return []byte(r.Replace(string(b)))
}

// result is one finished process.
type result struct {
	code           int
	stdout, stderr []byte
	took           time.Duration
	hung           bool
}

// run runs zoneline with args and stdin in the world, under the hang guard. extraEnv overrides.
func (w *world) run(t testing.TB, bin string, stdin []byte, args []string, extraEnv ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append([]string{}, w.env...), extraEnv...)
	cmd.Dir = w.project
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.Bytes(), stderr: errb.Bytes(), took: time.Since(start), hung: ctx.Err() != nil}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %s: %v", bin, err)
	}
	return r
}

// checkCommon: exit 0, no hang, no panic.
func checkCommon(t testing.TB, what string, r result) {
	t.Helper()
	if r.hung {
		t.Errorf("%s: hung (killed after %s)", what, hangGuard)
	}
	if r.code != 0 {
		t.Errorf("%s: exit %d; stderr %q", what, r.code, cut(r.stderr))
	}
	for _, s := range [][]byte{r.stdout, r.stderr} {
		if bytes.Contains(s, []byte("panic:")) || bytes.Contains(s, []byte("goroutine ")) {
			t.Errorf("%s: panic: %q", what, cut(s))
		}
	}
}

// checkStatusline: a non-blank line, valid UTF-8, nothing but the line.
func checkStatusline(t testing.TB, what string, r result) {
	t.Helper()
	checkCommon(t, what, r)
	out := string(r.stdout)
	if strings.TrimSpace(termcolor.Strip(out)) == "" || !strings.HasSuffix(out, "\n") {
		t.Errorf("%s: statusline printed %q, want a line", what, cut(r.stdout))
	}
	if !utf8.ValidString(out) {
		t.Errorf("%s: statusline printed invalid UTF-8 %q", what, cut(r.stdout))
	}
}

// checkHook: stdout empty, exactly one JSON object, or (PreCompact's instructions for the
// summariser) plain valid UTF-8 that does not look like JSON: one "zoneline: " line, or
// zoneline's instructions (hookevent.InstructionsHead first) within hookevent.MaxInstructions characters.
func checkHook(t testing.TB, what string, r result) {
	t.Helper()
	checkCommon(t, what, r)
	out := bytes.TrimSpace(r.stdout)
	if len(out) == 0 {
		return
	}
	if out[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(out))
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: hook stdout is not one JSON object: %v: %q", what, err, cut(r.stdout))
			return
		}
		if dec.More() {
			t.Errorf("%s: hook stdout has more than one JSON value: %q", what, cut(r.stdout))
		}
		return
	}
	oneLine := bytes.Count(out, []byte("\n")) == 0 && bytes.HasPrefix(out, []byte("zoneline: "))
	block := bytes.HasPrefix(out, []byte(hookevent.InstructionsHead)) && utf8.RuneCount(out) <= hookevent.MaxInstructions
	if !utf8.Valid(out) || !oneLine && !block {
		t.Errorf("%s: hook stdout is neither JSON, one zoneline line nor zoneline's instructions: %q", what, cut(r.stdout))
	}
}

func cut(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// entry is what a tree snapshot records of one path.
type entry struct {
	mode fs.FileMode
	size int64
	mod  time.Time
	link string
}

// snapshot records every path under root except those under skip (the state dir), without
// following symlinks or opening special files.
func snapshot(t testing.TB, root string, skip ...string) map[string]entry {
	t.Helper()
	m := map[string]entry{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		for _, s := range skip {
			if p == s {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		e := entry{mode: fi.Mode(), size: fi.Size(), mod: fi.ModTime()}
		if fi.IsDir() {
			e.size, e.mod = 0, time.Time{} // a listing change shows as an added/removed path
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			e.link, _ = os.Readlink(p)
		}
		m[p] = e
		return nil
	})
	return m
}

// diffTrees lists the paths added, removed or changed between two snapshots.
func diffTrees(before, after map[string]entry) []string {
	var out []string
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			out = append(out, "added "+p)
		case a != b:
			out = append(out, fmt.Sprintf("changed %s (%v %d → %v %d)", p, b.mode, b.size, a.mode, a.size))
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, "removed "+p)
		}
	}
	return out
}
