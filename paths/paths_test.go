package paths

import (
	"slices"
	"testing"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		home     string
		want     Paths
		problems int
	}{
		{"defaults", nil, "/h", Paths{Config: "/h/.config/zoneline/config.toml", StateDir: "/h/.local/state/zoneline", ClaudeDir: "/h/.claude"}, 0},
		{"own variables", map[string]string{"ZONELINE_CONFIG": "/c/z.toml", "ZONELINE_STATE_DIR": "/s/", "CLAUDE_CONFIG_DIR": "/cc"}, "/h",
			Paths{Config: "/c/z.toml", StateDir: "/s", ClaudeDir: "/cc"}, 0},
		{"xdg", map[string]string{"XDG_CONFIG_HOME": "/x", "XDG_STATE_HOME": "/y"}, "/h",
			Paths{Config: "/x/zoneline/config.toml", StateDir: "/y/zoneline", ClaudeDir: "/h/.claude"}, 0},
		{"relative variables are ignored", map[string]string{"ZONELINE_CONFIG": "c.toml", "XDG_CONFIG_HOME": ".config", "ZONELINE_STATE_DIR": "state", "XDG_STATE_HOME": "x", "CLAUDE_CONFIG_DIR": ".claude"}, "/h",
			Paths{Config: "/h/.config/zoneline/config.toml", StateDir: "/h/.local/state/zoneline", ClaudeDir: "/h/.claude"}, 5},
		{"home unset", nil, "", Paths{}, 1},
		{"home relative", nil, "home", Paths{}, 1},
		{"home dot", nil, ".", Paths{}, 1},
		{"home unset, relative xdg", map[string]string{"XDG_CONFIG_HOME": ".config", "XDG_STATE_HOME": ".local/state"}, "", Paths{}, 3},
		{"home unset, absolute own variables", map[string]string{"ZONELINE_CONFIG": "/c.toml", "ZONELINE_STATE_DIR": "/s"}, "",
			Paths{Config: "/c.toml", StateDir: "/s"}, 1},
		{"home unset, absolute xdg", map[string]string{"XDG_CONFIG_HOME": "/x", "XDG_STATE_HOME": "/y", "CLAUDE_CONFIG_DIR": "/cc"}, "",
			Paths{Config: "/x/zoneline/config.toml", StateDir: "/y/zoneline", ClaudeDir: "/cc"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(func(k string) string { return tt.env[k] }, tt.home)
			if got.Config != tt.want.Config || got.StateDir != tt.want.StateDir || got.ClaudeDir != tt.want.ClaudeDir {
				t.Errorf("Resolve = %+v, want %+v", got, tt.want)
			}
			if len(got.Problems) != tt.problems {
				t.Errorf("problems %q, want %d", got.Problems, tt.problems)
			}
			if got.Resolved() != (tt.want.Config != "" && tt.want.StateDir != "") {
				t.Errorf("Resolved() = %v", got.Resolved())
			}
			for _, p := range []string{got.Config, got.StateDir, got.ClaudeDir} {
				if p != "" && p[0] != '/' {
					t.Errorf("relative path %q", p)
				}
			}
		})
	}
	got := Resolve(func(string) string { return "" }, "")
	if !slices.Equal(got.Problems, []string{"HOME is unset: no config (defaults), no state dir, no Claude Code folder"}) {
		t.Errorf("problems %q", got.Problems)
	}
}
