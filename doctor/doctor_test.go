package doctor

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/skills"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

func exe(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// foreign, wrapping and noStop edit an installed settings file: another status line, ours
// wrapping another, no Stop hook.
func foreign(settings string) string {
	var m map[string]any
	json.Unmarshal([]byte(settings), &m)
	m["statusLine"] = map[string]any{"type": "command", "command": "npx -y ccstatusline@latest"}
	b, _ := json.Marshal(m)
	return string(b)
}

func wrapping(settings, self string) string {
	var m map[string]any
	json.Unmarshal([]byte(settings), &m)
	m["statusLine"] = map[string]any{"type": "command", "command": install.WrapCommand(self, "npx -y ccstatusline@latest", "linux")}
	b, _ := json.Marshal(m)
	return string(b)
}

func noStop(settings string) string {
	var m map[string]any
	json.Unmarshal([]byte(settings), &m)
	delete(m["hooks"].(map[string]any), "Stop")
	b, _ := json.Marshal(m)
	return string(b)
}

func TestSettings(t *testing.T) {
	dir := t.TempDir()
	self := exe(t, dir, "bin/zoneline")
	other := exe(t, dir, "other/zoneline")
	t.Setenv("PATH", filepath.Dir(self)) // the plugin's hooks find zoneline through PATH
	installed := func(bin string) string {
		p := filepath.Join(t.TempDir(), "settings.json")
		if _, err := install.Install(install.Options{Settings: p, ClaudeDir: filepath.Dir(p), Bin: bin, GOOS: "linux"}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		return string(b)
	}
	tests := []struct {
		name     string
		settings string // "" = no file
		want     map[string]Status
		detail   map[string]string // the result's detail, exactly
	}{
		{"absent", "", map[string]Status{"settings": Fail}, nil},
		{"invalid", "{\n  \"a\": ,\n}", map[string]Status{"settings": Fail}, nil},
		{"empty object", "{}", map[string]Status{"statusLine": Fail, "hook PreCompact": Fail}, nil},
		{"installed", installed(self), map[string]Status{"statusLine": OK, "hook UserPromptSubmit": OK, "hook SessionStart": OK}, nil},
		{"another binary", installed(other), map[string]Status{"statusLine": Warn, "hook PreCompact": Warn}, nil},
		{"gone binary", installed(filepath.Join(dir, "gone/zoneline")), map[string]Status{"statusLine": Fail, "hook PostCompact": Fail}, nil},
		{"foreign statusLine", `{"statusLine": {"type": "command", "command": "ccstatus"}}`, map[string]Status{"statusLine": Warn, "warnings": Fail}, nil},
		{"foreign statusLine, our hooks", foreign(installed(self)), map[string]Status{"statusLine": Warn, "hook Stop": OK, "warnings": OK},
			map[string]string{"warnings": "will fire, from the Stop hook (each tier once, whichever runs first)"}},
		{"wrapping", wrapping(installed(self), self), map[string]Status{"statusLine": OK, "warnings": OK},
			map[string]string{"warnings": "will fire, from zoneline's status line (wrapping yours) and the Stop hook (each tier once, whichever runs first)"}},
		{"no Stop hook", noStop(installed(self)), map[string]Status{"statusLine": OK, "hook Stop": Warn, "warnings": OK},
			map[string]string{"warnings": "will fire, from zoneline's status line (each tier once, whichever runs first)"}},
		{"foreign, no Stop hook", foreign(noStop(installed(self))), map[string]Status{"hook Stop": Fail, "warnings": Fail}, nil},
		{"installed warnings", installed(self), map[string]Status{"warnings": OK},
			map[string]string{"warnings": "will fire, from zoneline's status line and the Stop hook (each tier once, whichever runs first)"}},
		{"plugin hooks", `{"statusLine": {"type": "command", "command": "` + self + ` statusline"}, "enabledPlugins": {"zoneline@zoneline": true}}`,
			map[string]Status{"statusLine": OK, "hook PreCompact": OK}, nil},
		{"hooks disabled", `{"disableAllHooks": true}`, map[string]Status{"settings": Fail}, nil},
		{"plugin hooks, zoneline not on PATH", "PATHLESS" + `{"enabledPlugins": {"zoneline@zoneline": true}}`,
			map[string]Status{"hook PreCompact": Fail}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "settings.json")
			settings := tt.settings
			if rest, ok := strings.CutPrefix(settings, "PATHLESS"); ok {
				t.Setenv("PATH", t.TempDir())
				settings = rest
			}
			if settings != "" {
				os.WriteFile(p, []byte(settings), 0o644)
			}
			rs := Settings(p, self)
			got := map[string]Result{}
			for _, r := range rs {
				got[strings.TrimSuffix(r.Name, "")] = r
			}
			for name, want := range tt.want {
				r, ok := got[name]
				if !ok {
					t.Errorf("no %q result in %+v", name, rs)
					continue
				}
				if r.Status != want {
					t.Errorf("%s: status %d, want %d (%s)", name, r.Status, want, r.Detail)
				}
				if r.Status != OK && r.Fix == "" && name != "settings" {
					t.Errorf("%s: no fix given", name)
				}
			}
			for name, want := range tt.detail {
				if got[name].Detail != want {
					t.Errorf("%s: detail %q, want %q", name, got[name].Detail, want)
				}
			}
		})
	}
}

func TestBinary(t *testing.T) {
	dir := t.TempDir()
	self := exe(t, dir, "a/zoneline")
	other := exe(t, dir, "b/zoneline")
	tests := []struct {
		name   string
		onPath string
		err    error
		want   Status
	}{
		{"on path", self, nil, OK},
		{"not on path", "", errors.New("not found"), Warn},
		{"shadowed", other, nil, Warn},
	}
	for _, tt := range tests {
		if r := Binary(self, "v1", tt.onPath, tt.err); r.Status != tt.want {
			t.Errorf("%s: %d, want %d: %s", tt.name, r.Status, tt.want, r.Detail)
		}
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("color = \"none\"\n"), 0o644)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("color = \"none\"\ncolour = 1\n"), 0o644)
	if r := Config(filepath.Join(dir, "none.toml")); r.Status != Info {
		t.Errorf("absent: %+v", r)
	}
	if r := Config(good); r.Status != OK {
		t.Errorf("good: %+v", r)
	}
	r := Config(bad)
	if r.Status != Fail || !strings.Contains(r.Detail, "bad.toml:2:") {
		t.Errorf("bad: want Fail with the position, got %+v", r)
	}
}

func TestStateDir(t *testing.T) {
	if r := StateDir(filepath.Join(t.TempDir(), "s")); r.Status != OK {
		t.Errorf("%+v", r)
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o600)
	if r := StateDir(filepath.Join(f, "s")); r.Status != Fail {
		t.Errorf("under a file: %+v", r)
	}
}

func TestLastSessionAndPayloads(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	if s := LastSession(d); s != nil {
		t.Fatalf("empty dir: %+v", s)
	}
	if rs := Payloads(nil, now); rs[0].Status != Warn {
		t.Errorf("no session: %+v", rs)
	}
	old := &state.Session{ID: "11111111-1111-1111-1111-111111111111", Version: "2.1.300", Updated: now.Add(-time.Hour), RenderMicros: 900}
	newer := &state.Session{ID: "22222222-2222-2222-2222-222222222222", Version: "2.1.332", Model: "Opus 5.5", Updated: now.Add(-2 * time.Minute), RenderMicros: 1500}
	for _, s := range []*state.Session{old, newer} {
		if err := d.SaveSession(s); err != nil {
			t.Fatal(err)
		}
		// As if saved at s.Updated: a later file time reads as a later render.
		path, _ := d.SessionFile(s.ID, state.SessionFileName)
		os.Chtimes(path, s.Updated, s.Updated)
	}
	s := LastSession(d)
	if s == nil || s.Version != "2.1.332" {
		t.Fatalf("LastSession = %+v", s)
	}
	rs := Payloads(s, now)
	if !strings.Contains(rs[0].Detail, "2.1.332") || !strings.Contains(rs[0].Detail, "2m ago") || rs[1].Detail != "1.5 ms" {
		t.Errorf("Payloads = %+v", rs)
	}
}

func TestNotify(t *testing.T) {
	tests := []struct {
		name    string
		enabled bool
		findErr error
		bus     bool
		tested  bool
		sent    error
		want    Status
	}{
		{"off", false, nil, true, false, nil, Info},
		{"no companion", true, errors.New("zoneline: zoneline-notify not found"), true, false, nil, Warn},
		{"no bus", true, nil, false, false, nil, Warn},
		{"ready", true, nil, true, false, nil, OK},
		{"test sent", true, nil, true, true, nil, OK},
		{"test failed", true, nil, true, true, errors.New("exit status 1"), Fail},
	}
	for _, tt := range tests {
		if r := Notify(tt.enabled, "/bin/zoneline-notify", tt.findErr, tt.bus, tt.tested, tt.sent); r.Status != tt.want {
			t.Errorf("%s: %d, want %d (%s)", tt.name, r.Status, tt.want, r.Detail)
		}
	}
}

func TestAutoCompact(t *testing.T) {
	c := zones.AutoCompact(zones.CompactInput{Window: 200_000})
	r := AutoCompact(c, 200_000)
	if !strings.Contains(r.Detail, "167k of a 200k window") {
		t.Errorf("default: %q", r.Detail)
	}
	off := zones.AutoCompact(zones.CompactInput{Window: 200_000, EnvDisableAuto: "1"})
	if r := AutoCompact(off, 200_000); !strings.HasPrefix(r.Detail, "off (") {
		t.Errorf("disabled: %q", r.Detail)
	}
}

func TestLog(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	p := filepath.Join(dir, "zoneline.log")
	if r := Log(p, now); r.Status != OK {
		t.Errorf("no log: %+v", r)
	}
	var b strings.Builder
	for i := range 8 {
		b.WriteString(now.Add(time.Duration(i-10)*time.Minute).Format(time.RFC3339) + " statusline: problem " + string(rune('a'+i)) + "\n")
	}
	os.WriteFile(p, []byte(b.String()), 0o600)
	r := Log(p, now)
	if r.Status != Warn || len(r.More) != LogLines || !strings.HasSuffix(r.More[LogLines-1], "problem h") {
		t.Errorf("recent errors: %+v", r)
	}
	if r := Log(p, now.Add(48*time.Hour)); r.Status != OK {
		t.Errorf("old errors: %+v", r)
	}

	// Ordinary entries, however recent, are no warning and are not shown as errors.
	os.Remove(p)
	d := state.Dir{Root: dir}
	d.InfoLine("statusline", "warning: session x epoch 0 tier warn at 85000 tokens")
	d.Info("hook", "gc: removed %d sessions", 2)
	if r := Log(p, time.Now()); r.Status != OK || len(r.More) != 0 || !strings.Contains(r.Detail, "no errors") {
		t.Errorf("ordinary entries only: %+v", r)
	}
	d.Log("hook", "PreCompact: writing the snapshot: %s", "disk full")
	d.Info("watch", "notified")
	r = Log(p, time.Now())
	if r.Status != Warn || len(r.More) != 1 || !strings.Contains(r.More[0], "disk full") {
		t.Errorf("one recent error among ordinary entries: %+v", r)
	}
}

func TestRender(t *testing.T) {
	var b bytes.Buffer
	rs := []Result{{Name: "binary", Detail: "/x"}, {Name: "statusLine", Status: Fail, Detail: "not set", Fix: "run: zoneline install"}}
	Render(&b, rs)
	want := "✓ binary      /x\n✗ statusLine  not set\n              → run: zoneline install\n\n1 broken, 0 warning(s): fix the ✗ lines above.\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	if !Failed(rs) || Failed(rs[:1]) {
		t.Errorf("Failed")
	}
}

// TestSkills: doctor checks the program each installed skill runs (its allowed-tools pattern):
// present, executable and zoneline; a bare name depends on PATH.
func TestSkills(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts stand in for zoneline")
	}
	dir := t.TempDir()
	script := func(rel, out string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho '"+out+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	self := script("my bin/zoneline", "zoneline v1.2.3")
	impostor := script("other/zoneline", "something else")
	claude := filepath.Join(dir, "claude")
	installSkills := func(program string) {
		for _, name := range SkillNames {
			tmpl, err := skills.FS.ReadFile(name + "/SKILL.md")
			if err != nil {
				t.Fatal(err)
			}
			data := tmpl
			if program != "" {
				data = skills.ForBinary(tmpl, skills.Word(program, false))
			}
			p := filepath.Join(claude, "skills", name, "SKILL.md")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", filepath.Join(dir, "empty"))
	check := func(name string, want Status, detail string) {
		t.Helper()
		rs := Skills(claude, self, "")
		if len(rs) != len(SkillNames) {
			t.Fatalf("%s: %d results", name, len(rs))
		}
		for _, r := range rs {
			if r.Status != want || !strings.Contains(r.Detail+" "+r.Fix, detail) {
				t.Errorf("%s: %s = %v %q (fix %q), want %v with %q", name, r.Name, r.Status, r.Detail, r.Fix, want, detail)
			}
		}
	}
	check("not installed", Warn, "zoneline install")
	installSkills(self)
	check("installed, path with a space", OK, "runs "+self)
	installSkills(impostor)
	check("another file", Warn, "not this zoneline")
	installSkills(script("bin/other-tool", "zoneline v1"))
	check("not named zoneline: not run", Fail, "not named zoneline")
	installSkills(filepath.Join(dir, "gone", "zoneline"))
	check("missing", Fail, "does not exist")
	installSkills("") // the template: zoneline from PATH, which lacks it
	check("bare name off PATH", Fail, "not on PATH")
	t.Setenv("PATH", filepath.Dir(self))
	check("bare name on PATH", Warn, "from the PATH Claude Code gets")
}

// TestSettingsPluginFinds: with the plugin's hooks, doctor finds zoneline where hooks/run does
// (install.PluginBinary): an absolute PATH entry, then the home locations; never a zoneline in
// the project a relative PATH entry names. Without one it lists how to install it.
func TestSettingsPluginFinds(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	exe(t, dir, "project/zoneline")
	t.Chdir(project)
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"enabledPlugins": {"zoneline@zoneline": true}}`), 0o644)
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	status := func() Result {
		for _, r := range Settings(p, filepath.Join(dir, "self")) {
			if r.Name == "hook PreCompact" {
				return r
			}
		}
		t.Fatal("no hook PreCompact result")
		return Result{}
	}
	t.Setenv("PATH", ".:"+filepath.Join(dir, "empty"))
	if r := status(); r.Status != Fail || len(r.More) < 3 || !strings.Contains(strings.Join(r.More, "\n"), "npm i -g zoneline") {
		t.Errorf("zoneline only in the project: %+v, want Fail with the install routes", r)
	}
	gobin := exe(t, dir, "home/go/bin/zoneline")
	if r := status(); r.Status != OK || !strings.Contains(r.Detail, gobin) {
		t.Errorf("zoneline in ~/go/bin: %+v, want OK running it", r)
	}
}

// TestSkillsRunNothing: a skill file a repository commits (doctor -project reads the
// repository's .claude) may name any program: doctor compares it with the zoneline it knows and
// never runs it, through a plain path or one that resolves into the project (/proc/self/cwd).
func TestSkillsRunNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts stand in for zoneline")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	marker := filepath.Join(dir, "ran")
	planted := filepath.Join(repo, "tools", "zoneline")
	os.MkdirAll(filepath.Dir(planted), 0o755)
	if err := os.WriteFile(planted, []byte("#!/bin/sh\ntouch "+marker+"\necho 'zoneline v9'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	self := exe(t, dir, "bin/zoneline")
	t.Chdir(repo)
	progs := []string{planted}
	if runtime.GOOS == "linux" {
		progs = append(progs, "/proc/self/cwd/tools/zoneline")
	}
	for _, prog := range progs {
		claude := filepath.Join(repo, ".claude")
		for _, name := range SkillNames {
			tmpl, _ := skills.FS.ReadFile(name + "/SKILL.md")
			p := filepath.Join(claude, "skills", name, "SKILL.md")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, skills.ForBinary(tmpl, skills.Word(prog, false)), 0o644)
		}
		for _, r := range Skills(claude, self, "") {
			if r.Status != Warn || !strings.Contains(r.Fix, "not this zoneline") {
				t.Errorf("%s: %s = %v %q (fix %q), want a warning that it is not this zoneline", prog, r.Name, r.Status, r.Detail, r.Fix)
			}
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("doctor ran %s, which a skill file in the repository named", prog)
		}
	}
	// The same file as self, reached through another path, is this zoneline.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Dir(self), link); err != nil {
		t.Fatal(err)
	}
	for _, name := range SkillNames {
		tmpl, _ := skills.FS.ReadFile(name + "/SKILL.md")
		os.WriteFile(filepath.Join(repo, ".claude", "skills", name, "SKILL.md"), skills.ForBinary(tmpl, filepath.Join(link, "zoneline")), 0o644)
	}
	for _, r := range Skills(filepath.Join(repo, ".claude"), self, "") {
		if r.Status != OK {
			t.Errorf("self through a symlink: %s = %v %q", r.Name, r.Status, r.Fix)
		}
	}
}

// TestEntryQuotedProgram: a hook command whose program is quoted as the shell quotes a path
// with a quote in it, or that sets a variable first, names that program (the first word up to
// the next quote was read as a program that did not exist).
func TestEntryQuotedProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX quoting of a path with a quote in it")
	}
	dir := filepath.Join(t.TempDir(), "it's")
	self := filepath.Join(dir, "zoneline")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(self, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	quoted := skills.Word(self, false)
	for _, cmd := range []string{quoted + " hook", "ZONELINE_CONFIG=/c.toml " + quoted + " hook"} {
		if r := entryResult("hook Stop", cmd, self); r.Status != OK {
			t.Errorf("%s: %+v", cmd, r)
		}
	}
}
