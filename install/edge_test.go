package install

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/skills"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestSymlinkedSettings: a dotfiles symlink stays a symlink; its target is edited.
func TestSymlinkedSettings(t *testing.T) {
	needsSymlinks(t)
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	target := filepath.Join(dir, "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.MkdirAll(o.ClaudeDir, 0o755)
	os.WriteFile(target, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644)
	if err := os.Symlink(target, o.Settings); err != nil {
		t.Skip(err)
	}
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(o.Settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "zoneline statusline") {
		t.Errorf("target not edited:\n%s", b)
	}
	if _, err := Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "{\n  \"model\": \"opus\"\n}\n" {
		t.Errorf("target not restored:\n%s", b)
	}
}

// TestSkillFiles: an edited installed skill is kept by uninstall; a different skill already
// there is skipped without --force and overwritten with it.
func TestSkillFiles(t *testing.T) {
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	skill := filepath.Join(o.ClaudeDir, "skills", "compact-prep", "SKILL.md")
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(skill, []byte("my edit\n"), 0o644)
	r, err := Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(skill); err != nil || string(b) != "my edit\n" {
		t.Errorf("an edited skill was removed: %v", err)
	}
	if !hasChange(r, "skill /compact-prep", Kept) {
		t.Errorf("uninstall did not say it kept the edited skill: %+v", r.Changes)
	}

	// Now the skill file is someone else's (no record): install skips it, --force overwrites.
	r, err = Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if !hasChange(r, "skill /compact-prep", Skipped) {
		t.Errorf("a foreign skill file was not skipped: %+v", r.Changes)
	}
	o.Force = true
	if r, err = Install(o); err != nil || !hasChange(r, "skill /compact-prep", Updated) {
		t.Errorf("--force did not overwrite: %v %+v", err, r)
	}
	if b, _ := os.ReadFile(skill); !strings.Contains(string(b), "compact-prep") {
		t.Errorf("skill not ours after --force: %s", b)
	}
}

// TestPurge: uninstall --purge removes the config and zoneline's state, and keeps unknown files.
func TestPurge(t *testing.T) {
	needsRemoveAll(t)
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(o.StateDir, "sessions", "11111111-2222-3333-4444-555555555555"), 0o700) // named as zoneline names them
	os.WriteFile(filepath.Join(o.StateDir, "zoneline.log"), []byte("x\n"), 0o600)
	os.WriteFile(filepath.Join(o.StateDir, "mine.txt"), []byte("x\n"), 0o600)
	o.Purge = true
	r, err := Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{o.Config, filepath.Join(o.StateDir, "sessions"), filepath.Join(o.StateDir, "zoneline.log")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("--purge left %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(o.StateDir, "mine.txt")); err != nil {
		t.Errorf("--purge removed a file zoneline did not write")
	}
	if !hasChange(r, "state", Kept) {
		t.Errorf("--purge did not name the file it kept: %+v", r.Changes)
	}
}

func hasChange(r *Result, item, action string) bool {
	for _, c := range r.Changes {
		if c.Item == item && c.Action == action {
			return true
		}
	}
	return false
}

// TestSkillsNameTheBinary: the installed skills run the installed binary by its absolute path
// (quoted when it holds a space) and allow exactly that, so they work whatever PATH says; a
// reinstall from another place rewrites them (they are ours, unedited); uninstall removes them.
func TestSkillsNameTheBinary(t *testing.T) {
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	o.Skills = skills.FS
	read := func() string {
		b, err := os.ReadFile(filepath.Join(o.ClaudeDir, "skills", "compact-prep", "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	got := read()
	for _, want := range []string{"allowed-tools: Bash(" + testBin + " checkpoint:*)", "`" + testBin + " checkpoint path`", "`" + testBin + " checkpoint verify`"} {
		if !strings.Contains(got, want) {
			t.Errorf("installed skill lacks %q", want)
		}
	}
	if strings.Contains(got, "`zoneline checkpoint") {
		t.Errorf("installed skill still runs zoneline from PATH:\n%s", got)
	}

	o.Bin = "/home/user/my tools/zoneline"
	res, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if !hasChange(res, "skill /compact-prep", Updated) {
		t.Errorf("reinstall from another place did not update the skill: %+v", res.Changes)
	}
	if p, ok := skills.Program([]byte(read())); !ok || p != o.Bin {
		t.Errorf("the reinstalled skill runs %q, want %q", p, o.Bin)
	}
	if want := "Bash('/home/user/my tools/zoneline' checkpoint:*)"; !strings.Contains(read(), want) {
		t.Errorf("reinstalled skill lacks %q", want)
	}

	// Without the record, uninstall still knows the files as ours.
	os.Remove(filepath.Join(o.ClaudeDir, RecordName))
	if _, err := Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(o.ClaudeDir, "skills", "compact-prep", "SKILL.md")); err == nil {
		t.Errorf("uninstall left the installed skill")
	}
}

// TestUninstallRowsSayWhat: every row uninstall reports has a third column, the hooks' too.
func TestUninstallRowsSayWhat(t *testing.T) {
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"uninstall", "uninstall again"} {
		res, err := Uninstall(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Changes {
			if strings.TrimSpace(c.Detail) == "" {
				t.Errorf("%s: the %s row (%s) says nothing in its third column", run, c.Item, c.Action)
			}
		}
	}
}

// TestPurgeStateOnlyOurs: purge removes what zoneline writes in the state dir, by the names
// zoneline gives it, and nothing else: a state dir pointed at a busy folder keeps the user's
// git/ checkouts, sessions/ notes and files.
func TestPurgeStateOnlyOurs(t *testing.T) {
	needsRemoveAll(t)
	dir := testtmp.Dir(t)
	files := map[string]bool{ // path → zoneline's
		"zoneline.log": true, "zoneline.log.1": true, "gc.stamp": true, "config-cache.toml": true,
		"sessions/11111111-2222-3333-4444-555555555555/session.json":           true,
		"snapshots/20260501T120000Z-11111111-2222-3333-4444-555555555555.json": true,
		"git/0123456789abcdef.json":                                            true,
		"git/0123456789abcdef.refresh":                                         true,
		"git/myrepo/README":                                                    false, "sessions/notes.md": false, "todo.txt": false,
	}
	for p := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte("x"), 0o600)
	}
	left := purgeState(dir)
	for p, ours := range files {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if ours && err == nil {
			t.Errorf("purge left zoneline's %s", p)
		}
		if !ours && err != nil {
			t.Errorf("purge removed the user's %s", p)
		}
	}
	want := []string{filepath.Join("git", "myrepo"), filepath.Join("sessions", "notes.md"), "todo.txt"}
	if strings.Join(left, ",") != strings.Join(want, ",") {
		t.Errorf("left = %q, want %q", left, want)
	}
}

// TestUninstallRecordConfined: the install record beside a project's settings is the
// repository's file: uninstall -project removes nothing it names outside the skills folder, a
// file whose hash it knows and an empty folder alike.
func TestUninstallRecordConfined(t *testing.T) {
	dir := testtmp.Dir(t)
	o := testOptions(dir)
	victim := filepath.Join(dir, "home", "notes.md")
	empty := filepath.Join(dir, "home", "empty")
	os.MkdirAll(empty, 0o755)
	os.WriteFile(victim, []byte("my notes\n"), 0o644)
	os.MkdirAll(o.ClaudeDir, 0o755)
	q := strconv.Quote // a Windows path's backslashes escaped (the paths are ASCII: Quote's escapes are JSON's)
	rec := `{"version": 2, "skills": {` + q(victim) + `: "` + hash([]byte("my notes\n")) + `", ` + q(filepath.Join(o.ClaudeDir, "skills", "..", "..", "home", "notes.md")) + `: "` + hash([]byte("my notes\n")) + `"}, "dirs": [` + q(empty) + `]}`
	os.WriteFile(RecordPath(o.Settings), []byte(rec), 0o644)
	if _, err := Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("uninstall removed %s, which the record named: %v", victim, err)
	}
	if _, err := os.Stat(empty); err != nil {
		t.Errorf("uninstall removed the folder %s, which the record named: %v", empty, err)
	}
}

// TestParseDeepNesting: a settings file nested thousands deep (a repository's .claude, read by
// doctor -project and install -project) is refused at once with its place, not parsed in time
// that grows with the square of its depth.
func TestParseDeepNesting(t *testing.T) {
	for _, n := range []int{maxDepth + 1, 3000} {
		s := `{"a": ` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
		_, err := Parse("settings.json", []byte(s))
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "nested deeper") || pe.Line != 1 {
			t.Errorf("depth %d: err = %v, want a ParseError for the nesting", n, err)
		}
	}
	ok := `{"a": ` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + `}`
	if _, err := Parse("settings.json", []byte(ok)); err != nil {
		t.Errorf("depth %d refused: %v", maxDepth, err)
	}
}
