// Package payload decodes the JSON that Claude Code writes to the statusLine command and to hook
// commands. Decoding is lenient: unknown fields are ignored, optional fields are pointers, numbers
// may arrive as strings or out of range, and a field of the wrong type loses only that field.
package payload

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/zoneline/zoneline/internal/jsonscan"
)

// MaxInput is the most stdin that is read; a larger payload is cut and reported.
const MaxInput = 1 << 20

// Statusline is the statusLine command's stdin (Claude Code 2.1.332, CLAUDE-CODE.md section 1).
type Statusline struct {
	SessionID      string     `json:"session_id"`
	TranscriptPath string     `json:"transcript_path"`
	Cwd            string     `json:"cwd"`
	Model          *Model     `json:"model"`     // nil when absent
	Workspace      *Workspace `json:"workspace"` // nil when absent
	Version        string     `json:"version"`
	// ContextWindow is nil with older Claude Code versions, which do not send it.
	ContextWindow *ContextWindow `json:"context_window"`
	Exceeds200k   *bool          `json:"exceeds_200k_tokens"` // nil when absent
	More                         // the fields the extra segments read (more.go)
}

// Model names the session's model.
type Model struct {
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
}

// Workspace holds the session's directories.
type Workspace struct {
	CurrentDir  string `json:"current_dir"`
	ProjectDir  string `json:"project_dir"`
	GitWorktree string `json:"git_worktree"` // "" unless cwd is in a linked worktree
	Repo        *Repo  `json:"repo"`         // nil when there is no origin remote
}

// ContextWindow is the statusline's view of the context.
type ContextWindow struct {
	TotalInputTokens  Num `json:"total_input_tokens"`
	TotalOutputTokens Num `json:"total_output_tokens"`
	Size              Num `json:"context_window_size"` // 0 when absent
	// CurrentUsage is nil before the first reply, and all zeros right after /compact.
	CurrentUsage *Usage `json:"current_usage"`
	UsedPct      *Num   `json:"used_percentage"` // nil before the first reply
}

// Usage is one response's token usage.
type Usage struct {
	Input         Num `json:"input_tokens"`
	Output        Num `json:"output_tokens"`
	CacheCreation Num `json:"cache_creation_input_tokens"`
	CacheRead     Num `json:"cache_read_input_tokens"`
}

// Context returns the context tokens of a usage: input + cache creation + cache read.
func (u Usage) Context() int64 {
	return clampAdd(int64(u.Input), int64(u.CacheCreation), int64(u.CacheRead))
}

// IsZero reports whether every count is zero (as Claude Code sends right after /compact).
func (u Usage) IsZero() bool {
	return u.Input == 0 && u.Output == 0 && u.CacheCreation == 0 && u.CacheRead == 0
}

// Tokens returns the context tokens the payload reports and whether it reports a usable count:
// false before the first reply (current_usage null), right after /compact (all zeros), and when
// context_window is absent. The caller then falls back to the transcript.
func (s *Statusline) Tokens() (int64, bool) {
	if s.ContextWindow == nil || s.ContextWindow.CurrentUsage == nil || s.ContextWindow.CurrentUsage.IsZero() {
		return 0, false
	}
	return s.ContextWindow.CurrentUsage.Context(), true
}

// ModelID returns the model id, or "" when absent.
func (s *Statusline) ModelID() string {
	if s.Model == nil {
		return ""
	}
	return s.Model.ID
}

// Dir returns the session's project directory: workspace.project_dir, else current_dir, else cwd.
func (s *Statusline) Dir() string {
	if s.Workspace != nil {
		if s.Workspace.ProjectDir != "" {
			return s.Workspace.ProjectDir
		}
		if s.Workspace.CurrentDir != "" {
			return s.Workspace.CurrentDir
		}
	}
	return s.Cwd
}

// Hook is every hook command's stdin; fields not sent by an event are empty.
type Hook struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PromptID       string `json:"prompt_id"`
	Event          string `json:"hook_event_name"`
	Source         string `json:"source"`  // SessionStart: startup, resume, clear, compact
	Model          string `json:"model"`   // SessionStart
	Trigger        string `json:"trigger"` // PreCompact, PostCompact: manual or auto
	Prompt         string `json:"prompt"`  // UserPromptSubmit
	// CustomInstructions is nil for /compact without arguments and for auto-compaction.
	CustomInstructions *string `json:"custom_instructions"`
	CompactSummary     string  `json:"compact_summary"` // PostCompact
	Reason             string  `json:"reason"`          // SessionEnd
	PermissionMode     string  `json:"permission_mode"`
	// InFlight is Stop's background_tasks and session_crons (inflight.go); empty for other events.
	InFlight InFlight `json:"-"`
	// LastAssistantMessage is Stop's: the text of the turn's last reply ("" when none).
	LastAssistantMessage string `json:"last_assistant_message"`
}

// ErrTooLarge reports a payload larger than MaxInput.
var ErrTooLarge = errors.New("zoneline: payload larger than 1 MiB, cut")

// Read reads at most MaxInput bytes of r. It returns ErrTooLarge with the first MaxInput bytes
// when there is more.
func Read(r io.Reader) ([]byte, error) {
	buf := make([]byte, 0, 4096)
	lr := &io.LimitedReader{R: r, N: MaxInput + 1}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf, fmt.Errorf("zoneline: reading stdin: %w", err)
		}
	}
	if len(buf) > MaxInput {
		return buf[:MaxInput], ErrTooLarge
	}
	return buf, nil
}

// Complete reports whether data holds one whole JSON object (and nothing else but spaces): the
// payload has arrived, whether or not its writer closes stdin.
func Complete(data []byte) bool {
	err := jsonscan.Decode(data, func(s *jsonscan.Scanner, _ []byte) error { return s.Skip() })
	return err == nil
}

// DecodeStatusline decodes a statusline payload. On a type mismatch in one field it still
// returns everything else it could decode, with the error; on input that is not one valid JSON
// object it returns an empty payload and the error.
func DecodeStatusline(data []byte) (*Statusline, error) {
	var p Statusline
	err := jsonscan.Decode(data, func(s *jsonscan.Scanner, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "session_id"):
			return s.String("session_id", &p.SessionID)
		case jsonscan.KeyIs(k, "transcript_path"):
			return s.String("transcript_path", &p.TranscriptPath)
		case jsonscan.KeyIs(k, "cwd"):
			return s.String("cwd", &p.Cwd)
		case jsonscan.KeyIs(k, "version"):
			return s.String("version", &p.Version)
		case jsonscan.KeyIs(k, "exceeds_200k_tokens"):
			return s.BoolPtr("exceeds_200k_tokens", &p.Exceeds200k)
		case jsonscan.KeyIs(k, "model"):
			m := p.Model
			if m == nil {
				m = new(Model)
			}
			ok, err := s.Object("model", func(k []byte) error {
				switch {
				case jsonscan.KeyIs(k, "id"):
					return s.String("model.id", &m.ID)
				case jsonscan.KeyIs(k, "display_name"):
					return s.String("model.display_name", &m.DisplayName)
				}
				return s.Skip()
			})
			p.Model = ptrIf(ok, m, p.Model)
			return err
		case jsonscan.KeyIs(k, "workspace"):
			w := p.Workspace
			if w == nil {
				w = new(Workspace)
			}
			ok, err := s.Object("workspace", func(k []byte) error {
				switch {
				case jsonscan.KeyIs(k, "current_dir"):
					return s.String("workspace.current_dir", &w.CurrentDir)
				case jsonscan.KeyIs(k, "project_dir"):
					return s.String("workspace.project_dir", &w.ProjectDir)
				case jsonscan.KeyIs(k, "git_worktree"):
					return s.String("workspace.git_worktree", &w.GitWorktree)
				case jsonscan.KeyIs(k, "repo"):
					return decodeRepo(s, &w.Repo)
				}
				return s.Skip()
			})
			p.Workspace = ptrIf(ok, w, p.Workspace)
			return err
		case jsonscan.KeyIs(k, "context_window"):
			cw := p.ContextWindow
			if cw == nil {
				cw = new(ContextWindow)
			}
			ok, err := s.Object("context_window", func(k []byte) error {
				switch {
				case jsonscan.KeyIs(k, "total_input_tokens"):
					return num(s, &cw.TotalInputTokens)
				case jsonscan.KeyIs(k, "total_output_tokens"):
					return num(s, &cw.TotalOutputTokens)
				case jsonscan.KeyIs(k, "context_window_size"):
					return num(s, &cw.Size)
				case jsonscan.KeyIs(k, "used_percentage"):
					return numPtr(s, &cw.UsedPct)
				case jsonscan.KeyIs(k, "current_usage"):
					u := cw.CurrentUsage
					if u == nil {
						u = new(Usage)
					}
					ok, err := s.Object("context_window.current_usage", func(k []byte) error {
						switch {
						case jsonscan.KeyIs(k, "input_tokens"):
							return num(s, &u.Input)
						case jsonscan.KeyIs(k, "output_tokens"):
							return num(s, &u.Output)
						case jsonscan.KeyIs(k, "cache_creation_input_tokens"):
							return num(s, &u.CacheCreation)
						case jsonscan.KeyIs(k, "cache_read_input_tokens"):
							return num(s, &u.CacheRead)
						}
						return s.Skip()
					})
					cw.CurrentUsage = ptrIf(ok, u, cw.CurrentUsage)
					return err
				}
				return s.Skip()
			})
			p.ContextWindow = ptrIf(ok, cw, p.ContextWindow)
			return err
		}
		return p.More.decode(s, k)
	})
	err, syntax := decodeErr(err)
	if syntax {
		return &Statusline{}, err
	}
	return &p, err
}

// DecodeHook decodes a hook payload, as leniently as DecodeStatusline.
func DecodeHook(data []byte) (*Hook, error) {
	var h Hook
	strs := []struct {
		key string
		dst *string
	}{
		{"session_id", &h.SessionID}, {"transcript_path", &h.TranscriptPath}, {"cwd", &h.Cwd},
		{"prompt_id", &h.PromptID}, {"hook_event_name", &h.Event}, {"source", &h.Source},
		{"model", &h.Model}, {"trigger", &h.Trigger}, {"prompt", &h.Prompt},
		{"compact_summary", &h.CompactSummary}, {"reason", &h.Reason}, {"permission_mode", &h.PermissionMode},
		{"last_assistant_message", &h.LastAssistantMessage},
	}
	err := jsonscan.Decode(data, func(s *jsonscan.Scanner, k []byte) error {
		switch {
		case jsonscan.KeyIs(k, "custom_instructions"):
			return s.StringPtr("custom_instructions", &h.CustomInstructions)
		case jsonscan.KeyIs(k, "background_tasks"):
			return decodeBackground(s, &h.InFlight)
		case jsonscan.KeyIs(k, "session_crons"):
			return decodeCrons(s, &h.InFlight)
		}
		for _, f := range strs {
			if jsonscan.KeyIs(k, f.key) {
				return s.String(f.key, f.dst)
			}
		}
		return s.Skip()
	})
	err, syntax := decodeErr(err)
	if syntax {
		return &Hook{}, err
	}
	return &h, err
}

// Num is a lenient token count: a JSON number (fractions dropped, negatives as 0, huge values
// capped at MaxTokens), a string holding one, or null (0).
type Num int64

// MaxTokens caps any token count read from outside (1 << 40, far beyond any window).
const MaxTokens = 1 << 40

// UnmarshalJSON implements json.Unmarshaler. It never fails: a value that is no count is 0.
func (n *Num) UnmarshalJSON(b []byte) error {
	*n = Num(parseNum(b))
	return nil
}

func clampFloat(f float64) int64 {
	switch {
	case math.IsNaN(f), f <= 0:
		return 0
	case f >= MaxTokens:
		return MaxTokens
	}
	return int64(f)
}

func clampAdd(vs ...int64) int64 {
	var sum int64
	for _, v := range vs {
		sum += max(0, min(v, MaxTokens))
	}
	return min(sum, MaxTokens)
}
