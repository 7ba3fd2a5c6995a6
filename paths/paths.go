// Package paths says where zoneline's config and state, and Claude Code's own folder, live. It
// reads no environment itself: the caller hands it a getenv function and the home directory.
package paths

import "path/filepath"

// Paths are the three places zoneline reads and writes.
type Paths struct {
	Config    string // the config file
	StateDir  string // the state directory
	ClaudeDir string // Claude Code's folder (settings.json, projects/, skills/)
}

// Resolve applies the contract: config from $ZONELINE_CONFIG, else
// $XDG_CONFIG_HOME/zoneline/config.toml (default ~/.config/zoneline/config.toml); state from
// $ZONELINE_STATE_DIR, else $XDG_STATE_HOME/zoneline (default ~/.local/state/zoneline); Claude
// Code's folder from $CLAUDE_CONFIG_DIR, else ~/.claude. A relative $ZONELINE_STATE_DIR,
// $XDG_STATE_HOME or $XDG_CONFIG_HOME is ignored, as the XDG spec says: Claude Code runs the
// statusline and hooks in each project's folder, so a relative state dir would scatter state
// into every project.
func Resolve(getenv func(string) string, home string) Paths {
	var p Paths
	p.Config = getenv("ZONELINE_CONFIG")
	if p.Config == "" {
		base := getenv("XDG_CONFIG_HOME")
		if !filepath.IsAbs(base) {
			base = filepath.Join(home, ".config")
		}
		p.Config = filepath.Join(base, "zoneline", "config.toml")
	}
	p.StateDir = getenv("ZONELINE_STATE_DIR")
	if !filepath.IsAbs(p.StateDir) {
		base := getenv("XDG_STATE_HOME")
		if !filepath.IsAbs(base) {
			base = filepath.Join(home, ".local", "state")
		}
		p.StateDir = filepath.Join(base, "zoneline")
	}
	p.ClaudeDir = getenv("CLAUDE_CONFIG_DIR")
	if p.ClaudeDir == "" {
		p.ClaudeDir = filepath.Join(home, ".claude")
	}
	return p
}
