package hookevent

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/redact"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
)

// Restore sizes. Claude Code shows additionalContext over 10,000 characters as a preview, so
// the whole restore stays under maxRestore; the checkpoint gets cfg.Checkpoint.Budget of it.
const (
	maxRestore      = 9800
	snapshotSummary = 1500 // characters of snapshot summary beside a checkpoint
	fallbackSummary = 4000 // characters of snapshot summary when there is no checkpoint
)

// RestoreHeading starts every restore; the e2e test and a reader look for it.
const RestoreHeading = "zoneline: context restore after compaction"

// RecoveryInstructions are what the agent is told to do with a restored checkpoint.
const RecoveryInstructions = `Recovery instructions:
1. The checkpoint below is ground truth you wrote before this compaction: it wins every conflict with the summary.
2. Treat the summary's next steps as hypotheses until the checkpoint or the files confirm them.
3. Before any non-idempotent action, re-check each External state row (run its verify command, or ` + "`zoneline checkpoint reconcile`" + `).
4. Reload the skills listed under Skills.
5. Then do Next.`

// fallbackInstructions go with a snapshot summary when no checkpoint was written.
const fallbackInstructions = `Recovery instructions: no checkpoint was written for this compaction, so the summary is all the narrative there is.
Treat its next steps as hypotheses; check the git state and files above before acting; before any
non-idempotent action (push, PR, deploy, migration, message) verify whether it already happened.`

// pendingRestore is UserPromptSubmit's restore (userprompt.go calls it for every prompt): the text for the pending compaction when
// SessionStart(compact) did not deliver it, else "". It marks the compaction delivered (under
// the state lock, so of racing prompts only one gets the text).
func pendingRestore(c *Context, h *payload.Hook) string {
	// Build the text first, then claim the delivery under the lock: a deadline between a claim
	// and the print would lose the restore.
	// text is the restore of cs's pending compaction; stateErr, when the state could not be
	// updated.
	text := func(cs *compactions, stateErr error) (string, int) {
		n := cs.Pending
		var rec compactionRecord
		if r := cs.Record(n); r != nil {
			rec = *r
		}
		at := rec.Time
		if at.IsZero() {
			at = c.now()
		}
		return buildRestore(c, h.SessionID, restoreNumber(c, h.SessionID, n), rec.Trigger, at, stateErr), n
	}
	cs0, err := loadCompactions(c.State, h.SessionID)
	if err != nil || cs0.Pending == 0 || cs0.Delivered >= cs0.Pending {
		return ""
	}
	restore, built := text(cs0, nil)
	var n int
	_, err = updateCompactions(c.State, h.SessionID, func(cs *compactions) bool {
		if cs.Pending == 0 || cs.Delivered >= cs.Pending {
			return false
		}
		n = cs.Pending
		if r := cs.Record(n); r != nil {
			r.Restore = "user_prompt"
		}
		cs.Delivered, cs.Pending = n, 0
		return true
	})
	if err != nil {
		// Fail closed: the delivery could not be recorded, so the compaction state is not
		// known to be current; the restore goes out (it may come again) with no checkpoint
		// presented as ground truth.
		c.State.Log("hook", "UserPromptSubmit: restore state: %v", err)
		restore, _ = text(cs0, err)
		return restore
	}
	if n == 0 {
		return ""
	}
	if n != built { // another compaction was recorded in between
		cs1, _ := loadCompactions(c.State, h.SessionID)
		if cs1 == nil {
			cs1 = &compactions{}
		}
		cs1.Pending = n
		restore, _ = text(cs1, nil)
	}
	armResume(c, h, n, restore, true) // resume.go
	return restore
}

// now returns the handler's clock.
func (c *Context) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// cfg returns the config, defaults when none was loaded.
func (c *Context) cfg() *config.Config {
	if c.Config != nil {
		return c.Config
	}
	return config.Default()
}

// restoreNumber is the number of the compaction a restore is for: n from compactions.json, or
// the registry's count (compact_boundary records the statusline counted in the transcript)
// when that is larger, as when PostCompact could not record compactions.
func restoreNumber(c *Context, id string, n int) int {
	if s, err := c.State.LoadSession(id); err == nil && s.Compactions > n {
		return s.Compactions
	}
	return n
}

// buildRestore composes the restore for compaction n of session id, which happened at at: the
// recovery instructions, the checkpoint verbatim (up to the budget), and the snapshot's path and
// summary; or, with no usable checkpoint, the snapshot's summary labelled as such. Only this
// session's files are read. A checkpoint that is not fresh for compaction n (checkpoint.For:
// written before compaction n-1, or more than the staleness limit before n) and a snapshot older
// than the limit are named as stale, not restored as truth, and so is every checkpoint when
// stateErr says the compaction state could not be recorded. It returns "" when there is nothing.
func buildRestore(c *Context, id string, n int, trigger string, at time.Time, stateErr error) string {
	cfg := c.cfg()
	stale := time.Duration(cfg.Checkpoint.StaleMinutes) * time.Minute
	budget := cfg.Checkpoint.Budget
	if budget <= 0 {
		budget = checkpoint.DefaultBudget
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%s #%d", RestoreHeading, n)
	if trigger != "" {
		fmt.Fprintf(&b, " (%s)", safetext.Field(trigger, 40))
	}
	b.WriteString(".\n")

	ckPath, _ := checkpoint.Path(c.State, id)
	ckText, ckMod, ckErr := checkpoint.Read(ckPath)
	// The one freshness rule (checkpoint.For): written after compaction n-1, within the limit of n.
	cs, csErr := checkpoint.Compactions(c.State, id)
	if csErr == nil && stateErr != nil {
		csErr = stateErr // not recorded: which compaction the checkpoint follows is unknown
	}
	fresh := checkpoint.ForRead(ckMod, cs, csErr, n, at, stale)
	usable := false
	switch {
	case errors.Is(ckErr, os.ErrNotExist):
		// fall back to the snapshot
	case ckErr != nil:
		fmt.Fprintf(&b, "The checkpoint %s could not be read (%s): it was not restored.\n", ckPath, safetext.Field(ckErr.Error(), 300))
	case strings.TrimSpace(ckText) == "":
		fmt.Fprintf(&b, "The checkpoint %s is empty: nothing to restore from it.\n", ckPath)
	default:
		ck := checkpoint.Parse(ckText)
		switch {
		case ck.Header.Session != "" && !strings.EqualFold(ck.Header.Session, id):
			fmt.Fprintf(&b, "The checkpoint %s names another session (%s): it was not restored.\n", ckPath, safetext.Field(ck.Header.Session, 80))
		case !fresh.Fresh:
			fmt.Fprintf(&b, "STALE CHECKPOINT: %s is not restored as truth: %s. Read it only as history (`zoneline checkpoint show`) and verify each point before relying on it.\n",
				ckPath, fresh.Why())
		default:
			usable = true
			b.WriteString(RecoveryInstructions + "\n\n")
			ckText = redact.String(ckText) // before the fit: the budget counts what is sent
			body, cut := fitLines(ckText, budget)
			fmt.Fprintf(&b, "<checkpoint path=%q written=%q>\n%s\n", ckPath, ckMod.UTC().Format(time.RFC3339), strings.TrimRight(body, "\n"))
			if cut {
				fmt.Fprintf(&b, "[zoneline: checkpoint cut on a line boundary at %d of %d characters (the budget); read the rest in %s]\n",
					utf8.RuneCountInString(body), utf8.RuneCountInString(ckText), ckPath)
			}
			b.WriteString("</checkpoint>\n")
		}
	}

	snapPath, snap, snapErr := snapshot.Latest(c.State, id)
	if snap != nil {
		snap.Redact() // a snapshot written before redaction existed
	}
	// The work in flight (inflight.go) comes before the snapshot summary in priority.
	flight := inFlightRestore(snapPath, snap, snapErr, at, cfg, maxRestore-utf8.RuneCountInString(b.String())-inFlightReserve)
	room := maxRestore - utf8.RuneCountInString(b.String()) - utf8.RuneCountInString(flight) - 400
	switch {
	case snapErr != nil && !usable:
		if !strings.Contains(b.String(), ckPath) {
			return "" // no checkpoint, no snapshot: nothing to say
		}
		b.WriteString("No PreCompact snapshot was found for this session either.\n")
	case snapErr != nil:
		// checkpoint only
	case at.Sub(snap.Time) > stale:
		fmt.Fprintf(&b, "\nSTALE SNAPSHOT: the newest snapshot, %s, was taken %s before this compaction (the limit is %d minutes); it is not this compaction's.\n",
			snapPath, at.Sub(snap.Time).Round(time.Minute), cfg.Checkpoint.StaleMinutes)
	case usable && room < minSummary:
		// The checkpoint used the room: the path only, so the whole stays under Claude Code's
		// 10,000-character preview limit.
		fmt.Fprintf(&b, "\nSnapshot (mechanical, taken at PreCompact): %s\n", snapPath)
	case usable:
		fmt.Fprintf(&b, "\nSnapshot (mechanical, taken at PreCompact): %s\n%s\n", snapPath, snap.Summary(min(snapshotSummary, room)))
	default:
		room = max(room, minSummary) // no checkpoint: the room is the whole budget
		fmt.Fprintf(&b, "No /compact-prep checkpoint was written for this compaction.\nSNAPSHOT SUMMARY (mechanical facts recorded at PreCompact, not a checkpoint: no decisions, no rules): %s\n%s\n\n%s\n",
			snapPath, snap.Summary(min(fallbackSummary, room)), fallbackInstructions)
	}
	b.WriteString(flight)
	// Whatever else reached the text (a path, a summary line) goes through the same redaction
	// as the snapshot, the checkpoint and the log.
	return redact.String(strings.TrimRight(b.String(), "\n"))
}

// minSummary is the least room worth a snapshot summary (a line or two).
const minSummary = 200

// fitLines returns the longest prefix of text made of whole lines with at most budget
// characters, and whether it cut anything.
func fitLines(text string, budget int) (string, bool) {
	if utf8.RuneCountInString(text) <= budget {
		return text, false
	}
	n, end := 0, 0
	for i, r := range text {
		n++
		if n > budget {
			break
		}
		if r == '\n' {
			end = i + 1
		}
	}
	return text[:end], true
}
