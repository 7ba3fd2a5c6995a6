package payload

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

// InFlight is what Stop says is in flight.
type InFlight struct {
	Background        []BackgroundTask
	BackgroundDropped int
	Crons             []Cron
	CronsDropped      int
}

// Empty reports whether nothing is in flight.
func (f *InFlight) Empty() bool {
	return len(f.Background) == 0 && len(f.Crons) == 0 && f.BackgroundDropped == 0 && f.CronsDropped == 0
}

// The key tables of Stop's in-flight work (jsonscan.Field).
var (
	backgroundFields = [...]field[BackgroundTask]{
		{Key: "id", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.ID) }},
		{Key: "type", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Type) }},
		{Key: "status", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Status) }},
		{Key: "description", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Description) }},
		{Key: "command", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.Command) }},
		{Key: "agent_type", Read: func(s *scanner, t *BackgroundTask) error { return s.String(&t.AgentType) }},
	}
	cronFields = [...]field[Cron]{
		{Key: "id", Read: func(s *scanner, c *Cron) error { return s.String(&c.ID) }},
		{Key: "schedule", Read: func(s *scanner, c *Cron) error { return s.String(&c.Schedule) }},
		{Key: "recurring", Read: func(s *scanner, c *Cron) error { return s.Bool(&c.Recurring) }},
		{Key: "prompt", Read: func(s *scanner, c *Cron) error { return s.String(&c.Prompt) }},
	}
)
