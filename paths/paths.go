// Package paths says where zoneline's config and state, and Claude Code's own folder, live. It
// reads no environment itself: the caller hands it a getenv function and the home directory.
//
// Every path it returns is absolute or empty. Claude Code runs the statusline and the hooks in
// each project's folder, so a relative path would put state into, and read config from, the
// project: a path that cannot be made absolute from the environment is left empty, and the
// reason is one of Problems. Nothing is guessed.
package paths

import (
	"path/filepath"
	"runtime"
	"strings"
)

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
//
// On Windows the defaults follow Windows' own places, after the zoneline and XDG variables:
// config in %APPDATA%\zoneline\config.toml, state in %LOCALAPPDATA%\zoneline\state (each
// else under home's AppData\Roaming or AppData\Local), Claude Code's folder in
// %USERPROFILE%\.claude (home).
func Resolve(getenv func(string) string, home string) Paths {
	return resolve(getenv, home, runtime.GOOS == "windows")
}

// place is where one path comes from, in order: its own variable as is, an XDG base variable
// joined with rest, on Windows a Windows base variable joined with winRest, else home joined
// with def and rest (winDef and winRest on Windows).
type place struct {
	what          string
	own, xdg, win string
	rest, winRest []string
	def, winDef   []string
}

func resolve(getenv func(string) string, home string, windows bool) Paths {
	var p Paths
	var missing []string
	homeWhy := ""
	switch {
	case home == "":
		homeWhy = "HOME is unset"
		if windows {
			homeWhy = "USERPROFILE is unset"
		}
	case !filepath.IsAbs(home):
		homeWhy = "HOME is relative"
	}
	base := func(name string, rest []string) string {
		if name == "" {
			return ""
		}
		v := getenv(name)
		if v == "" {
			return ""
		}
		if !filepath.IsAbs(v) {
			p.Problems = append(p.Problems, name+" is relative: ignored")
			return ""
		}
		return filepath.Join(append([]string{v}, rest...)...)
	}
	pick := func(pl place) string {
		if v := getenv(pl.own); v != "" {
			if filepath.IsAbs(v) {
				return filepath.Clean(v)
			}
			p.Problems = append(p.Problems, pl.own+" is relative: ignored")
		}
		if v := base(pl.xdg, pl.rest); v != "" {
			return v
		}
		def, rest := pl.def, pl.rest
		if windows {
			if v := base(pl.win, pl.winRest); v != "" {
				return v
			}
			def, rest = pl.winDef, pl.winRest
		}
		if homeWhy == "" {
			return filepath.Join(append(append([]string{home}, def...), rest...)...)
		}
		missing = append(missing, pl.what)
		return ""
	}
	p.Config = pick(place{what: "config (defaults)", own: "ZONELINE_CONFIG", xdg: "XDG_CONFIG_HOME", win: "APPDATA",
		rest: []string{"zoneline", "config.toml"}, winRest: []string{"zoneline", "config.toml"},
		def: []string{".config"}, winDef: []string{"AppData", "Roaming"}})
	p.StateDir = pick(place{what: "state dir", own: "ZONELINE_STATE_DIR", xdg: "XDG_STATE_HOME", win: "LOCALAPPDATA",
		rest: []string{"zoneline"}, winRest: []string{"zoneline", "state"},
		def: []string{".local", "state"}, winDef: []string{"AppData", "Local"}})
	p.ClaudeDir = pick(place{what: "Claude Code folder", own: "CLAUDE_CONFIG_DIR", def: []string{".claude"}, winDef: []string{".claude"}})
	if len(missing) > 0 {
		p.Problems = append(p.Problems, homeWhy+": no "+strings.Join(missing, ", no "))
	}
	return p
}
