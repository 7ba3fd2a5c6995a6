package notify

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/state"
)

// MaxNudge is the longest nudge put into the context, in runes: it stays in the history, and
// Claude Code previews any additionalContext over 10,000 characters.
const MaxNudge = 1000

// DefaultNudge is the built-in nudge while the next step is /compact-prep. Placeholders:
// {tokens} {zone} {to_compact} {window} {model} {tier} {threshold} {next}.
const DefaultNudge = "zoneline: this session's context is {tokens} tokens ({zone} zone; auto-compact {to_compact}). " +
	"Finish the current subtask, then run /compact-prep to write a checkpoint, and ask the user to run /compact."

// DefaultReadyNudge is the built-in nudge while the next step is /compact: a fresh checkpoint
// is already written.
const DefaultReadyNudge = "zoneline: this session's context is {tokens} tokens ({zone} zone; auto-compact {to_compact}). " +
	"A fresh /compact-prep checkpoint is written: finish the current subtask, then ask the user to run /compact."

// Step is the one thing to do while a warning tier is crossed: the statusline's ⚑ hint and the
// nudge both name it, and both get it from NextStep.
type Step string

// The steps.
const (
	StepPrep    Step = "/compact-prep" // no fresh checkpoint: write one
	StepCompact Step = "/compact"      // a fresh checkpoint is written: compact now
)

// NextStep decides the next step of a session now: StepCompact when its checkpoint is fresh for
// the next compaction (checkpoint.Next: written after the last recorded compaction and within
// stale), else StepPrep. The statusline's hint and the UserPromptSubmit nudge both call it, so
// they agree in every state. It costs a stat, and one small read when the checkpoint is recent.
func NextStep(dir state.Dir, sessionID string, now time.Time, stale time.Duration) Step {
	if f, _ := checkpoint.Next(dir, sessionID, now, stale); f.Fresh {
		return StepCompact
	}
	return StepPrep
}

// TakeNudge claims the session's pending nudge and marks every undelivered nudge marker of the
// current epoch delivered; it returns the highest of them. With no nudge pending it costs one
// stat and returns nil. Of racing callers at most one gets each marker: the pending file is
// claimed by rename and each delivery is an exclusive create.
func TakeNudge(dir state.Dir, sessionID string) (*Marker, error) {
	sdir, err := dir.Session(sessionID)
	if err != nil {
		return nil, err
	}
	pending := filepath.Join(sdir, pendingName)
	if _, err := os.Lstat(pending); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	// Claim it first: a nudge marked pending after this stays pending for the next prompt.
	claim := filepath.Join(sdir, fmt.Sprintf(".nudge-claim-%d-%d", os.Getpid(), time.Now().UnixNano()))
	if err := os.Rename(pending, claim); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil // another prompt took it
		}
		return nil, err
	}
	defer os.Remove(claim)
	sc, err := scan(sdir)
	if err != nil {
		return nil, err
	}
	var best *Marker
	var firstErr error
	for _, t := range sc.markers { // highest first
		if sc.delivered[t] {
			continue
		}
		m, err := readMarker(sdir, sc.epoch, t)
		if err != nil {
			// A damaged marker loses only itself: the other tiers are still delivered.
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		if !m.Nudge {
			continue
		}
		won, err := state.Claim(filepath.Join(sdir, state.DeliveredName(sc.epoch, t.String())), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"))
		if err != nil {
			return best, err
		}
		if won && best == nil {
			best = m
		}
	}
	return best, firstErr
}

// Text renders the nudge of a marker for the next step: tmpl with its placeholders filled, cut
// to MaxNudge runes. An empty tmpl is the built-in text of the step (DefaultNudge,
// DefaultReadyNudge); a custom one is written for /compact-prep, so for StepCompact it is used
// only when it names the step itself ({next}), else the built-in ready text is.
func Text(tmpl string, m *Marker, step Step) string {
	switch {
	case step == StepCompact && !strings.Contains(tmpl, "{next}"):
		tmpl = DefaultReadyNudge
	case strings.TrimSpace(tmpl) == "":
		tmpl = DefaultNudge
	}
	step = cmp.Or(step, StepPrep)
	toCompact := "is off"
	if m.AutoCompact > 0 {
		toCompact = "in ~" + Tokens(max(m.AutoCompact-m.Tokens, 0)) + " tokens"
		if m.Tokens >= m.AutoCompact {
			toCompact = "is due now"
		}
	}
	r := strings.NewReplacer(
		"{tokens}", Tokens(m.Tokens),
		"{zone}", safetext.Field(m.Zone, 20),
		"{to_compact}", toCompact,
		"{window}", Tokens(m.Window),
		"{model}", safetext.Field(m.Model, 80),
		"{tier}", safetext.Field(m.Tier, 20),
		"{threshold}", Tokens(m.Threshold),
		"{next}", string(step),
	)
	return safetext.Cut(r.Replace(tmpl), MaxNudge)
}

// Skip reports whether a prompt already does what the nudge asks: /compact, /compact-prep, or
// a request for a checkpoint. The nudge is then consumed without being shown.
func Skip(prompt string) bool {
	p := strings.ToLower(strings.TrimSpace(prompt))
	if p == "/compact" || strings.HasPrefix(p, "/compact ") || strings.HasPrefix(p, "/compact-prep") {
		return true
	}
	// A prompt that asks for the checkpoint in words: narrow phrases only, so a prompt that
	// merely mentions a checkpoint (a parser, a test) does not use up the nudge.
	return slices.ContainsFunc([]string{"compact-prep", "zoneline checkpoint", "write a checkpoint", "write the checkpoint", "checkpoint before compact"},
		func(phrase string) bool { return strings.Contains(p, phrase) })
}

// Tokens formats a token count for people: 950, 12k, 152k, 1.2M.
func Tokens(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 999_500:
		return strconv.FormatInt((n+500)/1000, 10) + "k"
	}
	s := strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + "M"
}
