//go:build unix

package hardening

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The plugin's hooks run hooks/run, which finds zoneline wherever it was installed and never
// starts node for npm's launcher; with no zoneline it says how to get one and exits 1 (shown,
// never blocking).
func TestPluginRunner(t *testing.T) {
	runner, err := filepath.Abs("../hooks/run")
	if err != nil {
		t.Fatal(err)
	}
	// Every hook of the plugin goes through it.
	var hj struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	b, err := os.ReadFile("../hooks/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &hj); err != nil {
		t.Fatal(err)
	}
	for ev, groups := range hj.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Command != `"${CLAUDE_PLUGIN_ROOT}/hooks/run" hook` {
					t.Errorf("%s runs %q, not hooks/run", ev, h.Command)
				}
			}
		}
	}

	zl := zoneline(t)
	run := func(t *testing.T, path, home string) (string, int) {
		t.Helper()
		cmd := exec.Command("/bin/sh", runner, "version")
		cmd.Env = []string{"PATH=" + path, "HOME=" + home}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	sys := "/usr/bin:/bin"

	t.Run("none", func(t *testing.T) {
		out, code := run(t, sys, t.TempDir())
		if code != 1 || !strings.Contains(out, "npm i -g zoneline") || !strings.Contains(out, "go install github.com/zoneline/zoneline/cmd/zoneline") {
			t.Errorf("exit %d, %q: want 1 and how to install", code, out)
		}
	})
	t.Run("local bin", func(t *testing.T) {
		home := t.TempDir()
		link(t, zl, filepath.Join(home, ".local", "bin", "zoneline"))
		if out, code := run(t, sys, home); code != 0 || !strings.HasPrefix(out, "zoneline ") {
			t.Errorf("exit %d, %q", code, out)
		}
	})
	// Claude Code runs hooks in the project: an empty, "." or relative PATH entry (or a relative
	// HOME) names it, and a zoneline planted there must never run.
	t.Run("planted in the project", func(t *testing.T) {
		for _, tc := range []struct{ path, home string }{
			{":" + sys, ""}, {"/usr/bin::/bin", ""}, {".:/usr/bin", ""}, {sys + ":", ""},
			{"tools:" + sys, ""}, {"./tools:" + sys, ""}, {sys, "."}, {sys, "tools/.."},
			{".:" + sys, "{home}"}, // a real zoneline in ~/.local/bin: that one runs
		} {
			project := t.TempDir()
			marker := filepath.Join(t.TempDir(), "planted-ran")
			for _, p := range []string{"zoneline", "tools/zoneline", ".local/bin/zoneline", "go/bin/zoneline"} {
				p = filepath.Join(project, p)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("#!/bin/sh\ntouch "+marker+"\necho planted\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			home, real := tc.home, tc.home == "{home}"
			if real {
				home = t.TempDir()
				link(t, zl, filepath.Join(home, ".local", "bin", "zoneline"))
			}
			cmd := exec.Command("/bin/sh", runner, "version")
			cmd.Dir = project
			cmd.Env = []string{"PATH=" + tc.path, "HOME=" + home}
			out, err := cmd.CombinedOutput()
			if _, serr := os.Stat(marker); serr == nil || strings.Contains(string(out), "planted") {
				t.Errorf("PATH=%q HOME=%q: hooks/run ran the zoneline planted in the project (%q)", tc.path, tc.home, out)
			}
			if real && (err != nil || !strings.HasPrefix(string(out), "zoneline ")) {
				t.Errorf("PATH=%q: want ~/.local/bin/zoneline to run, got %v %q", tc.path, err, out)
			}
			if !real && !strings.Contains(string(out), "npm i -g zoneline") {
				t.Errorf("PATH=%q HOME=%q: want the install hint, got %v %q", tc.path, tc.home, err, out)
			}
		}
	})
	t.Run("npm launcher", func(t *testing.T) {
		prefix := t.TempDir()
		pkg := filepath.Join(prefix, "lib", "node_modules", "zoneline")
		marker := filepath.Join(prefix, "node-ran")
		// The launcher must not run: it would start node on every event.
		launcher := filepath.Join(pkg, "bin", "zoneline.js")
		if err := os.MkdirAll(filepath.Dir(launcher), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(launcher, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		link(t, zl, filepath.Join(pkg, "node_modules", "zoneline-"+runtime.GOOS+"-"+arch, "zoneline"))
		if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../lib/node_modules/zoneline/bin/zoneline.js", filepath.Join(prefix, "bin", "zoneline")); err != nil {
			t.Fatal(err)
		}
		out, code := run(t, filepath.Join(prefix, "bin")+":"+sys, t.TempDir())
		if code != 0 || !strings.HasPrefix(out, "zoneline ") {
			t.Errorf("exit %d, %q", code, out)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("hooks/run ran npm's node launcher instead of the native binary")
		}
	})
}

func link(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
