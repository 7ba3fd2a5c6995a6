//go:build unix

package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestPluginRunnerList: hooks/run names exactly PluginHomeBins, in order, and prints
// BinaryHint; and for every layout the script runs the binary PluginBinary (doctor's answer)
// names, or none when PluginBinary finds none.
func TestPluginRunnerList(t *testing.T) {
	runner, err := filepath.Abs("../hooks/run")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(runner)
	if err != nil {
		t.Fatal(err)
	}
	script := string(b)
	m := regexp.MustCompile(`(?m)^\s*for z in ((?:"\$HOME/[^"]+" ?)+); do`).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("hooks/run has no `for z in \"$HOME/…\"` line")
	}
	var got []string
	for _, w := range strings.Fields(m[1]) {
		got = append(got, strings.TrimPrefix(strings.Trim(w, `"`), "$HOME/"))
	}
	if strings.Join(got, " ") != strings.Join(PluginHomeBins, " ") {
		t.Errorf("hooks/run looks in %q, PluginHomeBins are %q", got, PluginHomeBins)
	}
	if !strings.Contains(script, "\n"+BinaryHint+"\n") {
		t.Errorf("hooks/run's message does not hold BinaryHint:\n%s", BinaryHint)
	}

	fake := func(t *testing.T, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho \"$0\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		path  string   // PATH, {a} {b} for two absolute dirs
		home  string   // HOME, {home} for an absolute one
		files []string // fakes to plant, under {a} {b} {home} or relative to the project
	}{
		{"path first", "{a}:{b}", "{home}", []string{"{b}/zoneline", "{home}/.local/bin/zoneline"}},
		{"local bin", "{a}", "{home}", []string{"{home}/.local/bin/zoneline", "{home}/go/bin/zoneline"}},
		{"go bin", "{a}", "{home}", []string{"{home}/go/bin/zoneline"}},
		{"empty entry", ":{a}", "{home}", []string{"zoneline", "{home}/go/bin/zoneline"}},
		{"dot entry", ".:{a}", "{home}", []string{"zoneline"}},
		{"relative entry", "tools:{a}", "{home}", []string{"tools/zoneline"}},
		{"trailing empty entry", "{a}:", "{home}", []string{"zoneline"}},
		{"relative home", "{a}", ".", []string{".local/bin/zoneline", "go/bin/zoneline"}},
		{"none", "{a}:{b}", "{home}", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := testtmp.Dir(t)
			project := filepath.Join(root, "project")
			repl := strings.NewReplacer("{a}", filepath.Join(root, "a"), "{b}", filepath.Join(root, "b"), "{home}", filepath.Join(root, "home"))
			for _, d := range []string{project, filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "home")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range tc.files {
				f = repl.Replace(f)
				if !filepath.IsAbs(f) {
					f = filepath.Join(project, f)
				}
				fake(t, f)
			}
			path, home := repl.Replace(tc.path), repl.Replace(tc.home)
			env := map[string]string{"PATH": path, "HOME": home}
			t.Chdir(project)
			want := PluginBinary(func(k string) string { return env[k] })
			cmd := exec.Command("/bin/sh", runner, "hook")
			cmd.Dir = project
			cmd.Env = []string{"PATH=" + path, "HOME=" + home}
			out, err := cmd.Output()
			ran := strings.TrimSpace(string(out))
			if want == "" {
				if err == nil || ran != "" {
					t.Errorf("hooks/run ran %q (%v); PluginBinary finds none", ran, err)
				}
				return
			}
			if err != nil || ran != want {
				t.Errorf("hooks/run ran %q (%v); PluginBinary says %q", ran, err, want)
			}
			if !filepath.IsAbs(ran) || strings.HasPrefix(ran, project+"/") {
				t.Errorf("ran %q: a zoneline in the project", ran)
			}
		})
	}
}
