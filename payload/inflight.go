package payload

import (
	"strconv"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// MaxInFlight is how many background tasks or crons of one Stop payload are kept; the rest are
// counted in BackgroundDropped and CronsDropped.
const MaxInFlight = 100

// BackgroundTask is one entry of Stop's background_tasks: in-flight background work (running,
// pending or moved to the background). Strings are as sent (Claude Code caps them at 1000
// characters); they are sanitized where they are shown.
type BackgroundTask struct {
	ID          string `json:"id"`
	Type        string `json:"type"` // shell, subagent, monitor, workflow, …
	Status      string `json:"status"`
	Description string `json:"description"`
	Command     string `json:"command,omitempty"`    // shell tasks
	AgentType   string `json:"agent_type,omitempty"` // subagent tasks
}

// Cron is one entry of Stop's session_crons: a scheduled wake-up of the session.
type Cron struct {
	ID        string `json:"id"`
	Schedule  string `json:"schedule"`
	Recurring bool   `json:"recurring"`
	Prompt    string `json:"prompt"`
}

// InFlight is what Stop says is in flight (Hook.InFlight); the Stop record
// (snapshot.StopRecord) keeps it under the keys of these tags.
type InFlight struct {
	Background        []BackgroundTask `json:"background"`
	BackgroundDropped int              `json:"background_dropped"`
	Crons             []Cron           `json:"crons"`
	CronsDropped      int              `json:"crons_dropped"`
}

// Empty reports whether nothing is in flight.
func (f *InFlight) Empty() bool {
	return len(f.Background) == 0 && len(f.Crons) == 0 && f.BackgroundDropped == 0 && f.CronsDropped == 0
}

// MapStrings passes every string of every entry through fn, in place (redaction, sanitizing).
func (f *InFlight) MapStrings(fn func(string) string) {
	for i := range f.Background {
		t := &f.Background[i]
		for _, s := range [...]*string{&t.ID, &t.Type, &t.Status, &t.Description, &t.Command, &t.AgentType} {
			*s = fn(*s)
		}
	}
	for i := range f.Crons {
		c := &f.Crons[i]
		for _, s := range [...]*string{&c.ID, &c.Schedule, &c.Prompt} {
			*s = fn(*s)
		}
	}
}

// BackgroundFields and CronFields are the key tables (jsonscan.Field) of Stop's in-flight
// entries: the payload's, read by Hook, and the Stop record's (snapshot.StopRecord), which
// writes every key, empty or not.
var (
	BackgroundFields = [...]field[BackgroundTask]{
		{Key: "id", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.ID) }, Write: func(b []byte, t *BackgroundTask) []byte { return jsonscan.AppendString(b, t.ID) }},
		{Key: "type", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Type) }, Write: func(b []byte, t *BackgroundTask) []byte { return jsonscan.AppendString(b, t.Type) }},
		{Key: "status", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Status) }, Write: func(b []byte, t *BackgroundTask) []byte { return jsonscan.AppendString(b, t.Status) }},
		{Key: "description", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Description) }, Write: func(b []byte, t *BackgroundTask) []byte { return jsonscan.AppendString(b, t.Description) }},
		{Key: "command", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Command) }, Write: func(b []byte, t *BackgroundTask) []byte { return jsonscan.AppendString(b, t.Command) }},
		{Key: "agent_type", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.AgentType) }, Write: func(b []byte, t *BackgroundTask) []byte { return jsonscan.AppendString(b, t.AgentType) }},
	}
	CronFields = [...]field[Cron]{
		{Key: "id", Read: func(s *scanner, c *Cron) error { return s.String(&c.ID) }, Write: func(b []byte, c *Cron) []byte { return jsonscan.AppendString(b, c.ID) }},
		{Key: "schedule", Read: func(s *scanner, c *Cron) error { return s.String(&c.Schedule) }, Write: func(b []byte, c *Cron) []byte { return jsonscan.AppendString(b, c.Schedule) }},
		{Key: "recurring", Read: func(s *scanner, c *Cron) error { return s.Bool(&c.Recurring) }, Write: func(b []byte, c *Cron) []byte { return strconv.AppendBool(b, c.Recurring) }},
		{Key: "prompt", Read: func(s *scanner, c *Cron) error { return s.String(&c.Prompt) }, Write: func(b []byte, c *Cron) []byte { return jsonscan.AppendString(b, c.Prompt) }},
	}
)
