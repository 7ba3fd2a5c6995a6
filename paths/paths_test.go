package paths

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

func TestResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths: TestResolveWindows covers Windows")
	}
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

// TestResolveWindows runs on Windows (under Wine in CI): the zoneline and XDG variables first,
// then Windows' own places.
func TestResolveWindows(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows paths: runs in the Windows leg (GOOS=windows go test -exec wine)")
	}
	home := `C:\Users\Me Name`
	win := map[string]string{"APPDATA": `C:\Users\Me Name\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\Me Name\AppData\Local`}
	tests := []struct {
		name     string
		env      map[string]string
		home     string
		want     Paths
		problems int
	}{
		{"windows places", win, home, Paths{
			Config:    `C:\Users\Me Name\AppData\Roaming\zoneline\config.toml`,
			StateDir:  `C:\Users\Me Name\AppData\Local\zoneline\state`,
			ClaudeDir: `C:\Users\Me Name\.claude`}, 0},
		{"no APPDATA: under home", nil, home, Paths{
			Config:    `C:\Users\Me Name\AppData\Roaming\zoneline\config.toml`,
			StateDir:  `C:\Users\Me Name\AppData\Local\zoneline\state`,
			ClaudeDir: `C:\Users\Me Name\.claude`}, 0},
		{"zoneline variables win", map[string]string{"APPDATA": win["APPDATA"], "ZONELINE_CONFIG": `D:\z\c.toml`, "ZONELINE_STATE_DIR": `D:\s`, "CLAUDE_CONFIG_DIR": `D:\cc`}, home,
			Paths{Config: `D:\z\c.toml`, StateDir: `D:\s`, ClaudeDir: `D:\cc`}, 0},
		{"xdg before windows", map[string]string{"APPDATA": win["APPDATA"], "XDG_CONFIG_HOME": `D:\x`, "XDG_STATE_HOME": `D:\y`}, home,
			Paths{Config: `D:\x\zoneline\config.toml`, StateDir: `D:\y\zoneline`, ClaudeDir: `C:\Users\Me Name\.claude`}, 0},
		{"relative APPDATA ignored", map[string]string{"APPDATA": `AppData`}, home, Paths{
			Config:    `C:\Users\Me Name\AppData\Roaming\zoneline\config.toml`,
			StateDir:  `C:\Users\Me Name\AppData\Local\zoneline\state`,
			ClaudeDir: `C:\Users\Me Name\.claude`}, 1},
		{"no profile", nil, "", Paths{}, 1},
		{"no profile, windows places", win, "", Paths{
			Config:   `C:\Users\Me Name\AppData\Roaming\zoneline\config.toml`,
			StateDir: `C:\Users\Me Name\AppData\Local\zoneline\state`}, 1},
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
			for _, p := range []string{got.Config, got.StateDir, got.ClaudeDir} {
				if p != "" && !filepath.IsAbs(p) {
					t.Errorf("relative path %q", p)
				}
			}
		})
	}
}
