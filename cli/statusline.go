package cli

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/gitinfo"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
	"github.com/zoneline/zoneline/transcript"
	"github.com/zoneline/zoneline/zones"
)

// Transcript reading bounds on the statusline's hot path.
const (
	tailBytes = 4 << 20 // the backwards tail read when the payload has no usable count
	scanBytes = 4 << 20 // the most read forward per render to count compactions
)

var cmdStatusline = &Command{
	Name: "statusline", UsageLine: "statusline [-segments a,b,c] [-wrap CMD] < payload.json",
	Short: "render the status line from Claude Code's JSON on stdin",
	Long: `Render the status line from the JSON Claude Code sends on stdin: the zone, the tokens
against the model's window, the distance to auto-compact and the next step, then record the
session and run the warning loop. Claude Code runs it after every turn (settings.json
statusLine, written by 'zoneline install'). Whatever arrives it prints a line and exits 0; a
problem shows as a ⚠ segment and a line in the log. Its flags are read by hand
(parseStatuslineArgs: a bad one is a ⚠ segment, never an exit 2); this FlagSet only lists them.`,
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
	cfg = a.apply(cfg)
	w := e.startWrap(cfg, data, start) // runs while zoneline renders
	w.extend(guard, start)
	r := e.render(data, readErr, cfg, cfgErr)
	if len(a.problems) > 0 {
		r.view.Problems = append(r.view.Problems, a.problems...)
		r.line = statusline.Render(r.view, r.opts)
	}
	var cache []byte
	if w != nil {
		r.line, cache = e.wrapLineFor(r, w, cfg)
	}
	if guard != nil && !guard.Answer() {
		guard.Wait() // the deadline printed the fallback line and ends the process
		return
	}
	e.Stdout.Write(append([]byte(r.line), '\n')) // (io.WriteString's interface assertion builds an itab on first use)
	e.saveWrapCache(r, cache)
	e.afterRender(r, time.Since(start))
	if r.gitRefresh != "" {
		e.startGitRefresh(r.gitRefresh) // after the line: the render never waits for git
	}
}

// rendered is one render's result and what the steps after printing need.
type rendered struct {
	line    string
	p       *payload.Statusline
	view    statusline.View
	prep    int64 // prep threshold in tokens
	session *state.Session
	saved   state.Session // the registry as loaded (loaded: it was read)
	loaded  bool
	changed bool    // session state differs from what is on disk
	warning warning // the warning loop's levels and policy (notify.go)
	// prevCompactions is the registry's compaction count before this render (prevKnown: it was
	// read), so the warning loop sees a compaction without reading its marker files.
	prevCompactions int
	prevWindow      int64 // the registry's window before this render: a model switch re-arms
	prevKnown       bool
	gitRefresh      string             // the worktree whose git cache entry is stale: refresh it after printing
	opts            statusline.Options // how line was rendered (a -wrap layout renders again, narrower)
	route           string             // who runs the warning loop, for the log: "statusline" ("") or "hook" (Stop)
}

// render decodes, models and renders. It never fails: problems become View.Problems.
func (e *Env) render(data []byte, readErr error, cfg *config.Config, cfgErr error) rendered {
	problems := append([]string(nil), e.Paths.Problems...)
	if cfgErr != nil {
		problems = append(problems, configProblem(cfgErr))
		e.State.Log("statusline", "config: %s", configProblem(cfgErr))
	}
	p, err := payload.DecodeStatusline(data)
	if err != nil && readErr != nil { // (the decode's error is the one shown)
		e.State.Log("statusline", "%s", oneLine(readErr.Error()))
	}
	if err == nil {
		err = readErr
	}
	if err != nil {
		problems = append(problems, "payload: "+shortErr(err))
		e.State.Log("statusline", "%s (%d bytes)", oneLine(err.Error()), len(data))
	}
	v := statusline.View{Problems: problems}
	modelID := p.ModelID()
	if p.Model != nil {
		v.Model = p.Model.DisplayName
		if v.Model == "" {
			v.Model = modelID
		}
	}
	var size int64
	if p.ContextWindow != nil {
		size = int64(p.ContextWindow.Size)
	}
	m := e.sessionModel(cfg, modelID, size, p.Dir()) // warnloop.go: shared with the Stop hook
	v.Window, v.Thresholds, v.Compact = m.window, m.thresholds, m.compact
	thresholds := m.thresholds

	// Tokens: the payload's current usage, else the transcript's tail.
	tokens, known := p.Tokens()
	if !known && p.TranscriptPath != "" {
		c, err := transcript.Tail(p.TranscriptPath, tailBytes)
		switch {
		case err != nil && !rawfs.IsNotExist(err):
			v.Problems = append(v.Problems, "transcript: "+shortErr(err))
			e.State.Log("statusline", "transcript %s: %v", p.TranscriptPath, err)
		case c.Found:
			tokens, known = c.Tokens, true
		}
	}
	if known {
		v.Tokens = tokens
		v.Zone = zones.Classify(tokens, thresholds)
	}
	prep := m.prep
	warning := warningFor(cfg, v, prep, known)
	v.Tier = e.hintTier(cfg, p.SessionID, warning) // warnloop.go

	if dir := p.Dir(); dir != "" {
		v.Dir = filepath.Base(dir)
	}
	var gitRoot string
	if p.Cwd != "" {
		if g, err := gitinfo.Branch(p.Cwd); err == nil {
			v.Branch, gitRoot = g.Label(), g.Root
		}
	}
	// The extra segments' facts: the payload's, the git cache's (statusline_facts.go).
	v.Facts = factsFor(p, e.Now())
	var gitStale bool
	v.Facts.Git, gitStale = e.gitFacts(cfg.Statusline.Lines, gitRoot, v.Branch, e.Now())

	// Per-session state: compaction count (incremental scan), registry.
	r := rendered{p: p, prep: prep, warning: warning}
	live := underClaudeCode(e.Getenv)
	if gitStale && live { // a hand render keeps no state, the git cache included
		r.gitRefresh = gitRoot
	}
	if state.ValidSessionID(p.SessionID) && e.State.Usable() {
		s, loadErr := e.State.LoadSession(p.SessionID)
		before := *s
		// A count that grows while catching up with a transcript seen for the first time is not
		// a compaction: the warning loop compares only once the count had caught up.
		r.notePrevious(s, loadErr, p.TranscriptPath)
		e.countCompactions(s, p.TranscriptPath)
		v.Compactions, v.Facts.Reclaimed = s.Compactions, s.Reclaimed
		v.Resume = e.resumeVerdict(s) // statusline_resume.go
		// A compaction the hooks could not record (their lock planted or busy) is a ⚠, not only
		// a log line: the restore then presents no checkpoint as ground truth. One failed open
		// when all is well.
		if pf, err := e.State.SessionFile(p.SessionID, state.CompactionsProblemFile); err == nil {
			if b, err := state.ReadFile(pf, 512); err == nil && len(b) > 0 {
				v.Problems = append(v.Problems, safetext.Line(string(b)))
			}
		}
		s.Tokens, s.Window, s.Zone, s.Model, s.ModelID = v.Tokens, v.Window, v.Zone.String(), v.Model, modelID
		s.Cwd, s.Project, s.Version = p.Cwd, p.Dir(), p.Version
		if e.modCall {
			keepRegistryNames(s, &before, p) // mod.go: the mod knows less than the status line
		}
		s.Pane, s.TmuxSocket = e.Getenv("TMUX_PANE"), tmuxSocket(e.Getenv("TMUX"))
		s.AutoCompact = v.Compact.Point
		if live {
			r.session, r.saved, r.loaded, r.changed = s, before, loadErr == nil, !s.Same(before)
		}
	} else if p.SessionID != "" && !state.ValidSessionID(p.SessionID) {
		e.State.Log("statusline", "session id %q is not a UUID: no state kept", truncate(p.SessionID, 80))
	}

	opts := statusline.Options{
		Profile:   termcolor.For(cfg.Color, e.Getenv),
		Glyphs:    cfg.Glyphs,
		Lines:     cfg.Statusline.Lines,
		Separator: cfg.Statusline.Separator,
		Width:     columns(e.Getenv("COLUMNS"), reserve(cfg)),
		EastAsian: cfg.EastAsianWidth,
		BarWidth:  cfg.Statusline.BarWidth,
	}
	r.view = v
	r.line = statusline.Render(v, opts)
	r.opts = opts
	if strings.TrimSpace(r.line) == "" {
		// A layout with nothing to show (say only "model", before the model is known) must not
		// blank the line: the zone instead.
		opts.Lines = [][]string{{"zone", "problems"}}
		r.line = statusline.Render(v, opts)
	}
	return r
}

// underClaudeCode reports whether the statusline runs under Claude Code, which sets CLAUDECODE=1
// and CLAUDE_CODE_SESSION_ID in its commands' environment (2.1.332). A render without either is
// a person's (`zoneline statusline < payload.json` in a shell, a benchmark, a test): it prints
// the line but keeps nothing, so the registry (`zoneline sessions`, doctor's "last seen") and the
// warning loop (markers, notifications) speak of real sessions only.
func underClaudeCode(getenv func(string) string) bool {
	return getenv("CLAUDECODE") != "" || getenv("CLAUDE_CODE_SESSION_ID") != ""
}

// afterRender runs once the line is printed: state writes, warnings.
func (e *Env) afterRender(r rendered, took time.Duration) {
	if r.session == nil {
		return
	}
	switch e.saveAction(r) {
	case saveRegistry:
		r.session.Updated = e.Now().UTC() // UTC: formatting a local time would load the zone database
		// A Stop hook (took < 0) keeps the last render's time.
		if took >= 0 {
			r.session.RenderMicros = took.Microseconds()
		}
		if err := e.State.SaveSession(r.session); err != nil {
			e.State.Log("statusline", "saving session: %v", err)
		}
	case touchRegistry:
		if err := e.State.TouchSession(r.session.ID, e.Now()); err != nil {
			e.State.Log("statusline", "touching session: %v", err)
		}
	}
	e.checkWarning(r)
}

// saveAfter is how long a registry whose only change is the token count and the transcript
// offset may wait before it is saved: a save (temp file, rename) costs a render about a fifth of
// its time on ext4 (bench: StatuslineSave against StatuslineTurn); the compaction count is exact
// either way (the next render scans from the saved offset).
const saveAfter = 5 * time.Second

// rescanAfter is how far the transcript offset may move unsaved: the next render scans from the
// saved offset again.
const rescanAfter = 256 << 10

// What a render does with the registry (saveAction).
const (
	keepRegistry  = iota // as it is
	saveRegistry         // rewrite it (a temp file and a rename)
	touchRegistry        // set its time only: this render happened (sessions.Entry.Idle)
)

// saveAction decides what this render does with the registry. It saves it when there was
// none, when anything but the tokens and the transcript offset changed (zone, model, window,
// compactions, …), when those moved and the saved state is saveAfter old or the offset moved
// rescanAfter, and at least once a minute (the clocks run from the last save). Otherwise, when
// a prompt was submitted after the last render, it touches it, so that the registry's time says
// a render followed the prompt.
func (e *Env) saveAction(r rendered) int {
	age := e.Now().Sub(r.saved.Saved) // since the last write: touches do not restart the clocks
	switch {
	case !r.loaded, age < 0, age > time.Minute:
		return saveRegistry
	case r.changed && (!r.session.OnlyMoved(r.saved) || age >= saveAfter):
		return saveRegistry
	case r.session.TranscriptOffset != r.saved.TranscriptOffset && !r.session.TranscriptCounted,
		r.session.TranscriptOffset-r.saved.TranscriptOffset > rescanAfter:
		return saveRegistry // catching up with a transcript, or a long rescan next time: keep the progress
	}
	path, err := e.State.SessionFile(r.session.ID, sessions.PromptFile)
	if err != nil {
		return saveRegistry
	}
	if t, ok := rawfs.ModTime(path); ok && !t.Before(r.saved.Updated) { // after the last render
		return touchRegistry
	}
	return keepRegistry
}

// countCompactions advances the session's compaction count from its saved transcript position;
// a transcript that is not the file the position was saved in (replaced, rewritten) is counted
// again from 0.
func (e *Env) countCompactions(s *state.Session, path string) {
	if path == "" {
		return
	}
	if s.Transcript != path {
		s.Transcript, s.TranscriptOffset, s.Compactions, s.Reclaimed, s.TranscriptCounted = path, 0, 0, 0, false
		s.TranscriptDev, s.TranscriptIno, s.TranscriptSum = 0, 0, 0
	}
	from := transcript.Position{Offset: s.TranscriptOffset, Dev: s.TranscriptDev, Ino: s.TranscriptIno, Sum: s.TranscriptSum}
	sc, err := transcript.ScanCompactionsFrom(path, from, scanBytes)
	if err != nil {
		return
	}
	if sc.Reset {
		s.Compactions, s.Reclaimed = 0, 0
		if s.TranscriptOffset != 0 {
			e.State.InfoLine("statusline", "transcript "+path+" is not the file counted before (replaced or rewritten): counting its compactions again")
		}
	}
	s.Compactions += sc.Compactions
	s.Reclaimed = min(s.Reclaimed+sc.Reclaimed, 1<<50)
	s.TranscriptOffset = sc.At.Offset
	s.TranscriptDev, s.TranscriptIno, s.TranscriptSum = sc.At.Dev, sc.At.Ino, sc.At.Sum
	s.TranscriptCounted = !sc.More
}

// compactInput gathers what decides the auto-compact point: env, Claude Code's settings, config.
func (e *Env) compactInput(cfg *config.Config, window int64, projectDir string) zones.CompactInput {
	in := zones.CompactInput{
		Window:         window,
		MaxOutput:      cfg.AutoCompact.MaxOutput,
		EnvWindow:      e.Getenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW"),
		EnvPct:         e.Getenv("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"),
		EnvDisableAuto: e.Getenv("DISABLE_AUTO_COMPACT"),
		EnvDisableAll:  e.Getenv("DISABLE_COMPACT"),
		Override:       cfg.AutoCompact.Point,
	}
	if cfg.AutoCompact.Enabled != nil && !*cfg.AutoCompact.Enabled {
		in.OverrideOff = true
	}
	for _, f := range settingsFiles(e.Paths.ClaudeDir, projectDir) {
		if on, window, set := claudeSettings(f); set {
			if on != nil {
				in.SettingsOn = on
			}
			if window != 0 {
				in.SettingsWindow = window
			}
		}
	}
	return in
}

// claudeSettings reads autoCompactEnabled and autoCompactWindow from one of Claude Code's
// settings files (jsonscan: no encoding/json on the hot path). set reports whether the file
// sets them.
func claudeSettings(path string) (enabled *bool, window int64, set bool) {
	data, err := state.ReadFile(path, 1<<20)
	if err != nil {
		return nil, 0, false
	}
	err = jsonscan.Decode(data, func(s *jsonscan.Scanner, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "autoCompactEnabled"):
			set = true
			return s.BoolPtr("autoCompactEnabled", &enabled)
		case jsonscan.KeyIs(k, "autoCompactWindow"):
			raw, err := s.Raw()
			if n, perr := strconv.ParseInt(string(raw), 10, 64); perr == nil {
				window, set = n, true
			}
			return err
		}
		return s.Skip()
	})
	if err != nil && !errors.As(err, new(*jsonscan.TypeError)) {
		return nil, 0, false
	}
	return enabled, window, set
}

// settingsFiles are Claude Code's settings that can turn auto-compact off or move it, lowest
// precedence first: the user's, the project's, the project's local ones.
func settingsFiles(claudeDir, projectDir string) []string {
	var files []string
	if filepath.IsAbs(claudeDir) {
		files = append(files, filepath.Join(claudeDir, "settings.json"))
	}
	if filepath.IsAbs(projectDir) {
		files = append(files, filepath.Join(projectDir, ".claude", "settings.json"), filepath.Join(projectDir, ".claude", "settings.local.json"))
	}
	return files
}

// rightMargin is the columns Claude Code 2.1.332 keeps free at the right of a status line row,
// beside the indent at its left ([statusline] indent, 2): it shows at most COLUMNS − 4 columns
// of a row, and a row of COLUMNS − 3 is cut with "…" (measured at 57 to 200 columns by
// e2e.TestStatuslineReserve).
const rightMargin = 2

// reserve is how many of COLUMNS the line must leave to Claude Code: the indent (config, 2 by
// default) and the right margin.
func reserve(cfg *config.Config) int {
	return cfg.Statusline.Indent + rightMargin
}

// columns returns the width available to the line: COLUMNS minus what Claude Code reserves.
func columns(v string, reserve int) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return max(n-reserve, 1)
}

// tmuxSocket returns the socket path from $TMUX ("socket,pid,session").
func tmuxSocket(v string) string {
	sock, _, _ := strings.Cut(v, ",")
	return sock
}

// configProblem is a config's problems in one line: the first, and how many more (for the ⚠
// segment and the log; `config check` lists them all).
func configProblem(err error) string {
	var es config.Errors
	if errors.As(err, &es) && len(es) > 0 {
		return es.Summary()
	}
	return shortErr(err)
}

func shortErr(err error) string {
	return truncate(strings.TrimPrefix(oneLine(err.Error()), "zoneline: "), 60)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
