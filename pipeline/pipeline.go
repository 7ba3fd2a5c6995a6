// Package pipeline is the statusline's pipeline: one render from Claude Code's JSON to the
// line (decode, the model's zones and auto-compact point, the transcript's tail when the
// payload has no count, segments), and the bookkeeping after the line is printed (the
// registry's save policy, the compaction count, the warning loop). It is handed a Context, as a
// hook handler is (hook.Context): nothing here reads the environment or flags on its own.
package pipeline

import (
	"time"

	"github.com/zoneline/zoneline/state"
)

// Context is what a render is handed by the command line, resolved once per process.
type Context struct {
	State     state.Dir // "" Root: keep no state, write no log (preview)
	ClaudeDir string    // Claude Code's folder: its settings can move or turn off auto-compact
	// Problems are the environment's (paths.Paths.Problems): shown on every line.
	Problems []string
	Getenv   func(string) string
	Now      func() time.Time
	// Sleep waits d (nil: time.Sleep). The Stop hook's wait for the turn's reply sleeps between
	// polls through it and reads its clock from Now, so a test drives the wait by events, not
	// by the machine's speed.
	Sleep func(d time.Duration)
	// ModCall: this render is `zoneline mod status`, whose payload has no model display name:
	// the registry keeps the status line's (KeepRegistryNames).
	ModCall bool
}

// Live reports whether the statusline runs under Claude Code, which sets CLAUDECODE=1 and
// CLAUDE_CODE_SESSION_ID in its commands' environment (2.1.332). A render without either is a
// person's (`zoneline statusline < payload.json` in a shell, a benchmark, a test): it prints the
// line but keeps nothing, so the registry (`zoneline sessions`, doctor's "last seen") and the
// warning loop (markers, notifications) speak of real sessions only.
func (c *Context) Live() bool {
	return c.Getenv("CLAUDECODE") != "" || c.Getenv("CLAUDE_CODE_SESSION_ID") != ""
}
