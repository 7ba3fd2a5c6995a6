package cli

import (
	"github.com/zoneline/zoneline/hook"
	"github.com/zoneline/zoneline/payload"
)

// runHook is `zoneline hook`, registered for every hook event; it reads the payload on stdin.
func runHook(e *Env, args []string) int {
	data, readErr := payload.Read(e.Stdin)
	cfg, cfgErr := e.loadConfigCached()
	if cfgErr != nil {
		e.State.Log("hook", "config: %s", oneLine(cfgErr.Error()))
	}
	c := &hook.Context{State: e.State, Config: cfg, ConfigErr: cfgErr, ClaudeDir: e.Paths.ClaudeDir, Getenv: e.Getenv, Now: e.Now}
	return hook.Run(c, data, readErr, e.Stdout)
}
