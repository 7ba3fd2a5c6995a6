package payload

import "github.com/zoneline/zoneline/internal/jsonscan"

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

func decodeBackground(s *jsonscan.Scanner, f *InFlight) error {
	_, err := s.Array("background_tasks", func() error {
		var t BackgroundTask
		_, err := s.Object("background_tasks[]", func(k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "id"):
				return s.String("background_tasks[].id", &t.ID)
			case jsonscan.KeyIs(k, "type"):
				return s.String("background_tasks[].type", &t.Type)
			case jsonscan.KeyIs(k, "status"):
				return s.String("background_tasks[].status", &t.Status)
			case jsonscan.KeyIs(k, "description"):
				return s.String("background_tasks[].description", &t.Description)
			case jsonscan.KeyIs(k, "command"):
				return s.String("background_tasks[].command", &t.Command)
			case jsonscan.KeyIs(k, "agent_type"):
				return s.String("background_tasks[].agent_type", &t.AgentType)
			}
			return s.Skip()
		})
		if len(f.Background) < MaxInFlight {
			f.Background = append(f.Background, t)
		} else {
			f.BackgroundDropped++
		}
		return err
	})
	return err
}

func decodeCrons(s *jsonscan.Scanner, f *InFlight) error {
	_, err := s.Array("session_crons", func() error {
		var c Cron
		_, err := s.Object("session_crons[]", func(k []byte) error {
			switch {
			case jsonscan.KeyIs(k, "id"):
				return s.String("session_crons[].id", &c.ID)
			case jsonscan.KeyIs(k, "schedule"):
				return s.String("session_crons[].schedule", &c.Schedule)
			case jsonscan.KeyIs(k, "prompt"):
				return s.String("session_crons[].prompt", &c.Prompt)
			case jsonscan.KeyIs(k, "recurring"):
				var b *bool
				err := s.BoolPtr("session_crons[].recurring", &b)
				c.Recurring = b != nil && *b
				return err
			}
			return s.Skip()
		})
		if len(f.Crons) < MaxInFlight {
			f.Crons = append(f.Crons, c)
		} else {
			f.CronsDropped++
		}
		return err
	})
	return err
}
