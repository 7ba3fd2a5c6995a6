package compactflow

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

// Watch actions.
const (
	ActSkip   = "skip"
	ActNotify = "notify"
	ActFlow   = "compact-flow"
)

// watchClaimFmt is the file that records, once per session and warning epoch, that watch acted
// on the crossing (created exclusively): it notifies or runs a flow once, not every tick.
const watchClaimFmt = state.WatchClaimFmt

// Decision is what watch does about one session on one tick.
type Decision struct {
	Entry  sessions.Entry
	Action string // ActSkip, ActNotify or ActFlow
	Reason string
}

// Watcher checks the registry on each Tick: a live session that crossed its prep tier and is
// idle at its prompt gets a notification, or, with Auto and a project in the allow-list, a
// compact-flow. Never on a session that is mid-turn; never two flows on one pane (the pane lock,
// and one claim per session and epoch).
type Watcher struct {
	State    state.Dir
	Tmux     Tmux
	Auto     bool
	Projects []string      // project dirs or globs auto may compact
	Since    time.Duration // live window
	Notify   func(sessions.Entry) error
	// Flow runs compact-flow on a session (taking the pane lock); it is run in its own
	// goroutine.
	Flow func(context.Context, sessions.Entry) error
	Now  func() time.Time

	wg sync.WaitGroup
}

// Allowed reports whether auto may run a flow in project (its path, or cwd): an exact path or
// a glob in Projects.
func (w *Watcher) Allowed(e sessions.Entry) bool {
	for _, p := range w.Projects {
		for _, dir := range []string{e.Project, e.Cwd} {
			if dir == "" {
				continue
			}
			if filepath.Clean(p) == filepath.Clean(dir) {
				return true
			}
			if ok, _ := filepath.Match(p, dir); ok {
				return true
			}
		}
	}
	return false
}

// Decide says what to do with one session, given its pane's screen (screenErr when it could not
// be read, or there is no pane).
func (w *Watcher) Decide(e sessions.Entry, screen string, screenErr error) Decision {
	d := Decision{Entry: e, Action: ActSkip}
	if !e.PrepCrossed() {
		d.Reason = "below its prep tier"
		return d
	}
	idle, known := e.Idle()
	switch {
	case known && !idle:
		d.Reason = "mid-turn (a prompt after its last render)"
		return d
	case screenErr == nil && Busy(screen):
		d.Reason = "mid-turn (the pane shows it working)"
		return d
	case !known && screenErr != nil:
		d.Reason = "cannot tell whether it is idle (no prompt record, pane unreadable)"
		return d
	}
	switch {
	case !w.Auto:
		d.Action, d.Reason = ActNotify, "idle past its prep tier"
	case e.Pane == "" || screenErr != nil:
		d.Action, d.Reason = ActNotify, "idle past its prep tier; no readable tmux pane for compact-flow"
	case !w.Allowed(e):
		d.Action, d.Reason = ActNotify, "idle past its prep tier; project not in [watch] projects"
	default:
		d.Action, d.Reason = ActFlow, "idle past its prep tier"
	}
	return d
}

// Tick reads the registry once and acts on each session; it returns every decision. A session
// is acted on once per warning epoch.
func (w *Watcher) Tick(ctx context.Context) ([]Decision, error) {
	now := time.Now()
	if w.Now != nil {
		now = w.Now()
	}
	es, err := sessions.List(w.State, sessions.Options{Now: now, Since: w.Since})
	if err != nil {
		return nil, err
	}
	var out []Decision
	for _, e := range es {
		screen, serr := "", fmt.Errorf("no tmux pane")
		if e.Pane != "" && e.PrepCrossed() {
			screen, serr = w.Tmux.Capture(Target{Socket: e.TmuxSocket, Pane: e.Pane})
		}
		d := w.Decide(e, screen, serr)
		if d.Action != ActSkip {
			claimed, err := w.claim(e, d, now)
			switch {
			case err != nil:
				d.Action, d.Reason = ActSkip, "cannot record the claim: "+err.Error()
			case !claimed:
				d.Action, d.Reason = ActSkip, "already handled for this crossing"
			}
		}
		switch d.Action {
		case ActNotify:
			if w.Notify != nil {
				if err := w.Notify(e); err != nil {
					d.Reason += " (notification failed: " + err.Error() + ")"
				}
			}
		case ActFlow:
			w.wg.Go(func() { w.Flow(ctx, e) })
		}
		out = append(out, d)
	}
	return out, nil
}

// Wait waits for the flows Tick started.
func (w *Watcher) Wait() { w.wg.Wait() }

// claim records that watch acts on this session's crossing; false when it already did.
func (w *Watcher) claim(e sessions.Entry, d Decision, now time.Time) (bool, error) {
	path, err := w.State.SessionFile(e.ID, fmt.Sprintf(watchClaimFmt, e.Epoch))
	if err != nil {
		return false, err
	}
	data := fmt.Sprintf("{\"action\":%q,\"time\":%q}\n", d.Action, now.UTC().Format(time.RFC3339))
	return state.CreateExclusive(path, []byte(data))
}
