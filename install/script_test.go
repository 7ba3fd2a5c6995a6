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

// TestInstallScript runs ./install.sh into a temp PREFIX with a temp HOME, as a user would, and
// checks the binary, the registration, the second run and the uninstall. It builds the binaries,
// so -short skips it.
func TestInstallScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds zoneline; skipped with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, _ := filepath.Abs("..")
	home := testtmp.Dir(t)
	prefix := filepath.Join(testtmp.Dir(t), "pre fix") // a space in the path, on purpose
	env := scriptEnv(t, home)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("bash", append([]string{filepath.Join(root, "install.sh"), "--prefix", prefix}, args...)...)
		cmd.Env = env
		cmd.Dir = home
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	out := run()
	zl := filepath.Join(prefix, "bin", "zoneline")
	for _, want := range []string{"installed " + regexp.QuoteMeta(zl), "check: zoneline ", "is not on your PATH", "added +statusLine", "added +hook SessionStart", "added +skill /compact-prep", "SMART", "What next:"} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// install wrote the config, so "What next" says to edit it, not to `config init` (which
	// would fail: the file exists).
	if strings.Contains(out, "config init") || !strings.Contains(out, "edit "+filepath.Join(home, ".config", "zoneline", "config.toml")) {
		t.Errorf("What next does not point at the config install wrote:\n%s", out)
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"command": "'` + zl + `' statusline"`; !strings.Contains(string(data), want) {
		t.Errorf("settings.json lacks %s:\n%s", want, data)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "skills", "compact-prep", "SKILL.md")); err != nil {
		t.Errorf("skill not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "zoneline", "config.toml")); err != nil {
		t.Errorf("config not written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "zoneline-notify")); err == nil {
		if _, err := os.Stat(filepath.Join(prefix, "bin", "zoneline-notify")); err != nil {
			t.Errorf("zoneline-notify not installed beside zoneline: %v", err)
		}
	}

	// A second run: the same binary path, every entry already present, the file unchanged.
	out = run()
	if strings.Contains(out, "added ") {
		t.Errorf("second run added something:\n%s", out)
	}
	if again, _ := os.ReadFile(settings); string(again) != string(data) {
		t.Errorf("second run changed settings.json")
	}

	// --no-register leaves a fresh HOME's Claude folder alone.
	home2 := testtmp.Dir(t)
	cmd := exec.Command("bash", filepath.Join(root, "install.sh"), "--no-register", "--prefix", filepath.Join(home2, "p"))
	cmd.Env = scriptEnv(t, home2)
	noReg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("--no-register: %v\n%s", err, noReg)
	}
	if _, err := os.Stat(filepath.Join(home2, ".claude")); err == nil {
		t.Errorf("--no-register touched ~/.claude")
	}
	if !strings.Contains(string(noReg), "run '"+filepath.Join(home2, "p", "bin", "zoneline")+" install' when you want it") || strings.Contains(string(noReg), "What next") {
		t.Errorf("--no-register registered nothing: its next step is zoneline install (which says what next):\n%s", noReg)
	}

	// Uninstall with --purge: the settings file install created is gone, and so is the config.
	cmd = exec.Command(zl, "uninstall", "--purge")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("uninstall: %v\n%s", err, out)
	}
	for _, p := range []string{settings, filepath.Join(home, ".claude", "skills"), filepath.Join(home, ".config", "zoneline", "config.toml")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("uninstall --purge left %s", p)
		}
	}
}

// scriptEnv is a user's environment with HOME at home and nothing of zoneline's set, keeping
// the Go build cache so the build is quick.
func scriptEnv(t *testing.T, home string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME" || k == "PREFIX" || k == "CLAUDE_CONFIG_DIR" || strings.HasPrefix(k, "ZONELINE_") || strings.HasPrefix(k, "XDG_"):
			continue
		}
		env = append(env, kv)
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err == nil {
			env = append(env, k+"="+strings.TrimSpace(string(out)))
		}
	}
	return append(env, "HOME="+home, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
}

// TestInstallScriptDryRun: ./install.sh --dry-run --prefix X builds into a temp dir, shows the
// settings diff and the preview, and writes nothing anywhere: not X, not HOME, not the temp
// dir it built in.
func TestInstallScriptDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds zoneline; skipped with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, _ := filepath.Abs("..")
	home := testtmp.Dir(t)
	tmp := testtmp.Dir(t)
	prefix := filepath.Join(testtmp.Dir(t), "pre fix")
	cmd := exec.Command("bash", filepath.Join(root, "install.sh"), "--dry-run", "--prefix", prefix)
	cmd.Env = append(scriptEnv(t, home), "TMPDIR="+tmp)
	cmd.Dir = home
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh --dry-run: %v\n%s", err, out)
	}
	zl := filepath.Join(prefix, "bin", "zoneline")
	for _, want := range []string{
		"dry run: would install " + zl,
		"check: zoneline ",
		`"command": "'` + zl + `' statusline"`, // the diff names the binary it would install
		"SMART",
		"dry run: nothing was written",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "What next") {
		t.Errorf("a dry run tells what to do next with what it did not install:\n%s", out)
	}
	if _, err := os.Stat(prefix); err == nil {
		t.Errorf("the dry run created %s", prefix)
	}
	// The go command's own telemetry counters (os.UserConfigDir()/go/telemetry) are the
	// toolchain's, as its build cache is: not what install.sh writes.
	gotel := filepath.Join(home, ".config", "go")
	for _, dir := range []string{home, tmp} {
		var left []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if p == gotel || p == filepath.Dir(gotel) && d.IsDir() {
				if p == gotel {
					return filepath.SkipDir
				}
				return nil
			}
			if p != dir {
				left = append(left, p)
			}
			return nil
		})
		if len(left) > 0 {
			t.Errorf("the dry run wrote into %s: %v", dir, left)
		}
	}
}

// TestInstallScriptNextOnce: what to do after an install is one text, the binary's (install.sh
// runs zoneline install, which prints it): install.sh holds no copy of its own.
func TestInstallScriptNextOnce(t *testing.T) {
	b, err := os.ReadFile("../install.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, copy := range []string{"What next", "/compact-prep", "config check", "doctor"} {
		if strings.Contains(string(b), copy) {
			t.Errorf("install.sh prints its own %q: the binary's install says what next", copy)
		}
	}
}

// TestInstallScriptHelp: ./install.sh --help prints the header comment, all of it and nothing
// after it (it once ended with the script's first line of code), and exits 0.
func TestInstallScriptHelp(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, _ := filepath.Abs("..")
	for _, flag := range []string{"--help", "-h"} {
		out, err := exec.Command("bash", filepath.Join(root, "install.sh"), flag).CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh %s: %v\n%s", flag, err, out)
		}
		text := string(out)
		if !strings.HasPrefix(text, "install.sh: build zoneline") || !strings.Contains(text, "--dry-run") ||
			!strings.HasSuffix(text, "Works with bash 3.2 and BSD tools (macOS) as well as Linux.\n") ||
			strings.Contains(text, "set -eu") || strings.Contains(text, "#") {
			t.Errorf("install.sh %s:\n%s", flag, text)
		}
	}
}
