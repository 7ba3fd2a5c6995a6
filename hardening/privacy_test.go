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
	"time"
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
		"snapshot/git.go": true, // "git" with a fixed argv, every program-starting knob off; the repository found from the payload's cwd is cmd.Dir, not argv
		// detach.Start's callers: notify/spawn.go (the companion binary found beside zoneline)
		// and cli/gitrefresh.go (zoneline itself, os.Executable, named
		// zoneline, with the fixed argv git-refresh -root <worktree gitinfo found>).
		"internal/detach/detach_unix.go":    true,
		"internal/detach/detach_windows.go": true, // the same on Windows
		"internal/detach/detach_other.go":   true, // the same elsewhere
		"cli/notify.go":                     true, // the same companion
		"cli/doctor.go":                     true, // the same companion
		"doctor/doctor.go":                  true, // `<a skill's zoneline> version`, a file named zoneline, fixed argv, from `zoneline doctor` only
		"compactflow/tmux.go":               true, // "tmux" (or a configured path) with an explicit argv
		"checkpoint/reconcile.go":           true, // sh -c with the checkpoint's verify command: `zoneline checkpoint reconcile` only
		"notify/notifytest/notifytest.go":   true,
		"internal/procbench/procbench.go":   true,
		// sh -c with the user's own status line command: from `statusline -wrap` in settings.json
		// or [statusline] wrap in the config (wrap.go), never from the payload (checked below).
		"cli/wrap_unix.go":  true,
		"cli/wrap_other.go": true,
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
	// The wrapped status line command comes from the command line or the config only: a hand
	// render runs cfg.Statusline.Wrap; a render under Claude Code hands it to the refresher on
	// its command line (wrapkeep.go), which runs that (wraprefresh.go), never a command read
	// back from the state dir.
	for f, call := range map[string]string{
		"../cli/wrap.go":        `startWrapped(cfg.Statusline.Wrap, "", stdin,`,
		"../cli/wraprefresh.go": "startWrapped(cmd, job.dir, job.stdin,",
		"../cli/wrapkeep.go":    "",
	} {
		b, _ := os.ReadFile(f)
		if call != "" && (!bytes.Contains(b, []byte(call)) || bytes.Count(b, []byte("startWrapped(")) != 1) {
			t.Errorf("%s: startWrapped must be called once, as %s", f, call)
		}
		if bytes.Contains(b, []byte("r.p.")) || bytes.Contains(b, []byte("payload.")) {
			t.Errorf("%s reads the payload: the wrapped command must not depend on it", f)
		}
	}
	if b, _ := os.ReadFile("../cli/wrapkeep.go"); !bytes.Contains(b, []byte("wrapJob{cmd: cfg.Statusline.Wrap,")) ||
		!bytes.Contains(b, []byte(`"-wrap=" + cmd}`)) || !bytes.Contains(b, []byte("e.startWrapRefresh(id, want.cmd,")) {
		t.Errorf("cli/wrapkeep.go: the refresher's command must be the render's cfg.Statusline.Wrap, on its command line")
	}
	if b, _ := os.ReadFile("../cli/wraprefresh.go"); !bytes.Contains(b, []byte("runWrap(cmd, job, e.process)")) {
		t.Errorf("cli/wraprefresh.go: the refresher must run its command line's command, never the job file's")
	}
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

// loosen sets every folder below root to 0777 and every file to 0666 (never through a symlink).
func loosen(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		mode := fs.FileMode(0o666)
		if d.IsDir() {
			mode = 0o777
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return nil
	})
}

// loose returns what below root is not 0700 (folders) or 0600 (files), by path below root.
func loose(root string) map[string]fs.FileMode {
	out := map[string]fs.FileMode{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return nil
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			rel, _ := filepath.Rel(root, p)
			out[rel] = fi.Mode().Perm()
		}
		return nil
	})
	return out
}

// TestLooseModesTightened: loose modes on disk (sessions/ 0777, zoneline.log and prompt.json
// 0666, the agent's checkpoint 0644, …) are set back by the next renders and hooks that touch
// them: every folder they pass through is 0700 and every file they open 0600. The daily GC sets
// back what no command opens (the warning loop's epoch and delivery files, the GC stamp).
func TestLooseModesTightened(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	sdir := filepath.Join("sessions", sessionID)
	turn := func() {
		t.Helper()
		runUmask(t, w, bin, "000", statuslinePayload(w, sessionID, 190_000), "statusline")
		for _, ev := range []string{"PreCompact", "SessionStart", "PostCompact", "UserPromptSubmit"} {
			runUmask(t, w, bin, "000", hookPayload(w, sessionID, ev), "hook")
		}
	}
	turn()
	write(t, filepath.Join(w.state, sdir, "checkpoint.md"), []byte("# checkpoint\n"))
	loosen(t, w.state)
	os.Chmod(filepath.Join(w.state, sdir, "checkpoint.md"), 0o644)               // as the agent's Write tool leaves it
	runUmask(t, w, bin, "000", hookPayload(w, sessionID, "PostCompact"), "hook") // a restore pending again
	turn()
	got := loose(w.state)
	for _, p := range []string{".", "sessions", sdir, "snapshots", "zoneline.log",
		filepath.Join(sdir, "prompt.json"), filepath.Join(sdir, "session.json"), filepath.Join(sdir, "compactions.json"),
		filepath.Join(sdir, ".compactions.lock"), filepath.Join(sdir, "checkpoint.md"), filepath.Join("snapshots", ".lock")} {
		if m, ok := got[p]; ok {
			t.Errorf("%s is still %v after renders and hooks", p, m)
		}
	}
	// The daily GC, due again: nothing is left loose.
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(filepath.Join(w.state, "gc.stamp"), old, old)
	runUmask(t, w, bin, "000", hookPayload(w, sessionID, "PostCompact"), "hook")
	for p, m := range loose(w.state) {
		t.Errorf("after the daily GC, %s is still %v", p, m)
	}
}
