package pipeline

import (
	"cmp"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/statusline"
)

// After runs once the line is printed (took: since the process started; < 0 for the Stop
// hook, which keeps the last render's time): the registry's write, then the warning loop.
// Problems go to the log only.
func (c *Context) After(r Rendered, took time.Duration) {
	if r.session == nil {
		return
	}
	switch c.saveAction(r) {
	case SaveRegistry:
		r.session.Updated = c.Now().UTC() // UTC: formatting a local time would load the zone database
		if took >= 0 {
			r.session.RenderMicros = took.Microseconds()
		}
		if err := c.State.SaveSession(r.session); err != nil {
			c.State.Log("statusline", "saving session: %v", err)
		}
	case TouchRegistry:
		if err := c.State.TouchSession(r.session.ID, c.Now()); err != nil {
			c.State.Log("statusline", "touching session: %v", err)
		}
	}
	c.checkWarning(r)
}

// saveAfter is how long a registry whose only change is the token count and the transcript
// offset may wait before it is saved: a save (temp file, rename) costs a render about a fifth of
// its time on ext4 (bench: StatuslineSave against StatuslineTurn); the compaction count is exact
// either way (the next render scans from the saved offset).
const saveAfter = 5 * time.Second

// rescanAfter is how far the transcript offset may move unsaved: the next render scans from the
// saved offset again.
const rescanAfter = 256 << 10

// SaveAction is what a render does with the registry (saveAction).
type SaveAction int

const (
	KeepRegistry  SaveAction = iota // as it is
	SaveRegistry                    // rewrite it (a temp file and a rename)
	TouchRegistry                   // set its time only: this render happened (sessions.Entry.Idle)
)

// saveAction decides what this render does with the registry. It saves it when there was
// none, when anything but the tokens and the transcript offset changed (zone, model, window,
// compactions, …), when those moved and the saved state is saveAfter old or the offset moved
// rescanAfter, and at least once a minute (the clocks run from the last save). Otherwise, when
// a prompt was submitted after the last render, it touches it, so that the registry's time says
// a render followed the prompt.
func (c *Context) saveAction(r Rendered) SaveAction {
	age := c.Now().Sub(r.saved.Saved) // since the last write: touches do not restart the clocks
	switch {
	case !r.loaded, age < 0, age > time.Minute:
		return SaveRegistry
	case r.changed && (!r.session.OnlyMoved(r.saved) || age >= saveAfter):
		return SaveRegistry
	case r.session.TranscriptOffset != r.saved.TranscriptOffset && !r.session.TranscriptCounted,
		r.session.TranscriptOffset-r.saved.TranscriptOffset > rescanAfter:
		return SaveRegistry // catching up with a transcript, or a long rescan next time: keep the progress
	}
	path, err := c.State.SessionFile(r.session.ID, sessions.PromptFile)
	if err != nil {
		return SaveRegistry
	}
	if t, ok := rawfs.ModTime(path); ok && !t.Before(r.saved.Updated) { // after the last render
		return TouchRegistry
	}
	return KeepRegistry
}

// Warning is what the warning loop needs from a render.
type Warning struct {
	Levels notify.Levels
	Policy notify.Policy
	Known  bool // the render knows the token count
	Tokens int64
}

// Hint returns the nudge tier the session has reached, "" for none (View.Tier before the
// checkpoint's freshness turns it into TierReady).
func (w Warning) Hint() string {
	return notify.Hint(w.Tokens, w.Known, w.Levels, w.Policy).String()
}

// checkWarning runs the warning loop after the line is printed and the session saved: markers,
// re-arming, the pending nudge, and the detached notifier. Problems go to the log only.
func (c *Context) checkWarning(r Rendered) {
	sp := notify.Spawner{Getenv: c.Getenv, StateDir: c.State.Root}
	spawned := false
	step := notify.StepPrep // the step the line's hint names (render: notify.NextStep)
	if r.View.Tier == statusline.TierReady {
		step = notify.StepCompact
	}
	route := cmp.Or(r.route, "statusline")
	res, err := notify.Check(c.State, notify.Input{
		Step:    step,
		Session: r.session, Known: r.Warning.Known, Levels: r.Warning.Levels, Policy: r.Warning.Policy,
		PrevCompactions: r.prevCompactions, PrevWindow: r.prevWindow, PrevKnown: r.prevKnown,
		Now: c.Now(),
		Spawn: func(n notify.Notification) error {
			spawned = true
			return sp.Spawn(n)
		},
	})
	switch {
	case errors.Is(err, notify.ErrNoBus):
		c.State.Info(route, "notify: %v", err) // doctor's notify check warns about a missing bus
	case err != nil:
		c.State.Log(route, "warning: %v", err)
	}
	if len(res.Created) > 0 || res.Rearmed {
		// Built without fmt: this runs on the render that crosses a tier.
		created := make([]string, len(res.Created))
		for i, t := range res.Created {
			created[i] = t.String()
		}
		c.State.InfoLine(route, "warning: session "+r.session.ID+" epoch "+strconv.Itoa(res.Epoch)+
			": created ["+strings.Join(created, " ")+"], notified \""+res.Notified.String()+"\" (spawned "+
			strconv.FormatBool(spawned && err == nil)+"), re-armed "+strconv.FormatBool(res.Rearmed))
	}
}
