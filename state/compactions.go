package state

import (
	"errors"
	"math"
	"os"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// Compactions is a session's compaction state (CompactionsName), which drives the once-only
// restore: the hook package updates it under its lock, the checkpoint's freshness reads its
// records. It is read and written here, once, through one key table.
type Compactions struct {
	Count           int                `json:"count"`                         // compactions recorded by PostCompact
	Delivered       int                `json:"delivered"`                     // the highest compaction whose restore was delivered
	DeliveredPrompt string             `json:"delivered_prompt_id,omitempty"` // the prompt_id SessionStart delivered for
	Pending         int                `json:"pending"`                       // the compaction UserPromptSubmit must restore; 0 = none
	HeldFor         int                `json:"held_for,omitempty"`            // the compaction hold_once blocked (once)
	HeldAt          time.Time          `json:"held_at,omitzero"`
	Records         []CompactionRecord `json:"records"`
}

// CompactionRecord is one compaction, as PostCompact saw it.
type CompactionRecord struct {
	N            int       `json:"n"`
	Time         time.Time `json:"time"`
	Trigger      string    `json:"trigger"`
	SummaryChars int       `json:"summary_chars"`
	PromptID     string    `json:"prompt_id,omitempty"`
	Restore      string    `json:"restore,omitempty"` // "session_start", "user_prompt" or "" (pending / nothing)
	Resume       string    `json:"resume,omitempty"`  // the resume check's verdict (hook.OnPlan, hook.OffPlan) or "" (none)
}

// maxCount bounds a count read from the file.
const maxCount = 1<<31 - 1

var (
	compactionsFields = [...]jsonscan.Field[Compactions]{
		{Key: "count", Read: func(s *scanner, c *Compactions) error { return s.Count(&c.Count, maxCount) }, Write: func(b []byte, c *Compactions) []byte { return jsonscan.AppendInt(b, int64(c.Count), false) }},
		{Key: "delivered", Read: func(s *scanner, c *Compactions) error { return s.Count(&c.Delivered, maxCount) }, Write: func(b []byte, c *Compactions) []byte {
			return jsonscan.AppendInt(b, int64(c.Delivered), false)
		}},
		{Key: "delivered_prompt_id", Read: func(s *scanner, c *Compactions) error { return s.String(&c.DeliveredPrompt) }, Write: func(b []byte, c *Compactions) []byte { return str(b, c.DeliveredPrompt, true) }},
		{Key: "pending", Read: func(s *scanner, c *Compactions) error { return s.Count(&c.Pending, maxCount) }, Write: func(b []byte, c *Compactions) []byte { return jsonscan.AppendInt(b, int64(c.Pending), false) }},
		{Key: "held_for", Read: func(s *scanner, c *Compactions) error { return s.Count(&c.HeldFor, maxCount) }, Write: func(b []byte, c *Compactions) []byte { return jsonscan.AppendInt(b, int64(c.HeldFor), true) }},
		{Key: "held_at", Read: func(s *scanner, c *Compactions) error { return s.Time(&c.HeldAt) }, Write: func(b []byte, c *Compactions) []byte {
			if c.HeldAt.IsZero() {
				return b
			}
			return jsonscan.AppendTime(b, c.HeldAt)
		}},
		{Key: "records", Read: func(s *scanner, c *Compactions) error {
			c.Records = c.Records[:0]
			return jsonscan.ReadList(s, &c.Records, math.MaxInt, nil, compactionRecordFields[:])
		}, Write: func(b []byte, c *Compactions) []byte {
			return jsonscan.AppendList(b, c.Records, compactionRecordFields[:])
		}},
	}
	compactionRecordFields = [...]jsonscan.Field[CompactionRecord]{
		{Key: "n", Read: func(s *scanner, r *CompactionRecord) error { return s.Count(&r.N, maxCount) }, Write: func(b []byte, r *CompactionRecord) []byte { return jsonscan.AppendInt(b, int64(r.N), false) }},
		{Key: "time", Read: func(s *scanner, r *CompactionRecord) error { return s.Time(&r.Time) }, Write: func(b []byte, r *CompactionRecord) []byte { return jsonscan.AppendTime(b, r.Time) }},
		{Key: "trigger", Read: func(s *scanner, r *CompactionRecord) error { return s.String(&r.Trigger) }, Write: func(b []byte, r *CompactionRecord) []byte { return str(b, r.Trigger, false) }},
		{Key: "summary_chars", Read: func(s *scanner, r *CompactionRecord) error { return s.Count(&r.SummaryChars, maxCount) }, Write: func(b []byte, r *CompactionRecord) []byte {
			return jsonscan.AppendInt(b, int64(r.SummaryChars), false)
		}},
		{Key: "prompt_id", Read: func(s *scanner, r *CompactionRecord) error { return s.String(&r.PromptID) }, Write: func(b []byte, r *CompactionRecord) []byte { return str(b, r.PromptID, true) }},
		{Key: "restore", Read: func(s *scanner, r *CompactionRecord) error { return s.String(&r.Restore) }, Write: func(b []byte, r *CompactionRecord) []byte { return str(b, r.Restore, true) }},
		{Key: "resume", Read: func(s *scanner, r *CompactionRecord) error { return s.String(&r.Resume) }, Write: func(b []byte, r *CompactionRecord) []byte { return str(b, r.Resume, true) }},
	}
)

// maxCompactionsFile is the largest compactions.json read.
const maxCompactionsFile = 256 << 10

// LoadCompactions reads the session's compaction state (CompactionsName); a missing file is a
// zero state. With a decode error it returns what was read (all but the field, for a
// *jsonscan.TypeError).
func (d Dir) LoadCompactions(id string) (*Compactions, error) {
	cs := &Compactions{}
	path, err := d.SessionFile(id, CompactionsName)
	if err != nil {
		return cs, err
	}
	data, err := ReadPrivate(path, maxCompactionsFile)
	if errors.Is(err, os.ErrNotExist) {
		return cs, nil
	}
	if err != nil {
		return cs, err
	}
	return cs, cs.Decode(data)
}

// Decode reads a compaction state; a field of the wrong type is lost alone (a *jsonscan.TypeError
// with everything else read).
func (c *Compactions) Decode(data []byte) error {
	return jsonscan.DecodeFields(data, c, compactionsFields[:])
}

// AppendJSON appends the state as indented JSON (its records one line each).
func (c *Compactions) AppendJSON(b []byte) []byte {
	return append(jsonscan.AppendObject(b, c, compactionsFields[:], "  "), '\n')
}

// Record returns the record of compaction n, or nil.
func (c *Compactions) Record(n int) *CompactionRecord {
	for i := range c.Records {
		if c.Records[i].N == n {
			return &c.Records[i]
		}
	}
	return nil
}
