package cli

import (
	"flag"
	"runtime/debug"
	"time"

	"github.com/zoneline/zoneline/pipeline"

	"github.com/zoneline/zoneline/hookevent"
	"github.com/zoneline/zoneline/payload"
)

var cmdHook = &Command{
	Name: "hook", UsageLine: "hook < payload.json",
	Short: "the hook command for every Claude Code hook event (payload on stdin)",
	Long: `The one command of every hook zoneline registers (SessionStart, UserPromptSubmit, Stop,
PreCompact, PostCompact): it reads the hook's JSON on stdin and dispatches on its
hook_event_name. It never fails Claude Code: whatever arrives it exits 0 within its deadline,
and a problem goes to the log.`,
	Parse:    func(*Env, *flag.FlagSet) func([]string) error { return nil },
	Hot:      runHook,
	AnyPaths: true,
}

// runHook is `zoneline hook`, registered for every hook event; it reads the payload on stdin.
// It never fails Claude Code: a panic anywhere (even before dispatch) is logged and exits 0,
// since Go's exit code 2 for a panic would erase a UserPromptSubmit prompt. Its deadline
// (hookevent.Deadline) starts before stdin is read, and a stdin left open is read for hookStdinWait.
func runHook(e *Env, args []string) {
	start := time.Now()
	var guard *hookevent.Guard
	if e.process {
		ignoreSIGPIPE()
		guard = hookevent.StartGuard(e.State, hookevent.Deadline, nil)
	}
	defer func() {
		if r := recover(); r != nil {
			e.State.Log("hook", "panic: %v\n%s", r, debug.Stack())
		}
	}()
	if !e.Paths.Resolved() {
		return // no config path or no state dir: a hook keeps nothing, so it does nothing
	}
	data, readErr := e.readPayload(start, hookStdinWait)
	cfg, cfgErr := e.loadConfigCached()
	if cfgErr != nil {
		e.State.Log("hook", "config: %s", pipeline.ConfigProblem(cfgErr))
	}
	c := &hookevent.Context{State: e.State, Config: cfg, ConfigErr: cfgErr, ClaudeDir: e.Paths.ClaudeDir, Getenv: e.Getenv, Now: e.Now, Guard: guard,
		Warn: func(h *payload.Hook) error { return e.pipeline().StopWarning(cfg, h) }}
	hookevent.Run(c, data, readErr, e.Stdout)
}
