// Package hookevent is `zoneline hook`: the one command registered for every Claude Code hook event.
// It dispatches on the payload's hook_event_name to one handler per event. Whatever arrives, it
// exits 0 within its deadline and prints exactly one JSON object or nothing; it never exits 2
// (on UserPromptSubmit that would erase the user's prompt) unless a handler deliberately blocks.
package hookevent

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/deadline"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
)

// Deadline is how long a hook process may run, from its start (before stdin is read), before it
// gives up, prints nothing and exits 0. Claude Code's own timeout for our entries is set by
// `zoneline install` above this.
const Deadline = 4 * time.Second

// Context is what a handler is handed: no handler reads the environment itself.
type Context struct {
	State     state.Dir
	Config    *config.Config
	ConfigErr error
	ClaudeDir string
	Getenv    func(string) string
	Now       func() time.Time
	// Guard is the process's deadline, started by the caller before it read stdin (StartGuard,
	// as cli does for every hook process); nil: no deadline, the caller is no process of its own
	// (a test, an in-process caller): nothing may end it from a timer.
	Guard *Guard
	// Warn runs the warning loop for a Stop hook (the statusline's, shared: pipeline.StopWarning);
	// nil: Stop does nothing. It prints nothing; its error becomes a log line.
	Warn func(h *payload.Hook) error
}

// Guard is a hook process's deadline (StartGuard).
type Guard struct {
	g     *deadline.Guard
	event atomic.Pointer[string] // what the process was doing, for the log line
}

// StartGuard starts the deadline of a hook process, d from now: the caller starts it first
// thing, before reading stdin, so that a stdin left open or a slow config cannot keep the
// process past it. When it passes, giveUp runs on the timer's goroutine (nil: a line in d's log,
// then exit 0, having printed nothing).
func StartGuard(log state.Dir, d time.Duration, giveUp func()) *Guard {
	g := &Guard{}
	before := "reading stdin and the config"
	g.event.Store(&before)
	g.g = deadline.Start(d, func(answered bool) {
		if giveUp != nil && !answered {
			giveUp()
			return
		}
		if giveUp != nil {
			return
		}
		// A process that overran is most likely stuck on the state disk, where the log is: the
		// log line gets a moment, the exit does not wait for it.
		logged := make(chan struct{})
		go func() {
			what := *g.event.Load()
			if answered {
				what += " (printing the answer)"
			}
			log.Log("hook", "%s: gave up after %s", what, d)
			close(logged)
		}()
		select {
		case <-logged:
		case <-time.After(100 * time.Millisecond):
		}
		os.Exit(0)
	})
	return g
}

// answer is deadline.Guard.Answer; a Guard without a deadline always answers.
func (g *Guard) answer() bool { return g.g == nil || g.g.Answer() }

// stop stops the deadline, if there is one.
func (g *Guard) stop() {
	if g.g != nil {
		g.g.Stop()
	}
}

// doing names what the process does now, for the give-up's log line.
func (g *Guard) doing(what string) { g.event.Store(&what) }

// run runs fn on the calling goroutine under the guard. ok is false when the deadline came
// first: nothing may be printed then. A panic in fn becomes err. (The handler used to run on
// its own goroutine under a select; that started a second thread in every hook process.)
func (g *Guard) run(fn func() (Output, error)) (out Output, err error, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			out, err, ok = Output{}, fmt.Errorf("panic: %v\n%s", r, debug.Stack()), g.answer()
		}
	}()
	out, err = fn()
	return out, err, g.answer()
}

// Output is a handler's answer. At most one of JSON and Text is printed.
type Output struct {
	JSON *Answer // written as one JSON object on stdout (answerFields)
	Text string  // plain stdout, its lines kept (PreCompact: the summariser's instructions, shown to the user under /compact)
}

// Answer is the JSON object a hook answers Claude Code with: a decision with its reason
// (PreCompact's hold: "block"), or the hookSpecificOutput that puts text into the model's context
// (UserPromptSubmit, SessionStart). An empty decision or reason is left out; a hookSpecificOutput
// has both its keys.
type Answer struct {
	Decision string
	Reason   string
	Specific *Specific
}

// Specific is an Answer's hookSpecificOutput.
type Specific struct {
	HookEventName     string
	AdditionalContext string
}

// answerFields and specificFields are an Answer's keys, as Claude Code reads them
// (jsonscan.Field; read back only by tests), in the order encoding/json wrote the maps they
// replace: the bytes are the same but for <, > and &, left unescaped.
var (
	answerFields = [...]jsonscan.Field[Answer]{
		{Key: "decision", Read: func(s *jsonscan.Scanner, a *Answer) error { return s.String(&a.Decision) }, Write: func(b []byte, a *Answer) []byte { return appendText(b, a.Decision) }},
		{Key: "reason", Read: func(s *jsonscan.Scanner, a *Answer) error { return s.String(&a.Reason) }, Write: func(b []byte, a *Answer) []byte { return appendText(b, a.Reason) }},
		{Key: "hookSpecificOutput", Read: func(s *jsonscan.Scanner, a *Answer) error { return jsonscan.ReadPtr(s, &a.Specific, specificFields[:]) }, Write: func(b []byte, a *Answer) []byte {
			if a.Specific == nil {
				return b
			}
			return jsonscan.AppendObject(b, a.Specific, specificFields[:], "")
		}},
	}
	specificFields = [...]jsonscan.Field[Specific]{
		{Key: "additionalContext", Read: func(s *jsonscan.Scanner, v *Specific) error { return s.String(&v.AdditionalContext) }, Write: func(b []byte, v *Specific) []byte {
			return jsonscan.AppendString(b, v.AdditionalContext)
		}},
		{Key: "hookEventName", Read: func(s *jsonscan.Scanner, v *Specific) error { return s.String(&v.HookEventName) }, Write: func(b []byte, v *Specific) []byte { return jsonscan.AppendString(b, v.HookEventName) }},
	}
)

// appendText appends s as a JSON string; nothing when it is empty (the key is left out).
func appendText(b []byte, s string) []byte {
	if s == "" {
		return b
	}
	return jsonscan.AppendString(b, s)
}

// Handler handles one event.
type Handler func(c *Context, h *payload.Hook) (Output, error)

// handlers is the one list of events zoneline handles, each with its handler: a static table,
// not a map registered into at init.
var handlers = [...]struct {
	event  string
	handle Handler
}{
	{"UserPromptSubmit", userPromptSubmit},
	{"PreCompact", preCompact},
	{"PostCompact", postCompact},
	{"SessionStart", sessionStart},
	{"Stop", stop},
}

// handlerFor returns the handler of an event, nil for an event zoneline does not handle (no
// output).
func handlerFor(event string) Handler {
	for _, h := range handlers {
		if h.event == event {
			return h.handle
		}
	}
	return nil
}

// Events returns the events that have a handler.
func Events() []string {
	out := make([]string, len(handlers))
	for i, h := range handlers {
		out[i] = h.event
	}
	return out
}

// Run handles one hook invocation: data is stdin. It writes the answer to stdout and returns the
// exit code (0, or 2 only when a handler blocks on purpose).
func Run(c *Context, data []byte, readErr error, stdout io.Writer) int {
	g := c.Guard
	if g == nil {
		g = &Guard{} // no deadline
	}
	defer g.stop() // after the answer is printed: the deadline bounds the print too
	if readErr != nil {
		c.State.Log("hook", "reading stdin: %v", readErr)
	}
	h, err := payload.DecodeHook(data)
	if err != nil {
		c.State.Log("hook", "%v (%d bytes)", err, len(data))
		if h.Event == "" {
			return 0
		}
	}
	handle := handlerFor(h.Event)
	if handle == nil {
		return 0
	}
	g.doing(h.Event)
	out, err, ok := g.run(func() (Output, error) { return handle(c, h) })
	if err != nil {
		c.State.Log("hook", "%s: %v", h.Event, err)
	}
	if !ok {
		g.g.Wait() // the give-up ends the process
		return 0
	}
	return write(c, h.Event, out, stdout)
}

func write(c *Context, event string, out Output, stdout io.Writer) int {
	switch {
	case out.JSON != nil:
		// safetext.JSON escapes what JSON's own escaping leaves raw (DEL, C1, bidi and the
		// invisible runes): the agent's text has been through safetext.Text already.
		b := jsonscan.AppendObject(make([]byte, 0, 256), out.JSON, answerFields[:], "")
		stdout.Write(append(safetext.JSON(b), '\n'))
	case out.Text != "":
		io.WriteString(stdout, safetext.Text(out.Text)+"\n")
	}
	return 0
}

// AdditionalContext is the hookSpecificOutput answer that puts text into the model's context
// (UserPromptSubmit, SessionStart). The text quotes checkpoints, snapshots and payloads: it goes
// through safetext.Text, so no control, C1 or bidi rune reaches the agent (JSON escaping would
// hand them over intact).
func AdditionalContext(event, text string) Output {
	return Output{JSON: &Answer{Specific: &Specific{HookEventName: event, AdditionalContext: safetext.Text(text)}}}
}
