package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/deadline"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/pipeline"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
)

// zoneline statusline [-segments a,b,c] [-wrap CMD]: flags parsed by hand (the statusline must
// never fail on its command line, and the flag package's FlagSet costs a render allocations
// and an error path that prints usage). A problem becomes a ⚠ segment.
type statuslineArgs struct {
	segments []string // -segments: just these, in this order (nil: the config's lines)
	wrap     string   // -wrap: the user's own status line command
	problems []string
}

func parseStatuslineArgs(args []string) statuslineArgs {
	var a statuslineArgs
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || (name != "segments" && name != "wrap") {
			a.problems = append(a.problems, "unknown argument "+strconv.Quote(safetext.Cut(args[i], 30)))
			continue
		}
		if !hasVal {
			if i+1 == len(args) {
				a.problems = append(a.problems, "-"+name+" needs a value")
				continue
			}
			i++
			val = args[i]
		}
		switch name {
		case "segments":
			a.segments = []string{}
			for _, s := range strings.Split(val, ",") {
				if s = strings.TrimSpace(s); s != "" {
					a.segments = append(a.segments, s)
				}
			}
		case "wrap":
			a.wrap = val
		}
	}
	return a
}

// wrappedEnv marks the environment of a wrapped command (set to "1" for it): a zoneline run
// inside a wrap never wraps again (see apply), so a wrap whose command runs zoneline (e.g.
// ccstatusline's Custom Command running `zoneline statusline -segments …`) cannot nest. It is
// the cheap first check only: a wrapped command may drop it (env -u, env -i), so a zoneline
// about to wrap without it also looks at its ancestry (insideWrap).
const wrappedEnv = "ZONELINE_WRAPPED"

// wrapInWrap is the problem shown by a zoneline inside a wrap that was asked to wrap.
const wrapInWrap = "wrap inside a wrap"

// apply returns cfg with the command line's choices: the -segments layout (unknown names
// become problems), the -wrap command over [statusline] wrap. -segments never takes the
// config's wrap (it is a segment for another status line, which may itself be the wrap); only
// an explicit -wrap wraps it. Inside a wrap (inWrap: ZONELINE_WRAPPED=1) nothing wraps, and a
// wrap asked for shows as a problem.
func (a *statuslineArgs) apply(cfg *config.Config, inWrap bool) *config.Config {
	if a.segments == nil && a.wrap == "" && (!inWrap || cfg.Statusline.Wrap == "") {
		return cfg
	}
	c := *cfg
	if a.segments != nil {
		c.Statusline.Wrap = ""
		var known []string
		for _, s := range a.segments {
			if statusline.IsSegment(s) {
				known = append(known, s)
			} else {
				a.problems = append(a.problems, "unknown segment "+strconv.Quote(safetext.Cut(s, 30)))
			}
		}
		if len(a.segments) == 0 {
			a.problems = append(a.problems, "-segments: no segment names")
		}
		if len(known) == 0 {
			known = []string{"zone"} // never blank: the zone, beside the ⚠
		}
		c.Statusline.Lines = [][]string{known}
	}
	if a.wrap != "" {
		c.Statusline.Wrap = a.wrap
	}
	if inWrap && c.Statusline.Wrap != "" {
		c.Statusline.Wrap = ""
		a.problems = append(a.problems, wrapInWrap)
	}
	return &c
}

// inWrap reports whether this zoneline runs inside a wrap: ZONELINE_WRAPPED=1, or, when it
// would wrap (the only case it matters, so a render that wraps nothing pays nothing), a
// wrapping zoneline among its ancestors (insideWrap: whatever the command did to its
// environment).
func (a *statuslineArgs) inWrap(cfg *config.Config, getenv func(string) string) bool {
	if getenv(wrappedEnv) == "1" {
		return true
	}
	wraps := a.wrap != "" || (a.segments == nil && cfg.Statusline.Wrap != "")
	return wraps && insideWrap()
}

// wrappedEnviron is env for a wrapped command: with ZONELINE_WRAPPED=1 (any earlier value
// dropped), and PATH with its absolute entries only: an empty, "." or relative entry would
// find a program in the project the command runs in (a repository's planted ./ccstatusline).
func wrappedEnviron(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		switch {
		case name == wrappedEnv:
		case strings.EqualFold(name, "PATH"):
			out = append(out, name+"="+absolutePath(val))
		default:
			out = append(out, kv)
		}
	}
	return append(out, wrappedEnv+"=1")
}

// absolutePath is a PATH list with its absolute entries only.
func absolutePath(list string) string {
	var keep []string
	for _, d := range filepath.SplitList(list) {
		if filepath.IsAbs(d) {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// Bounds of a wrapped status line command.
const (
	wrapLimit      = 64 << 10 // bytes of its output read; the rest is cut and the command killed
	wrapMaxLines   = 8        // lines of its output shown
	wrapCacheName  = state.WrapCacheName
	wrapGrace      = 100 * time.Millisecond // after the deadline, for the kill to close its output
	wrapReserve    = 250 * time.Millisecond // after the wrapped command's deadline, for zoneline's part
	wrapMaxTimeout = config.MaxWrapTimeout  // the longest wrap_timeout honoured
)

// wrapResult is what a wrapped command gave.
type wrapResult struct {
	out []byte
	err error // it failed: exit status, signal, could not start
	cut bool  // its output went past wrapLimit
}

// errKilled: the deadline ended the wrapped command.
var errKilled = errors.New("killed")

type exitError int

func (e exitError) Error() string { return "exit " + strconv.Itoa(int(e)) }

// wrapTimeout is cfg's wrap_timeout, at most wrapMaxTimeout (the default when unset or bad).
func wrapTimeout(cfg *config.Config) time.Duration {
	d, err := time.ParseDuration(cfg.Statusline.WrapTimeout)
	if err != nil || d <= 0 {
		d = config.DefaultWrapTimeout
	}
	return min(d, wrapMaxTimeout)
}

// wrapped is one run of the user's status line command beside a hand render (a person's
// `zoneline statusline -wrap CMD`, no Claude Code session): it waits for the command, as a
// person trying their setup expects. A render under Claude Code never waits (wrapLive).
type wrapped struct {
	done     <-chan wrapResult
	kill     func() // ends its process group
	deadline time.Time
	whole    bool // this process is the wrapping one (not cli run in-process by a test)
}

// startWrap starts cfg's wrapped command for a hand render (nil when there is none): before
// the render, so the two run at once. Its deadline is wrap_timeout; the status line's own
// deadline is extended to cover it and wrapReserve for zoneline's part (extend).
func (e *Env) startWrap(cfg *config.Config, stdin []byte) *wrapped {
	if cfg.Statusline.Wrap == "" {
		return nil
	}
	d := wrapTimeout(cfg)
	if e.process {
		markWrapping()
	}
	done, kill := startWrapped(cfg.Statusline.Wrap, "", stdin, wrapLimit, d)
	return &wrapped{done: done, kill: kill, deadline: time.Now().Add(d + wrapGrace), whole: e.process}
}

// extend moves the process's deadline (g, nil in-process) past the wrapped command's, when it
// ends later than the status line's own (statuslineDeadline from start).
func (w *wrapped) extend(g *deadline.Guard, start time.Time) {
	if w == nil || g == nil {
		return
	}
	if end := w.deadline.Add(wrapReserve); end.After(start.Add(statuslineDeadline)) {
		g.Extend(time.Until(end))
	}
}

// wait returns the command's lines and a short problem (awaitWrap).
func (w *wrapped) wait() (lines []string, problem string) {
	return awaitWrap(w.done, w.kill, w.deadline, w.whole)
}

// outcome is a finished run's lines, cleaned for the terminal (escape sequences kept whole),
// and a short problem when it failed, was killed, printed nothing or too much ("" when fine).
func outcome(res wrapResult) (lines []string, problem string) {
	if res.err == errKilled {
		return nil, "timed out" // the deadline killed it
	}
	var ee exitError
	switch {
	case errors.As(res.err, &ee) && ee == 127:
		return nil, "command not found (exit 127)"
	case errors.As(res.err, &ee) && ee == 126:
		return nil, "not executable (exit 126)"
	case res.err != nil:
		return nil, pipeline.ShortErr(res.err)
	case binary(res.out):
		return nil, "binary output"
	}
	lines = splitOutput(res.out)
	switch {
	case len(lines) == 0 && res.cut:
		return nil, "output too large"
	case len(lines) == 0:
		return nil, "printed nothing"
	case res.cut:
		return lines, "output cut at " + strconv.Itoa(wrapLimit>>10) + " KiB"
	}
	return lines, ""
}

// binary reports whether out is not text: a NUL byte, or more than one byte in eight not
// valid UTF-8.
func binary(out []byte) bool {
	if bytes.IndexByte(out, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
		}
		i += size
	}
	return bad*8 > len(out)
}

// splitOutput is Claude Code's reading of a status line's stdout (trimmed, split on newlines,
// blank lines dropped), each line made safe (statusline.Passthrough), at most wrapMaxLines.
func splitOutput(out []byte) []string {
	var lines []string
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte{'\n'}) {
		s := strings.TrimSpace(statusline.Passthrough(string(l)))
		if statusline.Width(s, false) == 0 {
			continue
		}
		lines = append(lines, s)
		if len(lines) == wrapMaxLines {
			break
		}
	}
	return lines
}

// Positions of zoneline's part beside a wrapped command's output ([statusline] wrap_position).
const (
	wrapBefore = "before" // on the first row, before its first line
	wrapAfter  = "after"  // on the first row, after its first line
	wrapLine   = "line"   // on rows of its own, above its lines
)

// wrapSeparator is between zoneline's part and the wrapped command's on one row.
func wrapSeparator(glyphs string) string {
	if glyphs == "ascii" {
		return " | "
	}
	return " │ "
}

// composeWrap lays out zoneline's part beside the wrapped command's lines, every row fitted to
// width (0: no limit): on a shared row the wrapped line gets what zoneline's part leaves, at
// least half the row, and zoneline's part is rendered again narrower if it must make room.
// Escape sequences of the wrapped output are never split (statusline.Fit).
func composeWrap(r pipeline.Rendered, theirs []string, position string, width int) string {
	fit := func(s string, w int) string {
		if width <= 0 {
			return s
		}
		return statusline.Fit(s, w, "…", r.Options.EastAsian)
	}
	if len(theirs) == 0 {
		return r.Line
	}
	var rows []string
	if position == wrapLine {
		rows = append(rows, r.Line)
		for _, l := range theirs {
			rows = append(rows, fit(l, width))
		}
		return strings.Join(rows, "\n")
	}
	sep := wrapSeparator(r.Options.Glyphs)
	ours := r.Line
	first, rest, _ := strings.Cut(ours, "\n")
	if width > 0 {
		theirW := statusline.Width(theirs[0], r.Options.EastAsian)
		room := width - len([]rune(sep)) - min(theirW, width/2)
		if statusline.Width(first, r.Options.EastAsian) > room {
			o := r.Options
			o.Width = max(room, 1)
			first, rest, _ = strings.Cut(statusline.Render(r.View, o), "\n")
		}
	}
	left := width - statusline.Width(first, r.Options.EastAsian) - len([]rune(sep))
	them := fit(theirs[0], left)
	if position == wrapAfter {
		rows = append(rows, them+sep+first)
	} else {
		rows = append(rows, first+sep+them)
	}
	if rest != "" {
		rows = append(rows, rest)
	}
	for _, l := range theirs[1:] {
		rows = append(rows, fit(l, width))
	}
	return strings.Join(rows, "\n")
}

// staleMark starts each line of a wrapped command's kept output when it is stale: its last run
// failed, or it is wrapStaleRenders renders or more behind the newest payload (wrapkeep.go).
const staleMark = "(stale) "

// wrapHand finishes a hand render with its wrapped command: the command's output beside
// zoneline's part, or, when it failed, a ⚠ segment (and a log line).
func (e *Env) wrapHand(r pipeline.Rendered, w *wrapped, cfg *config.Config) string {
	theirs, problem := w.wait()
	if problem != "" {
		e.State.Log("statusline", "wrapped status line %q: %s", safetext.Cut(cfg.Statusline.Wrap, 80), problem)
		r.View.Problems = append(r.View.Problems, "wrapped: "+problem)
		r.Line = statusline.Render(r.View, r.Options)
	}
	return composeWrap(r, theirs, cfg.Statusline.WrapPosition, r.Options.Width)
}
