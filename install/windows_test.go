package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// On Windows the hooks are registered in Claude Code's exec form (program and args, no shell),
// so they run under Git Bash and PowerShell alike, spaces and quotes in the path included.
func TestHookCommandWindows(t *testing.T) {
	bin := `C:\Users\Me Name\AppData\Local\zoneline\zoneline.exe`
	h := HookCommand(bin, "windows")
	if got := h.Get("command").Text(); got != "C:/Users/Me Name/AppData/Local/zoneline/zoneline.exe" {
		t.Errorf("command = %q", got)
	}
	if a := h.Get("args"); a == nil || a.Kind != Array || len(a.Elems) != 1 || a.Elems[0].Str != SubHook {
		t.Errorf("args = %v", a)
	}
	if !EntryIsOurs(h, SubHook) || EntryIsOurs(h, SubStatusline) {
		t.Errorf("EntryIsOurs(exec form) wrong: %q", EntryCommand(h))
	}
	for _, tt := range []struct {
		json string
		want bool
	}{
		{`{"type":"command","command":"C:/x/zoneline.exe","args":["hook"]}`, true},
		{`{"type":"command","command":"C:/x/zoneline.exe","args":["hook","-v"]}`, true},
		{`{"type":"command","command":"C:/x/zoneline.exe","args":["hook","other"]}`, false},
		{`{"type":"command","command":"C:/x/zoneline.exe","args":"hook"}`, false},
		{`{"type":"command","command":"C:/x/zoneline.exe","args":[1]}`, false},
		{`{"type":"command","command":"C:/x/other.exe","args":["hook"]}`, false},
		{`{"type":"command","command":"C:/x/zoneline.exe hook"}`, true},
	} {
		d, err := Parse("t.json", []byte(tt.json))
		if err != nil {
			t.Fatal(err)
		}
		if got := EntryIsOurs(d.Root, SubHook); got != tt.want {
			t.Errorf("EntryIsOurs(%s) = %v, want %v (line %q)", tt.json, got, tt.want, EntryCommand(d.Root))
		}
	}
	// Elsewhere: the shell form, as before.
	if h := HookCommand("/usr/bin/zoneline", "linux"); h.Get("args") != nil || h.Get("command").Text() != "/usr/bin/zoneline hook" {
		t.Errorf("linux entry = %s", h.Canonical())
	}
}

// Install for Windows writes exec-form hooks and a Git Bash status line; a second run finds
// them all present; uninstall removes them all.
func TestInstallWindowsForms(t *testing.T) {
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	o.GOOS, o.Bin = "windows", `C:\Users\Me Name\bin\zoneline.exe`
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(o.Settings)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"command": "'C:/Users/Me Name/bin/zoneline.exe' statusline"`, `"command": "C:/Users/Me Name/bin/zoneline.exe"`, `"args": [`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("settings.json lacks %s:\n%s", want, data)
		}
	}
	res, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Diff != "" {
		t.Errorf("a second install changed:\n%s", res.Diff)
	}
	for _, c := range res.Changes {
		if strings.HasPrefix(c.Item, "hook ") && c.Action != Present {
			t.Errorf("second install: %s %s", c.Item, c.Action)
		}
	}
	if _, err := Uninstall(o); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(o.Settings)
	if strings.Contains(string(data), "zoneline") {
		t.Errorf("uninstall left zoneline in settings.json:\n%s", data)
	}
}

// The status line command, as install writes it for Windows, runs in a real POSIX shell (Git
// Bash is one) from a path with spaces and a quote.
func TestWindowsCommandLineRunsInSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sh")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := filepath.Join(testtmp.Dir(t), "Me Name", "it's")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "zoneline.exe")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho ran \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(sh, "-c", CommandLine(bin, SubStatusline, "windows")).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ran statusline" {
		t.Errorf("sh -c %q: %q, %v", CommandLine(bin, SubStatusline, "windows"), out, err)
	}
}
