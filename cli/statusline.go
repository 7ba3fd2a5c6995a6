package cli

import (
	"flag"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/zoneline/zoneline/pipeline"
	"github.com/zoneline/zoneline/statusline"
)

var cmdStatusline = &Command{
	Name: "statusline", UsageLine: "statusline [flags] < payload.json",
	Short: "render the status line from Claude Code's JSON on stdin",
	Long: `Render the status line from the JSON Claude Code sends on stdin: the zone, the tokens
against the model's window, the distance to auto-compact and the next step, then record the
session and run the warning loop. Claude Code runs it after every turn (settings.json
statusLine, written by 'zoneline install'). Whatever arrives it prints a line and exits 0; a
problem shows as a ⚠ segment and a line in the log; so does a bad flag (never an error exit).`,
	Parse: func(_ *Env, fs *flag.FlagSet) func([]string) error {
		fs.String("segments", "", "print just these segments, in this order (e.g. zone,tokens,compact: a widget in another status line); the warning loop still runs")
		fs.String("wrap", "", "run your status line command `CMD` as Claude Code does, with the same stdin, and show zoneline's segments with its output (default: [statusline] wrap in the config)")
		return nil
	},
	Hot:      runStatusline,
	AnyPaths: true,
}

// runStatusline is Claude Code's statusLine command. Whatever arrives it prints a line and exits
// 0: a problem becomes a ⚠ segment and a log line, never a blank line. The whole process is
// bounded from its start (statuslineDeadline; a stdin left open is read for
// statuslineStdinWait), and a reader that went away (SIGPIPE) does not stop the bookkeeping.
func runStatusline(e *Env, args []string) {
	start := time.Now()
	if e.process {
		ignoreSIGPIPE()
	}
	guard := e.statuslineGuard(start)
	defer func() {
		if r := recover(); r != nil {
			e.State.Log("statusline", "panic: %v\n%s", r, debug.Stack())
			if guard == nil || guard.Answer() { // (else the line is printed already)
				fmt.Fprintln(e.Stdout, "⚠ zoneline: internal error (see "+e.State.LogPath()+")")
			}
		}
		if guard != nil {
			guard.Stop()
		}
	}()
	a := parseStatuslineArgs(args) // -segments, -wrap (wrap.go)
	data, readErr := e.readPayload(start, statuslineStdinWait)
	cfg, cfgErr := e.loadConfigCached()
	cfg = a.apply(cfg, a.inWrap(cfg, e.Getenv))
	c := e.pipeline()
	var w *wrapped
	if !c.Live() { // a hand render waits for its wrapped command; one under Claude Code never does
		w = e.startWrap(cfg, data) // runs while zoneline renders
		w.extend(guard, start)
	}
	r := c.Render(data, readErr, cfg, cfgErr)
	if len(a.problems) > 0 {
		r.View.Problems = append(r.View.Problems, a.problems...)
		r.Line = statusline.Render(r.View, r.Options)
	}
	var afterLine func() // the wrapped command's refresh (wrapkeep.go)
	switch {
	case w != nil:
		r.Line = e.wrapHand(r, w, cfg)
	case cfg.Statusline.Wrap != "":
		r.Line, afterLine = e.wrapLive(r, cfg, data)
	}
	if guard != nil && !guard.Answer() {
		guard.Wait() // the deadline printed the fallback line and ends the process
		return
	}
	e.Stdout.Write(append([]byte(r.Line), '\n')) // (io.WriteString's interface assertion builds an itab on first use)
	if afterLine != nil {
		afterLine() // after the line: the render never waits for the wrapped command
	}
	c.After(r, time.Since(start))
	if r.GitRefresh != "" {
		e.startGitRefresh(r.GitRefresh) // after the line: the render never waits for git
	}
}

// pipeline is the statusline pipeline's context: this Env's state dir, Claude Code's folder,
// the environment's problems, its variables and clock (resolved once, in Main).
func (e *Env) pipeline() *pipeline.Context {
	return &pipeline.Context{State: e.State, ClaudeDir: e.Paths.ClaudeDir, Problems: e.Paths.Problems,
		Getenv: e.Getenv, Now: e.Now, Sleep: e.Sleep, ModCall: e.modCall}
}
