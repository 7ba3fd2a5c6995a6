package hookevent

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/transcript"
)

// snapshotTimeout bounds taking the snapshot (the transcript read and `git status`), well inside
// the hook's Deadline.
const snapshotTimeout = 2500 * time.Millisecond

// HoldReason is the block reason of a held auto-compaction. Claude Code 2.1.332 writes it to its
// debug log only (it shows hook block reasons for a manual /compact), hence the notification.
const HoldReason = "zoneline: auto-compaction held once: no /compact-prep checkpoint newer than the context warning exists. " +
	"Run /compact-prep first (it writes the checkpoint that survives compaction), then /compact; the next compaction will not be held."

// preCompact writes the mechanical snapshot and prints the instructions for the summariser
// (Instructions: Claude Code appends a PreCompact hook's stdout to the summarisation request,
// and shows it to the user under /compact), or nothing with [precompact] instructions = false.
// It never blocks, except with [precompact] hold_once: an auto compaction with no checkpoint
// newer than the warning marker is blocked once, and the hold is recorded so the next attempt
// passes.
func preCompact(c *Context, h *payload.Hook) (Output, error) {
	if !state.ValidSessionID(h.SessionID) {
		return Output{}, state.ErrBadSession
	}
	cfg := c.cfg()
	ctx, cancel := context.WithTimeout(context.Background(), snapshotTimeout)
	defer cancel()
	snap := snapshot.Take(ctx, snapshot.Input{SessionID: h.SessionID, Transcript: h.TranscriptPath,
		Cwd: h.Cwd, Trigger: h.Trigger, Now: c.now(), State: &c.State})
	_, err := snapshot.Write(c.State, snap, cfg.PreCompact.Snapshots)
	if err != nil {
		c.State.Log("hook", "PreCompact: writing the snapshot: %v", err)
	}
	ck, ckErr := checkpoint.Next(c.State, h.SessionID, c.now(), time.Duration(cfg.Checkpoint.StaleMinutes)*time.Minute)
	if ckErr != nil {
		c.State.Log("hook", "PreCompact: checkpoint state: %v", ckErr)
	}

	if cfg.PreCompact.HoldOnce && h.Trigger == "auto" {
		if out, held := hold(c, h, ck); held {
			return out, nil
		}
	}
	if !cfg.PreCompact.Instructions {
		return Output{}, err
	}
	return Output{Text: Instructions(brief(c, h, snap, ck, cfg.PreCompact.InstructionsExtra))}, err
}

// brief gathers what the instructions are built from: the transcript since the last
// compaction (transcript.EvidenceSinceCompaction), the snapshot's work in flight, and the
// checkpoint when it is fresh (checkpoint.Next: the one rule the restore applies too).
func brief(c *Context, h *payload.Hook, snap *snapshot.Snapshot, ck checkpoint.Freshness, extra string) *Brief {
	b := &Brief{InFlight: snap.InFlight, Stale: ck.Stale(), Extra: extra}
	if h.TranscriptPath != "" {
		ev, rd, err := transcript.EvidenceSinceCompaction(h.TranscriptPath, 0)
		if err != nil {
			c.State.Log("hook", "PreCompact: reading the transcript for the instructions: %v", err)
		}
		b.Evidence, b.Read = ev, rd
	}
	if ck.Fresh {
		path, err := checkpoint.Path(c.State, h.SessionID)
		text := ""
		if err == nil {
			text, _, err = checkpoint.Read(path)
		}
		if err != nil {
			c.State.Log("hook", "PreCompact: reading the checkpoint for the instructions: %v", err)
			b.Stale = true
			return b
		}
		p := checkpoint.Parse(text)
		b.Checkpoint = path
		if s := p.Section("Next"); s != nil {
			b.Next = s.Body
		}
		if s := p.Section("Rules"); s != nil {
			b.Rules = s.Body
		}
	}
	return b
}

// hold decides and records hold_once. It holds when no compaction of this number was held
// before and there is no fresh checkpoint (checkpoint.Next: the rule the restore, the status
// line and the nudge use), or the checkpoint is older than the newest warning marker. If the
// hold cannot be recorded it does not hold: a block that could repeat is worse than none.
func hold(c *Context, h *payload.Hook, ck checkpoint.Freshness) (Output, bool) {
	markerMod, hasMarker := newestMarker(c, h.SessionID)
	hasCk := ck.Exists
	fresh := ck.Fresh && (!hasMarker || !ck.Written.Before(markerMod))
	if fresh {
		return Output{}, false
	}
	held := false
	_, err := updateCompactions(c.State, h.SessionID, func(cs *compactions) bool {
		if cs.HeldFor == cs.Count+1 {
			return false // held once already: this attempt passes
		}
		cs.HeldFor, cs.HeldAt, held = cs.Count+1, c.now().UTC(), true
		return true
	})
	if err != nil {
		c.State.Log("hook", "PreCompact: recording the hold: %v (not holding)", err)
		return Output{}, false
	}
	if !held {
		return Output{}, false
	}
	c.State.Info("hook", "PreCompact: held auto-compaction of session %s once (checkpoint %v, marker %v)", h.SessionID, hasCk, hasMarker)
	// Claude Code 2.1.332 shows a hook's block reason for a manual /compact only: for an
	// auto-compaction it goes to the debug log (e2e TestCompactionHoldOnce). So the person is
	// told on the desktop too (and the status line shows "⚑ /compact-prep").
	if cfg := c.cfg(); cfg.Notify.Enabled && c.Getenv != nil {
		n := notify.Notification{Title: "zoneline: auto-compaction held once · " + notify.ProjectName(h.Cwd),
			Body:    "No checkpoint yet: run /compact-prep now, then /compact. The next auto-compaction will not be held.",
			AppName: cfg.Notify.AppName, Urgency: "critical"}
		if err := (notify.Spawner{Getenv: c.Getenv, StateDir: c.State.Root}).Spawn(n); err != nil {
			c.State.Log("hook", "PreCompact: hold notification: %v", err)
		}
	}
	return Output{JSON: &Answer{Decision: "block", Reason: HoldReason}}, true
}

// newestMarker returns the modification time of the session's newest warning marker
// (marker-*.json, written by the notify package).
func newestMarker(c *Context, id string) (time.Time, bool) {
	dir, err := c.State.Session(id)
	if err != nil {
		return time.Time{}, false
	}
	files, _ := filepath.Glob(filepath.Join(dir, state.MarkerPrefix+"*"+state.MarkerSuffix))
	var newest time.Time
	for _, f := range files {
		if t, ok := modTime(f); ok && t.After(newest) {
			newest = t
		}
	}
	return newest, !newest.IsZero()
}

func modTime(path string) (time.Time, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), fi.Mode().IsRegular()
}
