// Package ccmod holds zoneline's Claude Code mod (the plugin folder zoneline/), embedded in the
// binary so that `zoneline install -mod` can write it into Claude Code's folder.
package ccmod

import "embed"

// FS holds the mod's folder: zoneline/.claude-plugin/plugin.json, zoneline/hooks/…, its types
// and its tests (run by `claude plugin test`).
//
//go:embed zoneline/.claude-plugin/plugin.json zoneline/hooks zoneline/types zoneline/tests
var FS embed.FS

// Root is the mod's folder inside FS.
const Root = "zoneline"
