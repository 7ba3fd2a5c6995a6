package cli

import (
	"runtime/debug"
	"time"

	"github.com/zoneline/zoneline/hook"
	"github.com/zoneline/zoneline/payload"
)

// runHook is `zoneline hook`, registered for every hook event; it reads the payload on stdin.
// It never fails Claude Code: a panic anywhere (even before dispatch) is logged and exits 0,
// since Go's exit code 2 for a panic would erase a UserPromptSubmit prompt. Its deadline
// (hook.Deadline) starts before stdin is read, and a stdin left open is read for hookStdinWait.
func runHook(e *Env, args []string) (code int) {
	start := time.Now()
	var guard *hook.Guard
	if e.process {
		ignoreSIGPIPE()
		guard = hook.StartGuard(e.State, hook.Deadline, nil)
	}
	defer func() {
		if r := recover(); r != nil {
			e.State.Log("hook", "panic: %v\n%s", r, debug.Stack())
			code = exitOK
		}
	}()
	if !e.Paths.Resolved() {
		return exitOK // no config path or no state dir: a hook keeps nothing, so it does nothing
	}
	data, readErr := e.readPayload(start, hookStdinWait)
	cfg, cfgErr := e.loadConfigCached()
	if cfgErr != nil {
		e.State.Log("hook", "config: %s", configProblem(cfgErr))
	}
	c := &hook.Context{State: e.State, Config: cfg, ConfigErr: cfgErr, ClaudeDir: e.Paths.ClaudeDir, Getenv: e.Getenv, Now: e.Now, Guard: guard,
		Warn: func(h *payload.Hook) error { return e.stopWarning(cfg, h) }}
	return hook.Run(c, data, readErr, e.Stdout)
}
