package cli

import (
	"runtime/debug"

	"github.com/zoneline/zoneline/hook"
	"github.com/zoneline/zoneline/payload"
)

// runHook is `zoneline hook`, registered for every hook event; it reads the payload on stdin.
// It never fails Claude Code: a panic anywhere (even before dispatch) is logged and exits 0,
// since Go's exit code 2 for a panic would erase a UserPromptSubmit prompt.
func runHook(e *Env, args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			e.State.Log("hook", "panic: %v\n%s", r, debug.Stack())
			code = exitOK
		}
	}()
	if !e.Paths.Resolved() {
		return exitOK // no config path or no state dir: a hook keeps nothing, so it does nothing
	}
	data, readErr := payload.Read(e.Stdin)
	cfg, cfgErr := e.loadConfigCached()
	if cfgErr != nil {
		e.State.Log("hook", "config: %s", configProblem(cfgErr))
	}
	c := &hook.Context{State: e.State, Config: cfg, ConfigErr: cfgErr, ClaudeDir: e.Paths.ClaudeDir, Getenv: e.Getenv, Now: e.Now}
	return hook.Run(c, data, readErr, e.Stdout)
}
