//go:build unix

package hardening

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runUmask runs zoneline under sh with the given umask, with an explicit argv: the shell runs
// a fixed script, and the binary and its arguments arrive as positional parameters.
func runUmask(t *testing.T, w *world, bin, mask string, stdin []byte, args ...string) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", `umask "$1"; shift; exec "$@"`, "sh", mask, bin}, args...)...)
	cmd.Env, cmd.Dir, cmd.Stdin = w.env, w.project, bytes.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("umask %s %v: %v: %s", mask, args, err, out)
	}
}

// TestPrivateUnderUmask: whatever the umask (000, 022, 077), every folder the statusline and the
// hooks create in the state dir is 0700 and every file 0600.
func TestPrivateUnderUmask(t *testing.T) {
	bin := zoneline(t)
	for _, mask := range []string{"000", "022", "077"} {
		t.Run(mask, func(t *testing.T) {
			w := newWorld(t)
			runUmask(t, w, bin, mask, statuslinePayload(w, sessionID, 190_000), "statusline")
			for _, ev := range []string{"PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit"} {
				runUmask(t, w, bin, mask, hookPayload(w, sessionID, ev), "hook")
			}
			runUmask(t, w, bin, mask, hookPayload(w, sessionID, "SessionStart", "source", "startup"), "hook")
			n := 0
			filepath.WalkDir(w.state, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				fi, _ := d.Info()
				want := fs.FileMode(0o600)
				if d.IsDir() {
					want = 0o700
				}
				if fi.Mode().Perm() != want {
					t.Errorf("umask %s: %s is %v, want %v", mask, p, fi.Mode().Perm(), want)
				}
				n++
				return nil
			})
			if n < 6 {
				t.Errorf("only %d paths in the state dir: the runs wrote nothing?", n)
			}
		})
	}
}

// TestPlantedSymlinksProcess: symlinks planted in the state dir (at sessions/, at sessions/<id>,
// at session.json, compactions.json, a marker, snapshots/ and the log) pointing outside never
// make the statusline or a hook write outside the state dir, and the line still prints.
func TestPlantedSymlinksProcess(t *testing.T) {
	bin := zoneline(t)
	plants := map[string]string{ // path below the state dir → "dir" or "file" target
		"sessions":                            "dir",
		"sessions/" + sessionID:               "dir",
		"sessions/" + sessionID + "/x":        "", // (a real folder below a planted one is not needed)
		"snapshots":                           "dir",
		"zoneline.log":                        "file",
		"sessions/" + sessionID + "/.session": "",
	}
	files := []string{"session.json", "compactions.json", "marker-0-warn.json", "marker-0-dumb.json", "checkpoint.md", "prompt.json", "nudge-pending.json"}
	var cases []string
	for p, kind := range plants {
		if kind != "" {
			cases = append(cases, p)
		}
	}
	for _, f := range files {
		cases = append(cases, "sessions/"+sessionID+"/"+f)
	}
	for _, plant := range cases {
		t.Run(strings.ReplaceAll(plant, "/", "_"), func(t *testing.T) {
			w := newWorld(t)
			outside := filepath.Join(w.root, "outside")
			write(t, filepath.Join(outside, "victim"), []byte("keep\n"))
			target := outside
			if plants[plant] != "dir" {
				target = filepath.Join(outside, "victim")
			}
			link := filepath.Join(w.state, plant)
			os.MkdirAll(filepath.Dir(link), 0o700)
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, w.root, w.state)
			checkStatusline(t, "statusline", w.run(t, bin, statuslinePayload(w, sessionID, 190_000), []string{"statusline"}))
			for _, ev := range []string{"PreCompact", "PostCompact", "SessionStart", "UserPromptSubmit"} {
				checkHook(t, ev, w.run(t, bin, hookPayload(w, sessionID, ev), []string{"hook"}))
			}
			if d := diffTrees(before, snapshot(t, w.root, w.state)); len(d) > 0 {
				t.Errorf("wrote outside the state dir through %s:\n%s", plant, strings.Join(d, "\n"))
			}
		})
	}
}

// TestNoShellFromPayload greps the tree: every exec.Command (or fork/exec) names a fixed program (a constant,
// or a binary found by the code, never payload text), and the one shell, checkpoint's reconcile,
// runs only from `zoneline checkpoint reconcile`, a command a person runs.
func TestNoShellFromPayload(t *testing.T) {
	root := ".."
	call := regexp.MustCompile(`(exec\.Command(Context)?|syscall\.ForkExec|syscall\.StartProcess|os\.StartProcess)\(([^,)]*(,\s*)?)?([^,)]+)`)
	allowed := map[string]bool{ // file → why its program is not payload data
		"snapshot/git.go":                 true, // "git" with a fixed argv, every program-starting knob off; the repository found from the payload's cwd is cmd.Dir, not argv
		"notify/detach_unix.go":           true, // the companion binary found beside zoneline (spawn.go)
		"notify/detach_other.go":          true, // the same, outside Unix
		"cli/notify.go":                   true, // the same companion
		"cli/doctor.go":                   true, // the same companion
		"compactflow/tmux.go":             true, // "tmux" (or a configured path) with an explicit argv
		"checkpoint/reconcile.go":         true, // sh -c with the checkpoint's verify command: `zoneline checkpoint reconcile` only
		"notify/notifytest/notifytest.go": true,
		"internal/procbench/procbench.go": true,
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "e2e" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		for _, m := range call.FindAllString(string(b), -1) {
			if !allowed[filepath.ToSlash(rel)] {
				t.Errorf("%s: %s: a process started from a file this test has not audited", rel, m)
			}
		}
		return nil
	})
	// The one shell must stay out of the hook and statusline paths.
	for _, f := range []string{"../cli/statusline.go", "../cli/hook.go"} {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte("Reconcile(")) {
			t.Errorf("%s calls checkpoint.Reconcile (a shell) on the statusline or hook path", f)
		}
	}
	hookFiles, _ := filepath.Glob("../hook/*.go")
	for _, f := range hookFiles {
		b, _ := os.ReadFile(f)
		if !strings.HasSuffix(f, "_test.go") && bytes.Contains(b, []byte("Reconcile(")) {
			t.Errorf("%s calls checkpoint.Reconcile (a shell) from a hook", f)
		}
	}
}
