package snapshot

import (
	"bytes"
	"errors"
	"math"
	"os"
	"slices"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/redact"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/transcript"
)

// StopFile is the per-session record of what Claude Code's last Stop said was in flight
// (written by the Stop hook, read back into the PreCompact snapshot).
const StopFile = state.InflightStopName

// Bounds of the in-flight record.
const (
	MaxStopText = 300 // runes of one string of a Stop entry
	MaxPeers    = 20  // other live sessions of the project recorded
	maxStopFile = 1 << 20
)

// InFlight is the work in flight a snapshot records, mechanically: what the transcript's tail
// shows (Flight), what the last Stop payload listed (Stop), the session's tmux pane and the
// other live sessions of the same project, from the registry.
type InFlight struct {
	Flight transcript.Flight `json:"flight"`
	Stop   *StopRecord       `json:"stop,omitempty"` // the last Stop record (empty: Stop listed nothing); nil when there is none
	Pane   string            `json:"tmux_pane,omitempty"`
	Peers  []Peer            `json:"peers,omitempty"`
	// PeersDropped counts live sessions of the project beyond MaxPeers.
	PeersDropped int `json:"peers_dropped,omitzero"`
}

// Peer is another live session in the same project.
type Peer struct {
	SessionID string    `json:"session_id"`
	Pane      string    `json:"tmux_pane,omitempty"`
	Zone      string    `json:"zone,omitempty"`
	Cwd       string    `json:"cwd,omitempty"`
	Updated   time.Time `json:"updated"`
}

// StopRecord is what one Stop payload listed as in flight, sanitized and bounded: the payload's
// entries (payload.InFlight, its keys) and when.
type StopRecord struct {
	Time time.Time `json:"time"`
	payload.InFlight
}

// stopFields is the Stop record's key table (jsonscan.Field); sameEntries expects "background"
// right after "time".
var stopFields = [...]jsonscan.Field[StopRecord]{
	{Key: "time", Read: func(s *jsonscan.Scanner, r *StopRecord) error { return s.Time(&r.Time) }, Write: func(b []byte, r *StopRecord) []byte { return jsonscan.AppendTime(b, r.Time) }},
	{Key: "background", Read: func(s *jsonscan.Scanner, r *StopRecord) error {
		return jsonscan.ReadList(s, &r.Background, payload.MaxInFlight, &r.BackgroundDropped, payload.BackgroundFields[:])
	}, Write: func(b []byte, r *StopRecord) []byte {
		return jsonscan.AppendList(b, r.Background, payload.BackgroundFields[:])
	}},
	{Key: "background_dropped", Read: func(s *jsonscan.Scanner, r *StopRecord) error { return s.Count(&r.BackgroundDropped, math.MaxInt32) }, Write: func(b []byte, r *StopRecord) []byte {
		return jsonscan.AppendInt(b, int64(r.BackgroundDropped), false)
	}},
	{Key: "crons", Read: func(s *jsonscan.Scanner, r *StopRecord) error {
		return jsonscan.ReadList(s, &r.Crons, payload.MaxInFlight, &r.CronsDropped, payload.CronFields[:])
	}, Write: func(b []byte, r *StopRecord) []byte { return jsonscan.AppendList(b, r.Crons, payload.CronFields[:]) }},
	{Key: "crons_dropped", Read: func(s *jsonscan.Scanner, r *StopRecord) error { return s.Count(&r.CronsDropped, math.MaxInt32) }, Write: func(b []byte, r *StopRecord) []byte {
		return jsonscan.AppendInt(b, int64(r.CronsDropped), false)
	}},
}

// StopPath returns the session's Stop record path.
func StopPath(d state.Dir, id string) (string, error) { return d.SessionFile(id, StopFile) }

// RecordStop keeps what a Stop payload says is in flight. With nothing in flight it costs one
// failed open when no record exists. A record that already says the same (the same entries, or
// nothing) is not rewritten: its modification time is moved to now instead (no write, no
// fsync), and LoadStop takes the later of the two as the record's time; so "nothing in flight
// since" is written once, and work in flight costs a write only when the list changes. No
// encoding/json: Stop runs after every turn.
func RecordStop(d state.Dir, id string, f *payload.InFlight, now time.Time) error {
	path, err := StopPath(d, id)
	if err != nil {
		return err
	}
	old, err := state.ReadFile(path, maxStopFile)
	if err != nil && f.Empty() {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	r := &StopRecord{Time: now.UTC(), InFlight: *f}
	r.Background, r.Crons = slices.Clone(f.Background), slices.Clone(f.Crons)
	r.MapStrings(func(v string) string { return safetext.Field(v, MaxStopText) })
	b := append(jsonscan.AppendObject(nil, r, stopFields[:], ""), '\n')
	if err == nil && sameEntries(old, b) {
		return os.Chtimes(path, now, now)
	}
	if _, err := d.Session(id); err != nil {
		return err
	}
	if err := state.WriteFile(path, b); err != nil {
		return err
	}
	os.Chtimes(path, now, now) // the record's time is its modification time too (LoadStop)
	return nil
}

// sameEntries reports whether two records (stopFields' text) list the same, their times aside.
func sameEntries(a, b []byte) bool {
	const from = `,"background":[`
	i, j := bytes.Index(a, []byte(from)), bytes.Index(b, []byte(from))
	return i >= 0 && j >= 0 && bytes.Equal(a[i:], b[j:])
}

// LoadStop reads the session's Stop record; nil when there is none or it does not read. Its
// time is the later of the one written and the file's modification time (RecordStop moves it
// forward when a Stop said the same again).
func LoadStop(d state.Dir, id string) (*StopRecord, error) {
	path, err := StopPath(d, id)
	if err != nil {
		return nil, err
	}
	data, err := state.ReadFile(path, maxStopFile)
	if err != nil {
		return nil, err
	}
	r := &StopRecord{}
	if err := jsonscan.DecodeFields(data, r, stopFields[:]); err != nil {
		return nil, errors.New("zoneline: " + path + ": " + err.Error())
	}
	if fi, err := os.Lstat(path); err == nil && fi.ModTime().After(r.Time) {
		r.Time = fi.ModTime().UTC()
	}
	return r, nil
}

// inFlight assembles the in-flight record of a snapshot.
func inFlight(in Input, f transcript.Flight) *InFlight {
	out := &InFlight{Flight: f}
	if in.State == nil {
		return out
	}
	if r, err := LoadStop(*in.State, in.SessionID); err == nil {
		out.Stop = r // an empty one too: what Stop no longer lists has finished
	}
	es, _ := sessions.List(*in.State, sessions.Options{Now: in.Now})
	var self *sessions.Entry
	for i := range es {
		if es[i].ID == in.SessionID {
			self = &es[i]
		}
	}
	project := in.Cwd
	if self != nil {
		out.Pane = safetext.Clip(self.Pane, 40)
		if self.Project != "" {
			project = self.Project
		}
	}
	for _, e := range es {
		if e.ID == in.SessionID || !e.Live || project == "" || (e.Project != project && e.Cwd != project) {
			continue
		}
		if len(out.Peers) == MaxPeers {
			out.PeersDropped++
			continue
		}
		out.Peers = append(out.Peers, Peer{SessionID: e.ID, Pane: safetext.Clip(e.Pane, 40), Zone: safetext.Clip(e.Zone, 20),
			Cwd: safetext.Clip(e.Cwd, transcript.MaxFlightPath), Updated: e.Updated})
	}
	return out
}

// redact passes every free-text string of the record (commands, descriptions, subjects, cron
// prompts, paths) through the one redaction: a token typed into a background command must not
// come back in the restore.
func (in *InFlight) redact() {
	if in == nil {
		return
	}
	f := &in.Flight
	for i := range f.Background {
		b := &f.Background[i]
		b.Command, b.Description, b.Output = redact.String(b.Command), redact.String(b.Description), redact.String(b.Output)
	}
	for i := range f.Agents {
		a := &f.Agents[i]
		a.Description, a.Output = redact.String(a.Description), redact.String(a.Output)
	}
	for _, ts := range [][]transcript.Task{f.Todos, f.Tasks} {
		for i := range ts {
			ts[i].Subject = redact.String(ts[i].Subject)
		}
	}
	f.PlanFile = redact.String(f.PlanFile)
	if r := in.Stop; r != nil {
		r.MapStrings(redact.String)
	}
}
