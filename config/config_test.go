package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
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
	c, err := Load(filepath.Join(t.TempDir(), "nope.toml"))
	if err != nil || !reflect.DeepEqual(c, Default()) {
		t.Fatalf("Load(missing) = %+v, %v; want defaults, nil", c, err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // substring of the first error, with position
	}{
		{"unknown key", "color = \"auto\"\ncolour = \"none\"\n", "config.toml:2:1: unknown key 'colour'"},
		{"unknown nested key", "[statusline]\nbar_widht = 3\n", "config.toml:2:1: unknown key 'statusline.bar_widht'"},
		{"wrong type", "bar = 1\n[statusline]\nbar_width = \"x\"\n", "config.toml:"},
		{"syntax", "color = \n", "config.toml:1:"},
		{"bad enum", "\n\ncolor = \"pink\"\n", "config.toml:3:1: color = \"pink\": want one of"},
		{"bad segment", "[statusline]\nlines = [[\"zone\", \"nope\"]]\n", "config.toml:2:1: unknown segment \"nope\""},
		{"bad prep", "[warning]\nprep = \"soon\"\n", "config.toml:2:1: prep = \"soon\""},
		{"model without match", "[[model]]\nwarn = 1\n", "needs match"},
		{"warn above dumb", "[[model]]\nmatch = \"x*\"\nwarn = 200\ndumb = 100\n", "warn <= dumb"},
		{"bad glob", "[[model]]\nmatch = \"[\"\n", "not a valid glob"},
		{"binary garbage", "\x00\x01\xff\xfe", "config.toml:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("config.toml", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error for %q", tt.in)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not contain %q", err.Error(), tt.want)
			}
			if !reflect.DeepEqual(c, Default()) {
				t.Fatalf("a broken config must yield the defaults")
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error is not Errors: %T", err)
			}
		})
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

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.toml")
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil {
		t.Fatal("a directory as config must be an error")
	}
}
