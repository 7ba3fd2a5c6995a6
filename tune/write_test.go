package tune

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/zones"
)

const userConfig = `# my zoneline config
color = "256"   # my terminal
glyphs = "ascii"

[statusline]
bar_width = 12

# Opus: I like it early.
[[model]]
match = "claude-opus-*"
warn = 70_000   # keep
dumb = 110_000

[[model]]
match = "claude-sonnet-4-5-20250929"
warn = 80_000 # sonnet warn
dumb = 120_000 # sonnet dumb
# trailing note in the block

[warning]
nudge = true
`

func TestEditKeepsCommentsAndKeys(t *testing.T) {
	sugg := []Suggestion{
		{Match: "claude-sonnet-4-5-20250929", Warn: 60_000, Dumb: 90_000, Prep: 90_000, PrepSet: "dumb"},
		{Match: "claude-opus-5-5", Warn: 100_000, Dumb: 200_000, Prep: 180_000, PrepSet: "180000"},
		{Match: "claude-haiku-4-5", Warn: 40_000, Dumb: 70_000, Prep: 70_000, PrepSet: "dumb"},
	}
	out, err := Edit([]byte(userConfig), sugg, []int64{200_000, 1_000_000, 200_000})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	// Every line of the original survives, except the two values that change.
	for _, line := range strings.Split(userConfig, "\n") {
		if strings.HasPrefix(line, "warn = 80_000") || strings.HasPrefix(line, "dumb = 120_000") {
			continue
		}
		if !strings.Contains(got, line) {
			t.Errorf("lost line %q:\n%s", line, got)
		}
	}
	for _, want := range []string{
		"warn = 60_000 # sonnet warn\n", // value replaced, comment kept
		"dumb = 90_000 # sonnet dumb\n",
		"dumb = 90_000 # sonnet dumb\nprep = \"dumb\"\n# trailing note in the block\n", // added after the last key
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	// The Opus block goes before the glob that would shadow it, with the glob's comment below.
	opus := strings.Index(got, `match = "claude-opus-5-5"`)
	glob := strings.Index(got, "# Opus: I like it early.")
	if opus < 0 || glob < 0 || opus > glob {
		t.Errorf("the claude-opus-5-5 block must come before the claude-opus-* block and its comment:\n%s", got)
	}
	if !strings.HasSuffix(got, "[[model]]\nmatch = \"claude-haiku-4-5\"\nwarn = 40_000\ndumb = 70_000\nprep = \"dumb\"\n") {
		t.Errorf("haiku block not appended at the end:\n%s", got)
	}
	// The result loads, keeps the other keys, and resolves to the suggestions.
	cfg, err := config.Parse("config.toml", out)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Color != "256" || cfg.Glyphs != "ascii" || cfg.Statusline.BarWidth != 12 {
		t.Errorf("other keys changed: %+v", cfg)
	}
	for i, s := range sugg {
		w := []int64{200_000, 1_000_000, 200_000}[i]
		th, rule := zones.Resolve(cfg.Rules(), s.Match, w)
		if th.Warn != s.Warn || th.Dumb != s.Dumb {
			t.Errorf("%s resolves to %+v (rule %+v)", s.Match, th, rule)
		}
		if spec := cfg.Prep(rule); spec != s.PrepSet {
			t.Errorf("%s prep %q, want %q", s.Match, spec, s.PrepSet)
		}
	}
	// Idempotent: the same suggestions again change nothing.
	again, err := Edit(out, sugg, []int64{200_000, 1_000_000, 200_000})
	if err != nil || string(again) != got {
		t.Errorf("second edit changed the file (err %v):\n%s", err, Diff("config.toml", out, again, 2))
	}
}

func TestEditEmptyFile(t *testing.T) {
	out, err := Edit(nil, []Suggestion{{Match: "m", Warn: 1000, Dumb: 2000, Prep: 2000, PrepSet: "dumb"}}, []int64{200_000})
	if err != nil {
		t.Fatal(err)
	}
	if want := "# suggested by zoneline tune\n[[model]]\nmatch = \"m\"\nwarn = 1_000\ndumb = 2_000\nprep = \"dumb\"\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestEditRefusesShadowedBlock(t *testing.T) {
	// An exact block exists but a glob above it wins: editing it would change nothing.
	text := "[[model]]\nmatch = \"claude-*\"\ndumb = 100_000\n\n[[model]]\nmatch = \"claude-x\"\ndumb = 120_000\n"
	_, err := Edit([]byte(text), []Suggestion{{Match: "claude-x", Warn: 50_000, Dumb: 90_000, Prep: 90_000, PrepSet: "dumb"}}, []int64{200_000})
	if err == nil || !strings.Contains(err.Error(), `"claude-*"`) {
		t.Errorf("err %v: want it to name the shadowing block", err)
	}
}

func TestDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\n"
	want := "--- x\n+++ x (suggested)\n@@ -2,6 +2,7 @@\n b\n c\n-d\n+D\n e\n f\n g\n+h\n"
	if got := Diff("x", []byte(a), []byte(b), 2); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Diff("x", []byte(a), []byte(a), 2) != "" {
		t.Error("equal texts: want no diff")
	}
}
