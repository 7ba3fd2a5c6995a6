// Package sessions reads the session registry (the session.json the statusline writes in each
// session's state folder) into a list ordered most urgent first, adds what other packages left
// beside it (the warning markers of the current epoch, a pending restore, the last prompt), and
// renders it as the table of `zoneline sessions`.
package sessions

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/state"
)

// DefaultSince is how recently a session must have rendered its status line to count as live.
const DefaultSince = 30 * time.Minute

// DefaultActive is how recently a session must have rendered its status line or taken a prompt
// to count as active. Claude Code renders the status line after each turn and never while idle,
// so past it a session is idle since then: waiting at its prompt, or ended (nothing says which).
const DefaultActive = 10 * time.Minute

// maxStateFile is the largest compactions.json or prompt.json read.
const maxStateFile = 256 << 10

// Entry is one session as `zoneline sessions` shows it.
type Entry struct {
	state.Session
	Live bool `json:"live"` // rendered within the Since window
	// Active: rendered or prompted within the Active window (see DefaultActive); else idle
	// since Seen, perhaps ended.
	Active bool `json:"active"`
	// ToCompact is the distance in tokens to the auto-compact point (0 when it is due);
	// -1 when auto-compact is off or the point is unknown.
	ToCompact int64 `json:"to_compact"`
	// Marker is the highest warning tier crossed in the current epoch ("", "warn", "dumb",
	// "imminent"), from the notify package's markers.
	Marker string `json:"marker,omitempty"`
	// Epoch is the warning epoch of the markers (a compaction advances it).
	Epoch int `json:"epoch"`
	// RestorePending reports whether a compaction's restore waits for the next prompt
	// (compactions.json: pending > delivered).
	RestorePending bool `json:"restore_pending"`
	// Recorded is the compaction count PostCompact recorded (compactions.json), -1 when none.
	Recorded int `json:"compactions_recorded"`
	// LastPrompt is when the last prompt was submitted (prompt.json, written on
	// UserPromptSubmit); zero when unknown.
	LastPrompt time.Time `json:"last_prompt,omitzero"`
}

// Options say which sessions List returns.
type Options struct {
	Now    time.Time
	Since  time.Duration // live window; DefaultSince when <= 0
	Active time.Duration // active window; DefaultActive when <= 0
	All    bool          // include sessions not seen within Since
}

// List reads every session's registry entry under the state dir and returns them most urgent
// first (see compare). A folder without a readable session.json is skipped; a session not seen
// within Since is left out unless All.
func List(d state.Dir, o Options) ([]Entry, error) {
	if o.Since <= 0 {
		o.Since = DefaultSince
	}
	if !d.Usable() {
		return nil, state.ErrNoStateDir
	}
	root := filepath.Join(d.Root, state.SessionsDirName)
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range ents {
		if !de.IsDir() || !state.ValidSessionID(de.Name()) {
			continue
		}
		e, err := Load(d, de.Name(), o.Now, o.Since)
		if err != nil {
			continue
		}
		if !e.Live && !o.All {
			continue
		}
		if o.Active > 0 {
			e.Active = o.Now.Sub(e.Seen()) <= o.Active
		}
		out = append(out, e)
	}
	Sort(out)
	return out, nil
}

// Load reads one session's entry. It fails when session.json is missing or unreadable.
func Load(d state.Dir, id string, now time.Time, since time.Duration) (Entry, error) {
	s, err := d.LoadSession(id)
	if err != nil {
		return Entry{}, err
	}
	if since <= 0 {
		since = DefaultSince
	}
	e := Entry{Session: *s, Recorded: -1, ToCompact: -1}
	e.Live = !s.Updated.IsZero() && now.Sub(s.Updated) <= since
	if s.AutoCompact > 0 {
		e.ToCompact = max(s.AutoCompact-s.Tokens, 0)
	}
	if epoch, ms, err := notify.Markers(d, id); err == nil {
		e.Epoch = epoch
		if len(ms) > 0 {
			e.Marker = ms[0].Tier
		}
	}
	if c, err := ReadCompactions(d, id); err == nil {
		e.Recorded = c.Count
		e.RestorePending = c.Pending > 0 && c.Delivered < c.Pending
	}
	if p, err := ReadPrompt(d, id); err == nil {
		e.LastPrompt = p.Time
	}
	e.Active = !e.Seen().IsZero() && now.Sub(e.Seen()) <= DefaultActive
	return e, nil
}

// Seen is the session's last sign of life: its last render or its last prompt.
func (e Entry) Seen() time.Time {
	if e.LastPrompt.After(e.Updated) {
		return e.LastPrompt
	}
	return e.Updated
}

// zoneRank orders zones, most urgent first.
func zoneRank(z string) int {
	switch z {
	case "dumb":
		return 0
	case "warn":
		return 1
	case "smart":
		return 2
	}
	return 3
}

// compare orders the more urgent of a and b first: live before stale, active before idle, then
// the zone (dumb, warn, smart, unknown), then the distance to auto-compact (nearest first; off
// last), then more tokens, then the most recently seen, then the id (a stable order).
func compare(a, b Entry) int {
	if c := cmp.Compare(rank(a.Live), rank(b.Live)); c != 0 {
		return c
	}
	if c := cmp.Compare(rank(a.Active), rank(b.Active)); c != 0 {
		return c
	}
	if c := cmp.Compare(zoneRank(a.Zone), zoneRank(b.Zone)); c != 0 {
		return c
	}
	if c := cmp.Compare(distance(a), distance(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Tokens, a.Tokens); c != 0 {
		return c
	}
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// distance is the distance to auto-compact, off (-1) the farthest.
func distance(e Entry) int64 {
	if e.ToCompact < 0 {
		return 1 << 62
	}
	return e.ToCompact
}

// rank puts true first.
func rank(b bool) int {
	if b {
		return 0
	}
	return 1
}

// Sort orders entries most urgent first.
func Sort(es []Entry) { slices.SortStableFunc(es, compare) }

// Compactions is compactions.json (written by the hooks under a lock, replaced atomically):
// Count, Delivered and Pending are what the registry reads.
type Compactions = state.Compactions

// CompactionsFile is the hooks' compaction record in a session's folder.
const CompactionsFile = state.CompactionsName

// ReadCompactions reads a session's compactions.json; a missing file is an error satisfying
// errors.Is(err, fs.ErrNotExist).
func ReadCompactions(d state.Dir, id string) (Compactions, error) {
	var c Compactions
	data, _, err := read(d, id, CompactionsFile)
	if err != nil {
		return c, err
	}
	err = c.Decode(data)
	return c, err
}

// read reads the session's file name (a private file, at most maxStateFile), and returns its path.
func read(d state.Dir, id, name string) ([]byte, string, error) {
	path, err := d.SessionFile(id, name)
	if err != nil {
		return nil, path, err
	}
	data, err := state.ReadPrivate(path, maxStateFile)
	return data, path, err
}

// PromptFile records the session's last submitted prompt (touched on UserPromptSubmit): its
// modification time is the time of the last prompt.
const PromptFile = state.PromptName

// Prompt is what prompt.json says: PromptID is the session's first recorded prompt (the file is
// written once, then only touched), Time the last prompt's.
type Prompt struct {
	PromptID string    `json:"prompt_id,omitempty"`
	Time     time.Time `json:"time"`
}

// promptFields is prompt.json's shape (jsonscan.Field).
var promptFields = [...]jsonscan.Field[Prompt]{
	{Key: "prompt_id", Read: func(s *jsonscan.Scanner, p *Prompt) error { return s.String(&p.PromptID) }, Write: func(b []byte, p *Prompt) []byte {
		if p.PromptID == "" {
			return b
		}
		return jsonscan.AppendString(b, p.PromptID)
	}},
	{Key: "time", Read: func(s *jsonscan.Scanner, p *Prompt) error { return s.Time(&p.Time) }, Write: func(b []byte, p *Prompt) []byte { return jsonscan.AppendTime(b, p.Time) }},
}

// RecordPrompt stamps the session's last prompt: the UserPromptSubmit hook calls it so that
// watch can tell a session that is mid-turn (a prompt newer than the last render) from one idle
// at its prompt. It runs before every prompt, so it only sets the file's times (Lstat + utimes:
// a temp file and a rename cost this process several times more); the first prompt creates the
// file. A symlink planted at the path is never followed.
func RecordPrompt(d state.Dir, id, promptID string, now time.Time) error {
	path, err := d.SessionFile(id, PromptFile)
	if err != nil {
		return err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		state.Private(path, fi)
		return os.Chtimes(path, now, now)
	}
	data := jsonscan.AppendObject(nil, &Prompt{promptID, now.UTC()}, promptFields[:], "")
	if err := state.Replace(path, append(data, '\n')); err != nil {
		return err
	}
	return os.Chtimes(path, now, now)
}

// ReadPrompt reads a session's prompt.json: the first prompt's id and the last prompt's time.
func ReadPrompt(d state.Dir, id string) (Prompt, error) {
	var p Prompt
	data, path, err := read(d, id, PromptFile)
	if err != nil {
		return p, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return p, err
	}
	err = jsonscan.DecodeFields(data, &p, promptFields[:])
	p.Time = fi.ModTime()
	return p, err
}

// Idle reports what the state files say about a session being idle at its prompt: yes when its
// status line rendered after the last submitted prompt (Claude Code renders it when a turn
// ends), no when a prompt was submitted after the last render (mid-turn), and known=false when
// no prompt was ever recorded, so the caller must fall back to the screen.
func (e Entry) Idle() (idle, known bool) {
	if e.LastPrompt.IsZero() {
		return false, false
	}
	return !e.Updated.Before(e.LastPrompt), true
}

// PrepCrossed reports whether the session crossed its prep tier (a "dumb" or "imminent" marker
// in the current epoch: the tiers that ask for /compact-prep).
func (e Entry) PrepCrossed() bool {
	return e.Marker == notify.Dumb.String() || e.Marker == notify.Imminent.String()
}

// Find returns the live (or, with all, any) sessions whose pane is pane, and, when socket is not
// "", whose tmux socket is socket.
func Find(es []Entry, pane, socket string) []Entry {
	var out []Entry
	for _, e := range es {
		if e.Pane == pane && (socket == "" || e.TmuxSocket == socket) {
			out = append(out, e)
		}
	}
	return out
}
