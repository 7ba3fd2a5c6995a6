package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

func TestTemplateIsDefault(t *testing.T) {
	c, err := Parse("config.toml", []byte(Template))
	if err != nil {
		t.Fatalf("template does not parse: %v", err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Fatalf("template decodes to\n%+v\nwant Default()\n%+v", c, Default())
	}
}

func TestMissingFileIsDefault(t *testing.T) {
	c, err := Load(filepath.Join(testtmp.Dir(t), "nope.toml"))
	if err != nil || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("Load(missing) = %+v, %v; want defaults, nil", c, err)
	}
}

// TestProblems: each kind of problem, in the user's words, with its position, the default that
// stays in force, and a suggestion when a known key is close.
func TestProblems(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // every problem, in order (Error() of each)
	}{
		{"unknown key with suggestion", "color = \"auto\"\ncolour = \"none\"\n",
			[]string{"config.toml:2:1: unknown key 'colour' (did you mean 'color'?)"}},
		{"unknown nested key", "[statusline]\nbar_widht = 3\n",
			[]string{"config.toml:2:1: unknown key 'statusline.bar_widht' (did you mean 'statusline.bar_width'?)"}},
		{"key in the wrong table", "bar_width = 3\n",
			[]string{"config.toml:1:1: unknown key 'bar_width' (did you mean 'statusline.bar_width'?)"}},
		{"unknown key far from any", "zzzzzzzz = 1\n", []string{"config.toml:1:1: unknown key 'zzzzzzzz'"}},
		{"unknown table", "[statusln]\ncolor = 3\n",
			[]string{"config.toml:1:1: unknown table [statusln] (did you mean [statusline]?); its keys are ignored"}},
		{"wrong type, int wanted", "[statusline]\nbar_width = \"x\"\n",
			[]string{`config.toml:2:13: statusline.bar_width: want an integer from 1 to 100, got a string ("x"); using the default 10`}},
		{"wrong type, string wanted", "color = 256\n",
			[]string{`config.toml:1:9: color: want one of auto, truecolor, 256, 16, none, got an integer (256) (write it in quotes: "256"); using the default "auto"`}},
		{"wrong type, bool wanted", "[warning]\nnudge = \"yes\"\n",
			[]string{`config.toml:2:9: warning.nudge: want true or false, got a string ("yes"); using the default true`}},
		{"wrong type, list wanted", "[notify]\ntiers = \"warn\"\n",
			[]string{`config.toml:2:9: notify.tiers: want a list of tiers: "warn", "dumb", "imminent", got a string ("warn"); using the default ["warn", "dumb", "imminent"]`}},
		{"allowed values", "\n\ncolor = \"pink\"\n",
			[]string{`config.toml:3:9: color = "pink": want one of auto, truecolor, 256, 16, none; using the default "auto"`}},
		{"range", "[checkpoint]\nbudget = 10\n",
			[]string{"config.toml:2:10: checkpoint.budget = 10: want 500 to 9000; using the default 6000"}},
		{"negative", "window = -1\n", []string{"config.toml:1:10: window = -1: must not be negative; using the default 0"}},
		{"out of range integer", "[statusline]\nbar_width = 99999999999999999999\n",
			[]string{"config.toml:2:13: statusline.bar_width: want an integer from 1 to 100, got an integer out of range (99999999999999999999); using the default 10"}},
		{"bad segment with suggestion", "[statusline]\nlines = [[\"zone\", \"tokns\"]]\n",
			[]string{`config.toml:2:1: statusline.lines = [["zone", "tokns"]]: unknown segment "tokns" (did you mean "tokens"?): want zone, tokens, bar, percent, compact, nudge, limits, model, dir, branch, compactions, resume, problems, cache, cost, duration, lines, git, pr, repo, worktree, agent, effort, style, vim, fast, thinking; using the default`}},
		{"bad prep", "[warning]\nprep = \"soon\"\n",
			[]string{`config.toml:2:8: warning.prep = "soon": want "warn", "dumb", a token count`}},
		{"bad duration", "[watch]\ninterval = \"often\"\n",
			[]string{`config.toml:2:12: watch.interval = "often": want a positive duration such as "90s" or "10m"; using the default "5s"`}},
		{"wrap_timeout over the cap", "[statusline]\nwrap_timeout = \"90s\"\n",
			[]string{`config.toml:2:16: statusline.wrap_timeout = "90s": at most 30s (the longest wrap_timeout honoured); using the default "10s"`}},
		{"model without match", "[[model]]\nwarn = 1\n",
			[]string{`config.toml:1:1: [[model]] #1 needs match (a glob on model.id) or window ("200k" or "1m"); it is ignored`}},
		{"warn above dumb", "[[model]]\nmatch = \"x*\"\nwarn = 200\ndumb = 100\n",
			[]string{"config.toml:1:1: [[model]] #1: want warn <= dumb (warn 200, dumb 100); it is ignored"}},
		{"bad glob", "[[model]]\nmatch = \"[\"\n",
			[]string{`config.toml:2:9: model.match = "[": not a valid glob; [[model]] #1 is ignored`}},
		{"model key typo", "[[model]]\nmatch = \"x*\"\nwran = 1\n",
			[]string{"config.toml:3:1: unknown key 'model.wran' in [[model]] #1 (did you mean 'warn'?)"}},
		{"list of tables misused", "[model]\nmatch = \"x\"\n[[statusline]]\n",
			[]string{"config.toml:1:1: [model] is a list of tables: write [[model]]; its keys are ignored",
				"config.toml:3:1: [statusline] is not a list of tables: write [statusline]; its keys are ignored"}},
		{"list of tables misspelt", "[[models]]\nmatch = \"x\"\n",
			[]string{"config.toml:1:1: unknown list of tables [[models]] (did you mean [[model]]?); its keys are ignored"}},
		{"table for the list misspelt", "[modle]\nmatch = \"x\"\n",
			[]string{"config.toml:1:1: unknown table [modle] (did you mean [[model]]?); its keys are ignored"}},
		{"unknown list of tables near a table", "[[statusln]]\n",
			[]string{"config.toml:1:1: unknown list of tables [[statusln]] (did you mean [statusline]?); its keys are ignored"}},
		{"table near both", "[mode]\n", []string{"config.toml:1:1: unknown table [mode] (did you mean [mod]?); its keys are ignored"}},
		{"list near both", "[[mode]]\n", []string{"config.toml:1:1: unknown list of tables [[mode]] (did you mean [[model]]?); its keys are ignored"}},
		{"unknown list of tables", "[[zzzzzz]]\nx = 1\n",
			[]string{"config.toml:1:1: unknown list of tables [[zzzzzz]]; its keys are ignored"}},
		{"set twice", "color = \"none\"\ncolor = \"256\"\n",
			[]string{"config.toml:2:1: 'color' is set twice; the first value is kept (first on line 1)"}},
		{"syntax error, then more", "color = \n[statusline]\nbar_width = 0\n",
			[]string{"config.toml:1:9: not valid TOML: a value is missing after '='",
				"config.toml:3:13: statusline.bar_width = 0: want 1 to 100; using the default 10"}},
		{"control characters escaped", `"\u001b[2J" = 1` + "\n" + `color = "\u001b]0;x\u0007\u202e"` + "\n",
			[]string{`config.toml:1:1: unknown key '"\u001B[2J"'`, `config.toml:2:9: color = "\u001B]0;x\u0007\u202E": want one of`}},
		{"raw control character", "color = \"\x1b[2J\"\n", []string{"config.toml:1:10: not valid TOML: basic strings cannot have control characters"}},
		{"line order across kinds", "[statusline]\nindent = 99\n[[model]]\nmatch = \"x\"\nwarn = 9\ndumb = 1\n[notify]\nurgncy = \"low\"\n",
			[]string{"config.toml:2:10: statusline.indent = 99", "config.toml:3:1: [[model]] #1: want warn <= dumb", "config.toml:8:1: unknown key 'notify.urgncy' (did you mean 'notify.urgency'?)"}},
		{"broken header", "[notify]\nurgency = \"low\"\n[warning\ntiers = [\"dumb\"]\n[statusline]\nindent = 3\nindent = 4\n",
			[]string{"config.toml:3:9: not valid TOML", "config.toml:7:1: 'statusline.indent' is set twice"}},
		{"binary garbage", "\x00\x01\xff\xfe", []string{"config.toml:1:1: not valid TOML"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tt.in))
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error is not Errors: %T %v", err, err)
			}
			if len(es) != len(tt.want) {
				t.Fatalf("%d problems, want %d:\n%v", len(es), len(tt.want), es)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(es[i].Error(), w) {
					t.Errorf("problem %d:\n got %s\nwant %s", i+1, es[i].Error(), w)
				}
				if strings.Contains(es[i].Msg, "toml:") || strings.Contains(es[i].Msg, "struct field") || strings.Contains(es[i].Msg, "config.") {
					t.Errorf("Go internals in %q", es[i].Msg)
				}
				if es[i].Context == "" || !strings.Contains(es[i].Context, "~") {
					t.Errorf("no caret diagram for %q:\n%s", es[i].Msg, es[i].Context)
				}
			}
		})
	}
}

// TestPartialConfig: one typo keeps every valid key; a bad value keeps the default for that key
// only.
func TestPartialConfig(t *testing.T) {
	in := "color = \"none\"\nglyphs = \"ascii\"\ncolour = \"none\"\n[statusline]\nbar_width = \"wide\"\nindent = 4\n[[model]]\nmatch = \"claude-opus-*\"\nwarn = 90_000\ndumb = 130_000\n[[model]]\nmatch = \"[\"\n"
	c, err := Parse("config.toml", []byte(in))
	var es Errors
	if !errors.As(err, &es) || len(es) != 3 {
		t.Fatalf("want 3 problems, got %v", err)
	}
	want := Default()
	want.Color, want.Glyphs, want.Statusline.Indent = "none", "ascii", 4
	want.Models = []Model{{Match: "claude-opus-*", Warn: 90_000, Dumb: 130_000}}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("kept\n%+v\nwant\n%+v", c, want)
	}
	if got := es.Summary(); got != "config.toml:3:1: unknown key 'colour' (did you mean 'color'?) (+2 more)" {
		t.Fatalf("summary %q", got)
	}
}

// TestBrokenHeaderKeepsKeysOut: the keys under a header that does not parse land in no table (not
// in the one before it).
func TestBrokenHeaderKeepsKeysOut(t *testing.T) {
	c, _ := Parse("c.toml", []byte("[notify]\nurgency = \"low\"\n[warning\ntiers = [\"dumb\"]\n[statusline]\nindent = 3\n"))
	if c.Notify.Urgency != "low" || !reflect.DeepEqual(c.Notify.Tiers, Default().Notify.Tiers) || c.Statusline.Indent != 3 {
		t.Fatalf("urgency %q, notify tiers %v, indent %d", c.Notify.Urgency, c.Notify.Tiers, c.Statusline.Indent)
	}
	for _, in := range []string{"[", "x = 1\n[", "[[model]]\nmatch = \"x\"\n[[mod"} {
		if _, err := Parse("c.toml", []byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestShortenedErrors(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		b.WriteString("[t" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "]\n")
	}
	_, err := Parse("c.toml", []byte(b.String()))
	es := err.(Errors)
	short := es.shorten(5)
	if len(short) != 6 || short.Count() != 50 || !strings.HasSuffix(short.Summary(), "(+49 more)") {
		t.Fatalf("shortened: %d entries, count %d, %q", len(short), short.Count(), short.Summary())
	}
}

func TestOverrides(t *testing.T) {
	in := `
color = "none"
[[model]]
match = "claude-opus-*"
warn = 90_000
dumb = 130_000
prep = 110000
[[model]]
window = "1m"
prep = "60%"
`
	c, err := Parse("c.toml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	rules := c.Rules()
	if len(rules) != 2 || rules[0].Warn != 90_000 || rules[0].Prep != "110000" || rules[1].Prep != "60%" {
		t.Fatalf("rules = %+v", rules)
	}
	if c.Color != "none" {
		t.Fatalf("color = %q", c.Color)
	}
}

// TestTOMLForms: the same settings written as dotted keys, inline tables and an array of inline
// tables decode as the table form does.
func TestTOMLForms(t *testing.T) {
	want, err := Parse("a.toml", []byte("[statusline]\nbar_width = 7\n[flow.timeouts]\nprep = \"5m\"\n[[model]]\nmatch = \"x*\"\nwarn = 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"statusline.bar_width = 7\nflow.timeouts.prep = \"5m\"\nmodel = [{match = \"x*\", warn = 5}]\n",
		"statusline = { bar_width = 7 }\nflow = { timeouts = { prep = \"5m\" } }\n[[model]]\nmatch = 'x*'\nwarn = 0x5\n",
	} {
		got, err := Parse("b.toml", []byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v\n%+v\nwant\n%+v", in, err, got, want)
		}
	}
}

// TestSchemaCoversConfig: every field of Config (and of Model) has exactly one schema entry, so
// decoding, show and the cache cannot miss one.
func TestSchemaCoversConfig(t *testing.T) {
	var walk func(prefix string, typ reflect.Type) []string
	walk = func(prefix string, typ reflect.Type) []string {
		var keys []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			key := f.Tag.Get("toml")
			if prefix != "" {
				key = prefix + "." + key
			}
			if f.Type.Kind() == reflect.Struct {
				keys = append(keys, walk(key, f.Type)...)
				continue
			}
			keys = append(keys, key)
		}
		return keys
	}
	var got []string
	for _, f := range schema {
		got = append(got, f.key)
	}
	got = append(got, modelTable)
	want := walk("", reflect.TypeOf(Config{}))
	if !reflect.DeepEqual(sorted(got), sorted(want)) {
		t.Fatalf("schema keys\n%v\nConfig fields\n%v", sorted(got), sorted(want))
	}
	got = nil
	for _, f := range modelSchema {
		got = append(got, f.key)
	}
	if want := walk("", reflect.TypeOf(Model{})); !reflect.DeepEqual(sorted(got), sorted(want)) {
		t.Fatalf("model schema keys %v, Model fields %v", got, want)
	}
	// Each entry points at the field its key names.
	for _, f := range schema {
		c := Default()
		if got, want := reflect.ValueOf(storage(t, f.val, c, nil)).Pointer(), fieldAt(reflect.ValueOf(c).Elem(), f.key).Addr().Pointer(); got != want {
			t.Errorf("%s: the schema points at another field", f.key)
		}
	}
	for _, f := range modelSchema {
		m := &Model{}
		if got, want := reflect.ValueOf(storage(t, f.val, nil, m)).Pointer(), fieldAt(reflect.ValueOf(m).Elem(), f.key).Addr().Pointer(); got != want {
			t.Errorf("model.%s: the schema points at another field", f.key)
		}
	}
}

// storage returns the pointer a value stores through.
func storage(t *testing.T, v value, c *Config, m *Model) any {
	switch o := v.(type) {
	case of[string]:
		return o.at(c, m)
	case of[bool]:
		return o.at(c, m)
	case of[*bool]:
		return o.at(c, m)
	case of[int]:
		return o.at(c, m)
	case of[int64]:
		return o.at(c, m)
	case of[any]:
		return o.at(c, m)
	case of[[]string]:
		return o.at(c, m)
	case of[[][]string]:
		return o.at(c, m)
	}
	t.Fatalf("storage: a value of kind %T", v)
	return nil
}

// fieldAt returns the field of struct v at a dotted toml key.
func fieldAt(v reflect.Value, key string) reflect.Value {
	for _, part := range strings.Split(key, ".") {
		typ := v.Type()
		for i := range typ.NumField() {
			if typ.Field(i).Tag.Get("toml") == part {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func TestLoadUnreadable(t *testing.T) {
	dir := testtmp.Dir(t)
	p := filepath.Join(dir, "config.toml")
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil {
		t.Fatal("a directory as config must be an error")
	}
}

// TestShowEffective: a value the file set is printed bare, a default says so, and a value the
// renderer computes replaces the setting, with where it came from.
func TestShowEffective(t *testing.T) {
	dir := testtmp.Dir(t)
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("glyphs = \"ascii\"\n[statusline]\nbar_width = 10\n"), 0o600)
	c, set, err := LoadSources(path)
	if err != nil {
		t.Fatal(err)
	}
	out := string(c.ShowEffective(set, map[string]Effective{"statusline.separator": {Value: `" | "`, From: "the ascii glyph set's"}}))
	for _, want := range []string{
		"glyphs = \"ascii\"\n",
		"color = \"auto\"  # default\n",
		"[statusline]\n",
		"separator = \" | \"  # the ascii glyph set's\n",
		"bar_width = 10\n",
		"indent = 2  # default\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if back, err := Parse("shown.toml", []byte(out)); err != nil || back.Glyphs != "ascii" || back.Statusline.Separator != " | " {
		t.Fatalf("show's output does not read back: %v", err)
	}
}
