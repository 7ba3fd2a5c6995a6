// Package notify owns zoneline's warning loop: the tiers (warn, dumb, imminent), the per-session
// markers that record a crossing exactly once per tier per epoch, the epochs that compactions
// advance (re-arming the tiers), the pending nudge the UserPromptSubmit hook turns into one
// additionalContext, and spawning the detached companion (zoneline-notify) that shows the
// desktop notification. It never imports a notification library itself: that stays in the
// companion, out of the statusline's import graph.
//
// Files in a session's folder (<state>/sessions/<id>/):
//
//	marker-<epoch>-<tier>.json   a crossing (created exclusively: one winner among racing renders)
//	epoch-<n>.json               the n-th re-arm (created exclusively; the epoch is the largest n)
//	nudge-pending.json           a nudge is waiting for the next prompt (the hook's one stat)
//	delivered-<epoch>-<tier>     the nudge of that marker was delivered (created exclusively)
package notify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

// Tier is a warning tier. Tiers are ordered: a higher tier is closer to auto-compact.
type Tier int

// The tiers.
const (
	None     Tier = iota
	Warn          // the warn zone: informative notification
	Dumb          // the prep threshold (default: the dumb zone): marker, nudge, notification
	Imminent      // within Warning.ImminentDistance of the auto-compact point: nudge and notify again
	numTiers
)

// tiersDown is every tier, highest first: the order crossings are claimed in.
var tiersDown = []Tier{Imminent, Dumb, Warn}

// tierNames are the tiers' config names, by tier.
var tierNames = [numTiers]string{"", "warn", "dumb", "imminent"}

// String returns the tier's config name: "warn", "dumb", "imminent" ("" for None).
func (t Tier) String() string {
	if t < None || t >= numTiers {
		return ""
	}
	return tierNames[t]
}

// ParseTier returns the tier named s.
func ParseTier(s string) (Tier, bool) {
	for _, t := range tiersDown {
		if t.String() == s {
			return t, true
		}
	}
	return None, false
}

// Levels are the token counts at which each tier fires; 0 means the tier cannot fire.
type Levels struct {
	Warn     int64 // the warn zone's threshold
	Prep     int64 // the prep threshold (zones.Prep); the Dumb tier
	Imminent int64 // auto-compact point − imminent distance; 0 when auto-compact is off
}

// LevelsFor computes the levels of a session from its thresholds, its prep threshold (from
// zones.Prep), its auto-compact point and the configured imminent distance.
func LevelsFor(t zones.Thresholds, prep int64, c zones.Compact, imminentDistance int64) Levels {
	l := Levels{Warn: t.Warn, Prep: prep}
	if c.Enabled && c.Point > 0 && imminentDistance > 0 {
		l.Imminent = max(c.Point-imminentDistance, 1)
	}
	return l
}

// Level returns the token count at which tier t fires (0: never).
func (l Levels) Level(t Tier) int64 {
	switch t {
	case Warn:
		return l.Warn
	case Dumb:
		return l.Prep
	case Imminent:
		return l.Imminent
	}
	return 0
}

// rearmBelow is the token count under which a session with markers is re-armed: the lowest
// positive level, so a re-armed epoch can never be crossed again by the same count.
func (l Levels) rearmBelow() int64 {
	low := int64(0)
	for _, t := range tiersDown {
		if v := l.Level(t); v > 0 && (low == 0 || v < low) {
			low = v
		}
	}
	return low
}

// Crossed returns the tiers reached by tokens among those in active, highest first.
func Crossed(tokens int64, l Levels, active []Tier) []Tier {
	var out []Tier
	for _, t := range tiersDown {
		if v := l.Level(t); v > 0 && tokens >= v && slices.Contains(active, t) {
			out = append(out, t)
		}
	}
	return out
}

// Policy is what the config says each tier does.
type Policy struct {
	Nudge  []Tier // tiers that nudge the agent ([warning] tiers, when nudge = true)
	Notify []Tier // tiers that send a desktop notification ([notify] tiers, when enabled)
	// NudgeText is the custom nudge ("" = built in); see Text for its placeholders.
	NudgeText string
	Urgency   string // low | normal | critical
	AppName   string
}

// PolicyFor reads the policy from the config.
func PolicyFor(c *config.Config) Policy {
	p := Policy{NudgeText: c.Warning.NudgeText, Urgency: c.Notify.Urgency, AppName: c.Notify.AppName}
	if c.Warning.Nudge {
		p.Nudge = parseTiers(c.Warning.Tiers)
	}
	if c.Notify.Enabled {
		p.Notify = parseTiers(c.Notify.Tiers)
	}
	return p
}

func parseTiers(names []string) []Tier {
	var out []Tier
	for _, n := range names {
		if t, ok := ParseTier(n); ok && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// active returns the tiers that write a marker: those that nudge or notify.
func (p Policy) active() []Tier {
	out := slices.Clone(p.Nudge)
	for _, t := range p.Notify {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// Hint returns the highest nudge tier that tokens has reached, or None: the statusline shows a
// "/compact-prep" hint while it is set. It is pure; a compaction clears it by lowering tokens.
func Hint(tokens int64, known bool, l Levels, p Policy) Tier {
	if !known {
		return None
	}
	if c := Crossed(tokens, l, p.Nudge); len(c) > 0 {
		return c[0]
	}
	return None
}

// Marker is one crossing, as written to marker-<epoch>-<tier>.json.
type Marker struct {
	Session     string    `json:"session_id"`
	Epoch       int       `json:"epoch"`
	Tier        string    `json:"tier"`
	Tokens      int64     `json:"tokens"`
	Threshold   int64     `json:"threshold"`
	Window      int64     `json:"window"`
	AutoCompact int64     `json:"auto_compact"` // 0 when auto-compact is off
	Zone        string    `json:"zone"`
	Model       string    `json:"model"`
	ModelID     string    `json:"model_id"`
	Project     string    `json:"project"`
	Compactions int       `json:"compactions"` // the session's compaction count at the crossing
	Time        time.Time `json:"time"`
	Nudge       bool      `json:"nudge"`  // the hook turns it into a nudge
	Notify      bool      `json:"notify"` // a notification was sent for it
}

// pendingName is the pending nudge's file in a session's folder (state/layout.go).
const pendingName = state.NudgePendingName

// markerName is the file name of a tier's marker in an epoch.
func markerName(epoch int, t Tier) string { return state.MarkerName(epoch, t.String()) }

// markerFields is a marker file's shape (jsonscan.Field), in file order: the markers are
// written on the statusline's hot path and read by the hooks, where encoding/json's first use
// costs a fresh process hundreds of microseconds (TestMarkerJSON holds the file to
// encoding/json's MarshalIndent).
var markerFields = [...]jsonscan.Field[Marker]{
	{Key: "session_id", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.String(&m.Session) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendString(b, m.Session) }},
	{Key: "epoch", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Count(&m.Epoch, 1<<31-1) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendInt(b, int64(m.Epoch), false) }},
	{Key: "tier", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.String(&m.Tier) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendString(b, m.Tier) }},
	{Key: "tokens", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Int(&m.Tokens) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendInt(b, m.Tokens, false) }},
	{Key: "threshold", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Int(&m.Threshold) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendInt(b, m.Threshold, false) }},
	{Key: "window", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Int(&m.Window) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendInt(b, m.Window, false) }},
	{Key: "auto_compact", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Int(&m.AutoCompact) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendInt(b, m.AutoCompact, false) }},
	{Key: "zone", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.String(&m.Zone) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendString(b, m.Zone) }},
	{Key: "model", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.String(&m.Model) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendString(b, m.Model) }},
	{Key: "model_id", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.String(&m.ModelID) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendString(b, m.ModelID) }},
	{Key: "project", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.String(&m.Project) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendString(b, m.Project) }},
	{Key: "compactions", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Count(&m.Compactions, 1<<31-1) }, Write: func(b []byte, m *Marker) []byte {
		return jsonscan.AppendInt(b, int64(m.Compactions), false)
	}},
	{Key: "time", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Time(&m.Time) }, Write: func(b []byte, m *Marker) []byte { return jsonscan.AppendTime(b, m.Time) }},
	{Key: "nudge", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Bool(&m.Nudge) }, Write: func(b []byte, m *Marker) []byte { return strconv.AppendBool(b, m.Nudge) }},
	{Key: "notify", Read: func(s *jsonscan.Scanner, m *Marker) error { return s.Bool(&m.Notify) }, Write: func(b []byte, m *Marker) []byte { return strconv.AppendBool(b, m.Notify) }},
}

// appendJSON appends m as indented JSON, as encoding/json's MarshalIndent writes it.
func (m *Marker) appendJSON(b []byte) []byte {
	return append(jsonscan.AppendObject(b, m, markerFields[:], "  "), '\n')
}

// Input is one render's facts for Check.
type Input struct {
	Session *state.Session // the session as saved by this render
	Known   bool           // the token count is known (not before the first reply)
	Levels  Levels
	Policy  Policy
	Now     time.Time
	// Spawn sends a notification; nil means none is sent. The statusline passes a Spawner's
	// Spawn; tests pass a recorder.
	Spawn func(Notification) error
	// PrevCompactions is the compaction count the registry held before this render, when
	// PrevKnown: a change re-arms the tiers. Without it (no registry yet, or a count still
	// catching up with a transcript seen for the first time) the count is not compared: a
	// catch-up is not a compaction; falling tokens and PostCompact (Rearm) re-arm instead.
	PrevCompactions int
	PrevKnown       bool
	// PrevWindow is the registry's window before this render (0 unknown): a different window
	// (a switch between a 200k and a 1M model) re-arms, since the tiers' levels moved.
	PrevWindow int64
	// Step is the next step (NextStep, as the statusline's hint shows it) the notification
	// names; "" is StepPrep.
	Step Step
}

// Result is what Check did.
type Result struct {
	Epoch    int
	Rearmed  bool   // a compaction advanced the epoch
	Created  []Tier // markers this call created, highest first
	Notified Tier   // the tier notified (None when no notification was sent)
}

// Check runs after a render is printed and its session saved: it re-arms the tiers when the
// session was compacted, creates the marker of every tier newly crossed (exactly one process
// wins each), marks a nudge pending, and sends one notification for the highest tier crossed,
// by the process that created that tier's marker. It costs one directory read when nothing is
// crossed.
func Check(dir state.Dir, in Input) (Result, error) {
	var res Result
	s := in.Session
	if s == nil || !state.ValidSessionID(s.ID) {
		return res, nil
	}
	sdir, err := dir.Session(s.ID)
	if err != nil { // a planted symlink: "" would mean the working directory
		return res, err
	}
	sc, err := scan(sdir)
	if err != nil {
		return res, err
	}
	res.Epoch = sc.epoch
	if len(sc.markers) > 0 {
		reason := ""
		if in.Known && s.Tokens < in.Levels.rearmBelow() {
			reason = fmt.Sprintf("tokens %d below %d", s.Tokens, in.Levels.rearmBelow())
		} else if in.PrevWindow != 0 && in.PrevWindow != s.Window {
			reason = fmt.Sprintf("window %d → %d", in.PrevWindow, s.Window)
		} else if in.PrevKnown && in.PrevCompactions != s.Compactions {
			reason = fmt.Sprintf("compactions %d → %d", in.PrevCompactions, s.Compactions)
		}
		if reason != "" {
			if res.Epoch, err = advance(sdir, sc.epoch, reason, in.Now); err != nil {
				return res, err
			}
			res.Rearmed = true
			sc.markers = nil
		}
	}
	if !in.Known {
		return res, nil
	}
	crossed := Crossed(s.Tokens, in.Levels, in.Policy.active())
	if len(crossed) == 0 {
		return res, nil
	}
	// The notification goes with the highest crossed tier that notifies, and only from the
	// process that creates its marker: of racing renders, exactly one sends it.
	notifyTier := None
	if i := slices.IndexFunc(crossed, func(t Tier) bool { return slices.Contains(in.Policy.Notify, t) }); i >= 0 {
		notifyTier = crossed[i]
	}
	pending := None
	var notified *Marker
	for _, t := range crossed {
		if slices.Contains(sc.markers, t) {
			continue
		}
		m := &Marker{
			Session: s.ID, Epoch: res.Epoch, Tier: t.String(), Tokens: s.Tokens,
			Threshold: in.Levels.Level(t), Window: s.Window, AutoCompact: s.AutoCompact, Zone: s.Zone,
			Model: s.Model, ModelID: s.ModelID, Project: s.Project, Compactions: s.Compactions,
			Time: in.Now.UTC(), Nudge: slices.Contains(in.Policy.Nudge, t),
			Notify: t == notifyTier && in.Spawn != nil,
		}
		created, err := state.Claim(filepath.Join(sdir, markerName(res.Epoch, t)), m.appendJSON(nil))
		if err != nil {
			return res, err
		}
		if !created {
			continue
		}
		res.Created = append(res.Created, t)
		if m.Nudge && pending == None {
			pending = t
		}
		if m.Notify {
			notified = m
		}
	}
	if pending != None {
		// A flag: when one is already there, the hook's re-scan finds this marker too.
		data := `{"epoch":` + strconv.Itoa(res.Epoch) + `,"tier":"` + pending.String() + "\"}\n"
		if _, err := state.Claim(filepath.Join(sdir, pendingName), []byte(data)); err != nil {
			return res, err
		}
	}
	if notified != nil {
		res.Notified = notifyTier
		if err := in.Spawn(NotificationForStep(notified, in.Policy, in.Step)); err != nil {
			return res, err
		}
	}
	return res, nil
}

// nudge-pending.json holds {"epoch":…,"tier":…}: informative only (the hook re-reads the
// markers).

// Rearm advances the session's epoch when its current epoch has markers: every tier can fire
// again. PostCompact calls it; the statusline re-arms on its own too (tokens falling below the
// lowest level, or the compaction count changing). Racing callers advance the epoch once.
func Rearm(dir state.Dir, sessionID string) error {
	sdir, err := dir.Session(sessionID)
	if err != nil {
		return err
	}
	sc, err := scan(sdir)
	if err != nil || len(sc.markers) == 0 {
		return err
	}
	_, err = advance(sdir, sc.epoch, "compaction recorded by a hook", time.Now())
	return err
}

// advance moves the epoch from e to e+1, once: of racing callers, one creates epoch-<e+1>.json
// and removes the pending nudge of the old epoch.
func advance(sdir string, e int, reason string, now time.Time) (int, error) {
	data := append(strconv.AppendInt([]byte(`{"epoch":`), int64(e+1), 10), `,"reason":`...)
	data = jsonscan.AppendString(data, reason)
	data = append(now.UTC().AppendFormat(append(data, `,"time":"`...), time.RFC3339Nano), "\"}\n"...)
	created, err := state.Claim(filepath.Join(sdir, state.EpochName(e+1)), data)
	if err != nil {
		return e, err
	}
	if created {
		if err := os.Remove(filepath.Join(sdir, pendingName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return e + 1, err
		}
	}
	return e + 1, nil
}

// scanned is what one read of a session's folder tells.
type scanned struct {
	epoch     int
	markers   []Tier         // markers of the current epoch
	delivered [numTiers]bool // delivered nudges of the current epoch, by tier
}

// scan reads a session's folder once. A missing folder is an empty session.
func scan(sdir string) (scanned, error) {
	var sc scanned
	names, err := rawfs.ReadDirNames(sdir) // no os.File: see rawfs
	if rawfs.IsNotExist(err) {
		return sc, nil
	}
	if err != nil {
		return sc, err
	}
	// The current epoch is the highest epoch file; markers and deliveries of older epochs are
	// ignored. (Two passes over a few dozen names; no maps.)
	for _, n := range names {
		if rest, ok := strings.CutPrefix(n, state.EpochPrefix); ok {
			if e, err := strconv.Atoi(strings.TrimSuffix(rest, state.EpochSuffix)); err == nil && strings.HasSuffix(rest, state.EpochSuffix) && e > sc.epoch {
				sc.epoch = e
			}
		}
	}
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, state.MarkerPrefix) && strings.HasSuffix(n, state.MarkerSuffix):
			if e, t, ok := epochTier(strings.TrimSuffix(strings.TrimPrefix(n, state.MarkerPrefix), state.MarkerSuffix)); ok && e == sc.epoch {
				sc.markers = append(sc.markers, t)
			}
		case strings.HasPrefix(n, state.DeliveredPrefix):
			if e, t, ok := epochTier(strings.TrimPrefix(n, state.DeliveredPrefix)); ok && e == sc.epoch {
				sc.delivered[t] = true
			}
		}
	}
	slices.Sort(sc.markers)
	slices.Reverse(sc.markers)
	return sc, nil
}

// epochTier parses "<epoch>-<tier>".
func epochTier(s string) (int, Tier, bool) {
	es, ts, ok := strings.Cut(s, "-")
	if !ok {
		return 0, None, false
	}
	e, err := strconv.Atoi(es)
	t, tok := ParseTier(ts)
	return e, t, err == nil && e >= 0 && tok
}

// maxMarker is the largest marker file read.
const maxMarker = 16 << 10

func readMarker(sdir string, e int, t Tier) (*Marker, error) {
	data, err := state.ReadPrivate(filepath.Join(sdir, markerName(e, t)), maxMarker)
	if err != nil {
		return nil, err
	}
	var m Marker
	if err := jsonscan.DecodeFields(data, &m, markerFields[:]); err != nil {
		return nil, fmt.Errorf("zoneline: marker %d-%s: %w", e, t, err)
	}
	return &m, nil
}

// Markers returns the markers of a session's current epoch, highest tier first (for doctor,
// tests and the hook).
func Markers(dir state.Dir, sessionID string) (epoch int, ms []*Marker, err error) {
	sdir, err := dir.Session(sessionID)
	if err != nil {
		return 0, nil, err
	}
	sc, err := scan(sdir)
	if err != nil {
		return 0, nil, err
	}
	for _, t := range sc.markers {
		m, err := readMarker(sdir, sc.epoch, t)
		if err != nil {
			return sc.epoch, ms, err
		}
		ms = append(ms, m)
	}
	return sc.epoch, ms, nil
}
