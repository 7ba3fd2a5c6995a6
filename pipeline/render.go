package pipeline

import (
	"cmp"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/gitinfo"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/statusline"
	"github.com/zoneline/zoneline/transcript"
	"github.com/zoneline/zoneline/zones"
)

// Resolved is the config as one render needs it, resolved once from the config, the
// payload's model and the environment (Resolve): the steps of a render read it, not the config.
type Resolved struct {
	Window     int64
	Thresholds zones.Thresholds
	Compact    zones.Compact
	Prep       int64              // the prep threshold in tokens
	Levels     notify.Levels      // the warning tiers, in tokens
	Policy     notify.Policy      // what the warning loop sends, and when
	StaleAfter time.Duration      // a checkpoint older than this is not fresh (checkpoint.stale_minutes)
	Options    statusline.Options // colour, glyphs, layout, separator, width
}

// Resolve resolves cfg for a model (size: Claude Code's context_window_size, 0 unknown) holding
// tokens (0 unknown: a window not sent that they exceed is raised, zones.SessionWindow) in
// projectDir (whose Claude Code settings count for auto-compact).
func (c *Context) Resolve(cfg *config.Config, modelID string, size, tokens int64, projectDir string) Resolved {
	r := Resolved{Window: zones.SessionWindow(size, modelID, cfg.Window, tokens)}
	var rule zones.Rule
	r.Thresholds, rule = zones.Resolve(cfg.Rules(), modelID, r.Window)
	r.Compact = zones.AutoCompact(c.CompactInput(cfg, r.Window, projectDir))
	r.Prep, _ = zones.Prep(cfg.Prep(rule), r.Thresholds, r.Window, r.Compact)
	r.Levels = notify.LevelsFor(r.Thresholds, r.Prep, r.Compact, cfg.Warning.ImminentDistance)
	r.Policy = notify.PolicyFor(cfg)
	r.StaleAfter = time.Duration(cfg.Checkpoint.StaleMinutes) * time.Minute
	r.Options = statusline.Options{
		Profile:   termcolor.For(cfg.Color, c.Getenv),
		Glyphs:    cfg.Glyphs,
		Lines:     cfg.Statusline.Lines,
		Separator: cfg.Statusline.Separator,
		Width:     columns(c.Getenv("COLUMNS"), Reserve(cfg)),
		EastAsian: cfg.EastAsianWidth,
		BarWidth:  cfg.Statusline.BarWidth,
	}
	return r
}

// Rendered is one render's result and what the steps after printing need (After).
type Rendered struct {
	Line    string
	Payload *payload.Statusline
	View    statusline.View
	Options statusline.Options // how Line was rendered (a -wrap layout renders again, narrower)
	Prep    int64              // the prep threshold in tokens
	Warning Warning            // the warning loop's input: levels, policy, the count
	// GitRefresh is the worktree whose git cache entry is stale: the caller starts its refresh
	// after printing (the render never waits for git).
	GitRefresh string

	route   string         // who runs the warning loop, for the log: "statusline" ("") or "hook" (Stop)
	session *state.Session // the registry as this render leaves it; nil: keep nothing
	saved   state.Session  // the registry as loaded (loaded: it was read)
	loaded  bool
	changed bool // session state differs from what is on disk
	// prevCompactions is the registry's compaction count before this render (prevKnown: it was
	// read), so the warning loop sees a compaction without reading its marker files.
	prevCompactions int
	prevWindow      int64 // the registry's window before this render: a model switch re-arms
	prevKnown       bool
}

// Render decodes, models and renders. It never fails: problems become View.Problems.
func (c *Context) Render(data []byte, readErr error, cfg *config.Config, cfgErr error) Rendered {
	p, problems := c.decode(data, readErr, cfgErr)
	v := statusline.View{Problems: problems}
	modelID := p.ModelID()
	if p.Model != nil {
		v.Model = cmp.Or(p.Model.DisplayName, modelID)
	}
	var size int64
	if p.ContextWindow != nil {
		size = int64(p.ContextWindow.Size)
	}
	tokens, known := c.tokens(p, &v)
	rs := c.Resolve(cfg, modelID, size, tokens, p.Dir())
	v.Window, v.Thresholds, v.Compact = rs.Window, rs.Thresholds, rs.Compact
	if known {
		v.Tokens = tokens
		v.Zone = zones.Classify(tokens, rs.Thresholds)
	}
	w := Warning{Levels: rs.Levels, Policy: rs.Policy, Known: known, Tokens: v.Tokens}
	v.Tier = c.hintTier(rs, p.SessionID, w)

	if dir := p.Dir(); dir != "" {
		v.Dir = filepath.Base(dir)
	}
	var gitRoot string
	if p.Cwd != "" {
		if g, err := gitinfo.Branch(p.Cwd); err == nil {
			v.Branch, gitRoot = g.Label(), g.Root
		}
	}
	// The extra segments read the payload as decoded, and the git cache (git.go).
	v.Payload, v.Now = *p, c.Now().Unix()
	var gitStale bool
	v.Git, gitStale = c.gitFacts(rs.Options.Lines, gitRoot, v.Branch, c.Now())

	r := Rendered{Payload: p, Options: rs.Options, Prep: rs.Prep, Warning: w}
	live := c.Live()
	if gitStale && live { // a hand render keeps no state, the git cache included
		r.GitRefresh = gitRoot
	}
	c.session(&r, &v, modelID, live)
	r.View = v
	r.Line = statusline.Render(v, rs.Options)
	if strings.TrimSpace(r.Line) == "" {
		// A layout with nothing to show (say only "model", before the model is known) must not
		// blank the line: the zone instead.
		o := rs.Options
		o.Lines = [][]string{{"zone", "problems"}}
		r.Line = statusline.Render(v, o)
	}
	return r
}

// decode decodes the payload; the problems are the environment's, the config's and the
// payload's (each also logged).
func (c *Context) decode(data []byte, readErr, cfgErr error) (*payload.Statusline, []string) {
	problems := append([]string(nil), c.Problems...)
	if cfgErr != nil {
		problems = append(problems, ConfigProblem(cfgErr))
		c.State.Log("statusline", "config: %s", ConfigProblem(cfgErr))
	}
	p, err := payload.DecodeStatusline(data)
	if err != nil && readErr != nil { // (the decode's error is the one shown)
		c.State.Log("statusline", "%s", safetext.Field(readErr.Error(), 0))
	}
	if err == nil {
		err = readErr
	}
	if err != nil {
		problems = append(problems, "payload: "+ShortErr(err))
		c.State.Log("statusline", "%s (%d bytes)", safetext.Field(err.Error(), 0), len(data))
	}
	return p, problems
}

// tokens is the payload's current usage, else the count at the transcript's tail.
func (c *Context) tokens(p *payload.Statusline, v *statusline.View) (int64, bool) {
	tokens, known := p.Tokens()
	if !known && p.TranscriptPath != "" {
		t, err := transcript.Tail(p.TranscriptPath, tailBytes)
		switch {
		case err != nil && !rawfs.IsNotExist(err):
			v.Problems = append(v.Problems, "transcript: "+ShortErr(err))
			c.State.Log("statusline", "transcript %s: %v", p.TranscriptPath, err)
		case t.Found:
			tokens, known = t.Tokens, true
		}
	}
	return tokens, known
}

// hintTier is the View.Tier a session's warning shows: the nudge tier reached, or TierReady
// (the step the nudge names too, notify.NextStep: "⚑ /compact" only with a checkpoint fresh for
// the next compaction), "" for none. The checkpoint is looked at only while a tier is crossed.
func (c *Context) hintTier(rs Resolved, sessionID string, w Warning) string {
	t := w.Hint()
	if t != "" && state.ValidSessionID(sessionID) &&
		notify.NextStep(c.State, sessionID, c.Now(), rs.StaleAfter) == notify.StepCompact {
		t = statusline.TierReady
	}
	return t
}

// session loads the session's registry, counts its compactions (incremental scan) and sets
// what this render would save; a hand render (not live) keeps nothing.
func (c *Context) session(r *Rendered, v *statusline.View, modelID string, live bool) {
	p := r.Payload
	if !state.ValidSessionID(p.SessionID) || !c.State.Usable() {
		if p.SessionID != "" && !state.ValidSessionID(p.SessionID) {
			c.State.Log("statusline", "session id %q is not a UUID: no state kept", safetext.Cut(p.SessionID, 80))
		}
		return
	}
	s, loadErr := c.State.LoadSession(p.SessionID)
	before := *s
	r.notePrevious(s, loadErr, p.TranscriptPath)
	c.countCompactions(s, p.TranscriptPath)
	v.Compactions, v.Reclaimed = s.Compactions, s.Reclaimed
	v.Resume = c.resumeVerdict(s) // resume.go
	// A compaction the hooks could not record (their lock planted or busy) is a ⚠, not only
	// a log line: the restore then presents no checkpoint as ground truth. One failed open
	// when all is well.
	if pf, err := c.State.SessionFile(p.SessionID, state.CompactionsProblemFile); err == nil {
		if b, err := state.ReadFile(pf, 512); err == nil && len(b) > 0 {
			v.Problems = append(v.Problems, safetext.Line(string(b)))
		}
	}
	s.Tokens, s.Window, s.Zone, s.Model, s.ModelID = v.Tokens, v.Window, v.Zone.String(), v.Model, modelID
	s.WindowGuessed = false
	s.Cwd, s.Project, s.Version = p.Cwd, p.Dir(), p.Version
	if c.ModCall {
		keepRegistryNames(s, &before, p) // the mod knows less than the status line
	}
	s.Pane, s.TmuxSocket = c.Getenv("TMUX_PANE"), tmuxSocket(c.Getenv("TMUX"))
	s.AutoCompact = v.Compact.Point
	if live {
		r.session, r.saved, r.loaded, r.changed = s, before, loadErr == nil, !s.Same(before)
	}
}

// SessionID is the session whose registry this render keeps, "" for none (a hand render, no
// valid session_id, no state dir).
func (r *Rendered) SessionID() string {
	if r.session == nil {
		return ""
	}
	return r.session.ID
}

// notePrevious records what the registry held before this run, so that the warning loop sees
// a compaction or a model switch without reading its marker files. A count that grows while
// catching up with a transcript seen for the first time is not a compaction: the loop compares
// only once the count had caught up.
func (r *Rendered) notePrevious(s *state.Session, loadErr error, transcriptPath string) {
	r.prevCompactions, r.prevWindow = s.Compactions, s.Window
	if s.WindowGuessed {
		r.prevWindow = 0 // the Stop hook's guess: the render's real window is no model switch
	}
	r.prevKnown = loadErr == nil && s.TranscriptCounted && s.Transcript == transcriptPath
}

// keepRegistryNames keeps in the registry what the status line wrote and the mod's payload
// lacks (the model's display name, the project dir, the version), so that the two routes do not
// rewrite the registry back and forth on every render.
func keepRegistryNames(s, saved *state.Session, p *payload.Statusline) {
	if (p.Model == nil || p.Model.DisplayName == "") && saved.ModelID == s.ModelID && saved.Model != "" {
		s.Model = saved.Model
	}
	if p.Workspace == nil && saved.Cwd == s.Cwd && saved.Project != "" {
		s.Project = saved.Project
	}
	if p.Version == "" && saved.Version != "" {
		s.Version = saved.Version
	}
}
