package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/notify"
)

func TestThrowaway(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"/home/u/.npm/_npx/1a2b3c/node_modules/zoneline-linux-x64/zoneline", true},
		{`C:/Users/u/AppData/Local/npm-cache/_npx/1a2b/node_modules/zoneline-win32-x64/zoneline.exe`, true},
		{"/usr/local/lib/node_modules/zoneline/node_modules/zoneline-linux-x64/zoneline", false},
		{"/home/u/.local/bin/zoneline", false},
		{"/home/u/my_npx_tools/zoneline", false}, // only a whole _npx path element counts
		{"/home/u/.local/share/pnpm/global/5/node_modules/.pnpm/zoneline-linux-x64@1.2.3/node_modules/zoneline-linux-x64/zoneline", true},
		{"/tmp/bunx-1000-zoneline@latest/node_modules/zoneline-linux-x64/zoneline", true},
		{"/tmp/xfs-1a2b/dlx-4242/node_modules/zoneline-linux-x64/zoneline", true},
		{"/home/u/dlx-tools/zoneline", false},
	} {
		if got := throwaway(c.path); got != c.want {
			t.Errorf("throwaway(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// A binary run by npx is copied, with its companion, out of npx's cache into ~/.local/bin,
// and that copy is what install registers; a dry run copies nothing.
func TestStableBinCopiesOutOfNpx(t *testing.T) {
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	root := t.TempDir()
	pkg := filepath.Join(root, ".npm", "_npx", "f00d", "node_modules", "zoneline-"+runtime.GOOS+"-x64")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(pkg, "zoneline"+exe)
	for name, body := range map[string]string{"zoneline" + exe: "main-binary", notify.Companion + exe: "companion"} {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(root, "home")
	e := &Env{Home: home, Getenv: func(string) string { return "" }}
	var out bytes.Buffer

	got, err := e.stableBin(bin, true, &out)
	want := filepath.Join(home, ".local", "bin", "zoneline"+exe)
	if err != nil || got != want {
		t.Fatalf("dry run: %q, %v; want %q", got, err, want)
	}
	if _, err := os.Stat(filepath.Join(home, ".local")); !os.IsNotExist(err) {
		t.Fatalf("a dry run wrote into the home: %v", err)
	}

	got, err = e.stableBin(bin, false, &out)
	if err != nil || got != want {
		t.Fatalf("stableBin = %q, %v; want %q", got, err, want)
	}
	for name, body := range map[string]string{"zoneline" + exe: "main-binary", notify.Companion + exe: "companion"} {
		b, err := os.ReadFile(filepath.Join(home, ".local", "bin", name))
		if err != nil || string(b) != body {
			t.Errorf("%s: %q, %v", name, b, err)
		}
		if fi, err := os.Stat(filepath.Join(home, ".local", "bin", name)); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755", name, fi.Mode().Perm())
		}
	}
	if !strings.Contains(out.String(), "a package runner's cache, not kept") {
		t.Errorf("no word of the copy: %q", out.String())
	}

	// Anything else is registered where it is.
	other := filepath.Join(root, "lib", "node_modules", "zoneline", "zoneline")
	if got, err := e.stableBin(other, false, &out); err != nil || got != other {
		t.Errorf("stableBin(%q) = %q, %v", other, got, err)
	}
}

func TestCompanionNote(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir) // no companion on PATH
	bin := filepath.Join(dir, "zoneline")
	note := companionNote(bin)
	if !strings.Contains(note, notify.Companion+" is not beside "+bin) {
		t.Errorf("companionNote without a companion = %q", note)
	}
	name := notify.Companion
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if note := companionNote(bin); note != "" {
		t.Errorf("companionNote with a companion beside = %q", note)
	}
}

// A ~/.local/bin that is a symlink (dotfiles) is followed: the copy lands in the folder it names.
func TestStableBinSymlinkedDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	root := t.TempDir()
	pkg := filepath.Join(root, ".npm", "_npx", "f00d", "node_modules", "zoneline-linux-x64")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(pkg, "zoneline")
	if err := os.WriteFile(bin, []byte("main-binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	real := filepath.Join(root, "dotfiles", "bin")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".local"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(home, ".local", "bin")); err != nil {
		t.Fatal(err)
	}
	e := &Env{Home: home, Getenv: func(string) string { return "" }}
	got, err := e.stableBin(bin, false, new(bytes.Buffer))
	if err != nil || got != filepath.Join(real, "zoneline") {
		t.Fatalf("stableBin = %q, %v; want %q", got, err, filepath.Join(real, "zoneline"))
	}
	if b, err := os.ReadFile(filepath.Join(real, "zoneline")); err != nil || string(b) != "main-binary" {
		t.Errorf("copy: %q, %v", b, err)
	}
}

// TestLookPathAbsoluteOnly: a zoneline in the working folder, named by an empty, "." or relative
// PATH entry, is not the zoneline on PATH.
func TestLookPathAbsoluteOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for zoneline")
	}
	dir := t.TempDir()
	for _, p := range []string{"zoneline", "tools/zoneline", "bin/zoneline"} {
		p = filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	}
	t.Chdir(dir)
	for _, path := range []string{".", ":/nonexistent", "tools", "./tools:/nonexistent", "/nonexistent:"} {
		if p, err := lookPath("zoneline", path); err == nil {
			t.Errorf("lookPath(zoneline, %q) = %s: a zoneline in the working folder", path, p)
		}
	}
	if p, err := lookPath("zoneline", "/nonexistent:"+filepath.Join(dir, "bin")); err != nil || p != filepath.Join(dir, "bin", "zoneline") {
		t.Errorf("lookPath in an absolute entry = %q, %v", p, err)
	}
}

// TestPrintInstallSafe: the install report prints no control sequence a settings file, a record
// or a repository's folder name carried in (an event key, a skill folder, the path).
func TestPrintInstallSafe(t *testing.T) {
	esc := "\x1b]52;c;ZWNobyBoaQ==\x07\x1b[2J\u202e\u009b"
	res := &install.Result{
		Settings: "/tmp/repo" + esc + "/.claude/settings.json", Backup: "/b" + esc, Record: "/r" + esc, Diff: "+x" + esc + "\n",
		Changes: []install.Change{{Item: "hook Ev" + esc, Action: install.Removed, Detail: "d" + esc}, {Item: "skill /" + esc, Action: install.Skipped, Detail: esc}},
	}
	for _, dry := range []bool{false, true} {
		var b bytes.Buffer
		printInstall(&b, "install", res, dry)
		if strings.ContainsAny(b.String(), "\x1b\x07\u202e\u009b") {
			t.Errorf("dry run %v: control characters in the report: %q", dry, b.String())
		}
	}
}
