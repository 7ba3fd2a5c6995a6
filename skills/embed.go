// Package skills holds the Claude Code skills zoneline ships, embedded in the binary so that
// `zoneline install` can write them into Claude Code's skills folder.
package skills

import "embed"

// FS holds each skill's folder: compact-prep/SKILL.md, postcompact/SKILL.md.
//
//go:embed compact-prep/SKILL.md postcompact/SKILL.md
var FS embed.FS
