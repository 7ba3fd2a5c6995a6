// Package paths says where zoneline's config and state, and Claude Code's own folder, live. It
// reads no environment itself: the caller hands it a getenv function and the home directory.
//
// Every path it returns is absolute or empty. Claude Code runs the statusline and the hooks in
// each project's folder, so a relative path would put state into, and read config from, the
// project: a path that cannot be made absolute from the environment is left empty, and the
// reason is one of Problems. Nothing is guessed.
package paths

import "path/filepath"

// Paths are the three places zoneline reads and writes. A field is "" when the environment
// gives no absolute path for it; Problems then says why.
type Paths struct {
	Config    string // the config file
	StateDir  string // the state directory
	ClaudeDir string // Claude Code's folder (settings.json, projects/, skills/)
	// Problems are short reasons, fit for a status-line segment: one per ignored variable, and
	// one naming the unresolved paths ("HOME is unset: no state dir, no Claude Code folder").
	Problems []string
}

// Resolved reports whether the config and the state dir both have a path: the statusline keeps
// state and the hooks run only then.
func (p Paths) Resolved() bool { return p.Config != "" && p.StateDir != "" }

// Resolve applies the contract: config from $ZONELINE_CONFIG, else
// $XDG_CONFIG_HOME/zoneline/config.toml (default ~/.config/zoneline/config.toml); state from
// $ZONELINE_STATE_DIR, else $XDG_STATE_HOME/zoneline (default ~/.local/state/zoneline); Claude
// Code's folder from $CLAUDE_CONFIG_DIR, else ~/.claude. A variable that holds a relative path
// is ignored (the XDG spec says so of its variables) and named in Problems; home counts only
// when absolute. A path with no absolute source is "".
func Resolve(getenv func(string) string, home string) Paths {
	var p Paths
	var missing []string
	homeWhy := ""
	switch {
	case home == "":
		homeWhy = "HOME is unset"
	case !filepath.IsAbs(home):
		homeWhy = "HOME is relative"
	}
	// pick returns the first absolute candidate: the variable's value as is (own) or joined with
	// rest (base), else home joined with def.
	pick := func(what, own, base string, rest []string, def []string) string {
		if v := getenv(own); v != "" {
			if filepath.IsAbs(v) {
				return filepath.Clean(v)
			}
			p.Problems = append(p.Problems, own+" is relative: ignored")
		}
		if base != "" {
			if v := getenv(base); v != "" {
				if filepath.IsAbs(v) {
					return filepath.Join(append([]string{v}, rest...)...)
				}
				p.Problems = append(p.Problems, base+" is relative: ignored")
			}
		}
		if homeWhy == "" {
			return filepath.Join(append(append([]string{home}, def...), rest...)...)
		}
		missing = append(missing, what)
		return ""
	}
	p.Config = pick("config (defaults)", "ZONELINE_CONFIG", "XDG_CONFIG_HOME", []string{"zoneline", "config.toml"}, []string{".config"})
	p.StateDir = pick("state dir", "ZONELINE_STATE_DIR", "XDG_STATE_HOME", []string{"zoneline"}, []string{".local", "state"})
	p.ClaudeDir = pick("Claude Code folder", "CLAUDE_CONFIG_DIR", "", nil, []string{".claude"})
	if len(missing) > 0 {
		msg := homeWhy + ": no "
		for i, m := range missing {
			if i > 0 {
				msg += ", no "
			}
			msg += m
		}
		p.Problems = append(p.Problems, msg)
	}
	return p
}
