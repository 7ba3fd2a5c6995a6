package pipeline

import (
	"errors"
	"path/filepath"
	"strconv"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

// CompactInput gathers what decides the auto-compact point of a window: the environment,
// Claude Code's settings (the user's and projectDir's), the config.
func (c *Context) CompactInput(cfg *config.Config, window int64, projectDir string) zones.CompactInput {
	in := zones.CompactInput{
		Window:         window,
		MaxOutput:      cfg.AutoCompact.MaxOutput,
		EnvWindow:      c.Getenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
		EnvPct:         c.Getenv("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"),
		EnvDisableAuto: c.Getenv("DISABLE_AUTO_COMPACT"),
		EnvDisableAll:  c.Getenv("DISABLE_COMPACT"),
		Override:       cfg.AutoCompact.Point,
		OverrideOff:    cfg.AutoCompact.Enabled != nil && !*cfg.AutoCompact.Enabled,
	}
	for _, f := range settingsFiles(c.ClaudeDir, projectDir) { // a later file overrides what it sets
		on, window := claudeSettings(f)
		if on != nil {
			in.SettingsOn = on
		}
		if window != 0 {
			in.SettingsWindow = window
		}
	}
	return in
}

// claudeSettings reads autoCompactEnabled and autoCompactWindow from one of Claude Code's
// settings files (jsonscan: no encoding/json on the hot path): nil and 0 for a key the file
// does not set (or a file that does not read).
func claudeSettings(path string) (enabled *bool, window int64) {
	data, err := state.ReadFile(path, 1<<20)
	if err != nil {
		return nil, 0
	}
	var v autoCompact
	if err := jsonscan.DecodeFields(data, &v, autoCompactFields[:]); err != nil && !errors.As(err, new(*jsonscan.TypeError)) {
		return nil, 0
	}
	return v.enabled, v.window
}

// autoCompact is what a settings file says of auto-compact.
type autoCompact struct {
	enabled *bool
	window  int64
}

var autoCompactFields = [...]jsonscan.Field[autoCompact]{
	{Key: "autoCompactEnabled", Read: func(s *jsonscan.Scanner, v *autoCompact) error { return s.BoolPtr(&v.enabled) }},
	{Key: "autoCompactWindow", Read: func(s *jsonscan.Scanner, v *autoCompact) error {
		raw, err := s.Raw()
		if n, perr := strconv.ParseInt(string(raw), 10, 64); perr == nil {
			v.window = n
		}
		return err
	}},
}

// settingsFiles are Claude Code's settings that can turn auto-compact off or move it, lowest
// precedence first: the user's, the project's, the project's local ones.
func settingsFiles(claudeDir, projectDir string) []string {
	var files []string
	if filepath.IsAbs(claudeDir) {
		files = append(files, filepath.Join(claudeDir, "settings.json"))
	}
	if filepath.IsAbs(projectDir) {
		files = append(files, filepath.Join(projectDir, ".claude", "settings.json"), filepath.Join(projectDir, ".claude", "settings.local.json"))
	}
	return files
}
