package install

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/zoneline/zoneline/internal/testtmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const testBin = "/home/user/.local/bin/zoneline"

var testSkills = fstest.MapFS{
	"compact-prep/SKILL.md": {Data: []byte("---\nname: compact-prep\n---\nWrite the checkpoint.\n")},
	"embed.go":              {Data: []byte("package skills\n")},
	"notaskill/README.md":   {Data: []byte("not a skill\n")},
}

func testOptions(dir string) Options {
	return Options{
		Settings:  filepath.Join(dir, "claude", "settings.json"),
		ClaudeDir: filepath.Join(dir, "claude"),
		Bin:       testBin,
		GOOS:      "linux",
		Skills:    testSkills,
		Config:    filepath.Join(dir, "config", "zoneline", "config.toml"),
		StateDir:  filepath.Join(dir, "state"),
		Now:       func() time.Time { return time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) },
	}
}

func report(r *Result, dir string) string {
	var b strings.Builder
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "%-28s %-16s %s\n", c.Item, c.Action, c.Detail)
	}
	b.WriteString(r.Diff)
	return strings.ReplaceAll(b.String(), dir, "$DIR")
}

func semantic(t *testing.T, data []byte) any {
	t.Helper()
	if len(strings.TrimSpace(string(data))) == 0 {
		return map[string]any{}
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return v
}

// TestCorpus runs install → install → uninstall over every settings file in testdata/corpus
// (and an absent one) and checks the report and diffs against testdata/golden/<name>.txt.
func TestCorpus(t *testing.T) {
	names := []string{"absent"}
	ents, err := os.ReadDir("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		names = append(names, e.Name())
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := testtmp.Dir(t)
			o := testOptions(dir)
			o.Force = strings.Contains(name, "-force")
			o.Wrap = strings.Contains(name, "-wrap")
			var orig []byte
			exists := name != "absent"
			if exists {
				orig, err = os.ReadFile(filepath.Join("testdata/corpus", name))
				if err != nil {
					t.Fatal(err)
				}
				os.MkdirAll(filepath.Dir(o.Settings), 0o755)
				if err := os.WriteFile(o.Settings, orig, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var golden strings.Builder
			defer func() { checkGolden(t, name, golden.String()) }()

			// Dry run first: it must change nothing and print the diff the real run applies.
			o.DryRun = true
			dry, err := Install(o)
			var pe *ParseError
			if errors.As(err, &pe) {
				golden.WriteString("== install ==\nerror: " + strings.ReplaceAll(err.Error(), dir, "$DIR") + "\n")
				if got, _ := os.ReadFile(o.Settings); string(got) != string(orig) {
					t.Errorf("a refused file was changed")
				}
				o.DryRun = false
				if _, err2 := Install(o); err2 == nil || err2.Error() != err.Error() {
					t.Errorf("real run: error %v, want %v", err2, err)
				}
				if got, _ := os.ReadFile(o.Settings); string(got) != string(orig) {
					t.Errorf("a refused file was changed")
				}
				if _, err := os.Stat(RecordPath(o.Settings)); err == nil {
					t.Errorf("a refused install wrote a record")
				}
				if _, err := os.Stat(o.Config); err == nil {
					t.Errorf("a refused install wrote the config")
				}
				if pe.Line < 1 || pe.Col < 1 {
					t.Errorf("error without a position: %v", pe)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(o.Settings); string(got) != string(orig) {
				t.Fatalf("dry run changed the file")
			}
			o.DryRun = false

			r1, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			if r1.Diff != dry.Diff {
				t.Errorf("the dry run's diff differs from the applied one:\n%s\nvs\n%s", dry.Diff, r1.Diff)
			}
			after1, err := os.ReadFile(o.Settings)
			if err != nil {
				t.Fatal(err)
			}
			golden.WriteString("== install ==\n" + report(r1, dir))
			if !strings.Contains(name, "plugin") {
				checkInstalled(t, after1, name)
			}
			if exists && r1.Diff != "" && r1.Backup == "" {
				t.Errorf("no backup before the first change")
			}
			if r1.Backup != "" {
				if b, _ := os.ReadFile(r1.Backup); string(b) != string(orig) {
					t.Errorf("the backup is not the original file")
				}
			}
			// Everything that was there is still there.
			if exists && !strings.HasPrefix(name, "ours-") {
				keepsAll(t, semantic(t, orig), semantic(t, after1), "")
			}

			r2, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			golden.WriteString("== install again ==\n" + report(r2, dir))
			after2, _ := os.ReadFile(o.Settings)
			if string(after2) != string(after1) {
				t.Errorf("the second install changed the file:\n%s", UnifiedDiff("1", "2", after1, after2))
			}
			plugin := strings.Contains(name, "plugin")
			for _, c := range r2.Changes {
				if c.Action != Present && !(c.Item == "statusLine" && c.Action == Kept) && !(c.Action == Skipped && (c.Item == "statusLine" || plugin)) {
					t.Errorf("second install: %s %s, want %q", c.Item, c.Action, Present)
				}
			}

			r3, err := Uninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			golden.WriteString("== uninstall ==\n" + report(r3, dir))
			final, ferr := os.ReadFile(o.Settings)
			if !exists {
				if ferr == nil {
					t.Errorf("uninstall left a settings file install created:\n%s", final)
				}
			} else if strings.HasPrefix(name, "ours-") {
				if strings.Contains(string(final), "zoneline") {
					t.Errorf("uninstall left zoneline entries:\n%s", final)
				}
			} else if string(final) != string(orig) {
				t.Errorf("uninstall did not restore the file byte for byte:\n%s", UnifiedDiff("original", "after", orig, final))
				if !reflect.DeepEqual(semantic(t, orig), semantic(t, final)) {
					t.Errorf("and not even semantically")
				}
			}
			for _, p := range []string{RecordPath(o.Settings), o.Settings + BackupSuffix, filepath.Join(o.ClaudeDir, "skills")} {
				if _, err := os.Stat(p); err == nil && !strings.HasPrefix(name, "ours-") {
					t.Errorf("uninstall left %s", p)
				}
			}
			if _, err := os.Stat(o.Config); err != nil {
				t.Errorf("uninstall without --purge removed the config: %v", err)
			}
		})
	}
}

// checkInstalled checks that data holds exactly our entries, once each.
func checkInstalled(t *testing.T, data []byte, name string) {
	t.Helper()
	var s struct {
		StatusLine map[string]any `json:"statusLine"`
		Hooks      map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string  `json:"type"`
				Command string  `json:"command"`
				Timeout float64 `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("installed file is not JSON: %v\n%s", err, data)
	}
	foreign := name == "foreign-statusline.json"
	want := testBin + " statusline"
	if strings.Contains(name, "-wrap") {
		want = WrapCommand(testBin, `npx -y ccstatusline@latest --it's "quoted"`, "linux")
	}
	if strings.HasPrefix(name, "own-") { // zoneline with the user's own flags: kept as it was
		foreign, want = false, "/usr/local/bin/zoneline statusline -segments zone,tokens"
	}
	if got := s.StatusLine["command"]; !foreign && got != want {
		t.Errorf("statusLine command = %v", got)
	}
	for _, h := range Hooks {
		n := 0
		for _, g := range s.Hooks[h.Event] {
			for _, e := range g.Hooks {
				if IsOurs(e.Command, SubHook) {
					n++
					if e.Command != testBin+" hook" || e.Timeout != HookTimeout || e.Type != "command" || g.Matcher != h.Matcher {
						t.Errorf("%s: entry %+v in group with matcher %q", h.Event, e, g.Matcher)
					}
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d zoneline entries, want 1", h.Event, n)
		}
	}
}

// keepsAll checks that every key and value of before is in after (arrays may have grown).
func keepsAll(t *testing.T, before, after any, at string) {
	t.Helper()
	switch b := before.(type) {
	case map[string]any:
		a, ok := after.(map[string]any)
		if !ok {
			t.Errorf("%s: was an object, now %T", at, after)
			return
		}
		for k, v := range b {
			if at == "" && k == "statusLine" {
				continue // may be replaced (--force)
			}
			av, ok := a[k]
			if !ok {
				t.Errorf("%s.%s: lost", at, k)
				continue
			}
			keepsAll(t, v, av, at+"."+k)
		}
	case []any:
		a, ok := after.([]any)
		if !ok || len(a) < len(b) {
			t.Errorf("%s: array lost elements", at)
			return
		}
		for i := range b {
			keepsAll(t, b[i], a[i], fmt.Sprintf("%s[%d]", at, i))
		}
	default:
		if !reflect.DeepEqual(before, after) {
			t.Errorf("%s: %v became %v", at, before, after)
		}
	}
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	got = slashDir(got)
	p := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".json")+".txt")
	if *update {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./install -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("report differs from %s (go test ./install -update rewrites it):\n%s", p, UnifiedDiff("want", "got", want, []byte(got)))
	}
}

// slashDir writes the paths under $DIR with forward slashes, so the goldens hold on Windows too
// (filepath.Join writes backslashes there); nothing else in a report is touched.
func slashDir(s string) string {
	if filepath.Separator == '/' {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "$DIR"+string(filepath.Separator))
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		end := strings.IndexAny(s, " \t\n\"':,)")
		if end < 0 {
			end = len(s)
		}
		b.WriteString(strings.ReplaceAll(s[:end], string(filepath.Separator), "/"))
		s = s[end:]
	}
}
