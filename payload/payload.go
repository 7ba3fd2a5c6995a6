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
		if f := findField(k, statuslineFields[:]); f != nil {
			return f.read(s, &p)
		}
		return p.More.decode(s, k) // the extra segments' fields (more.go)
	})
	err, syntax := decodeErr(err)
	if syntax {
		return &Statusline{}, err
	}
	return &p, err
}

// The payloads' shapes, one key table per struct (the keys of the json tags, which the
// strict schema-drift test and FuzzScanMatchesEncodingJSON hold them to). Each entry reads its
// key's value; the name given to the reader is the field's path in a type error.
var (
	statuslineFields = [...]field[Statusline]{
		{"session_id", func(s *jsonscan.Scanner, p *Statusline) error { return s.String("session_id", &p.SessionID) }},
		{"transcript_path", func(s *jsonscan.Scanner, p *Statusline) error { return s.String("transcript_path", &p.TranscriptPath) }},
		{"cwd", func(s *jsonscan.Scanner, p *Statusline) error { return s.String("cwd", &p.Cwd) }},
		{"version", func(s *jsonscan.Scanner, p *Statusline) error { return s.String("version", &p.Version) }},
		{"exceeds_200k_tokens", func(s *jsonscan.Scanner, p *Statusline) error {
			return s.BoolPtr("exceeds_200k_tokens", &p.Exceeds200k)
		}},
		{"model", func(s *jsonscan.Scanner, p *Statusline) error {
			return readObject(s, "model", &p.Model, modelFields[:])
		}},
		{"workspace", func(s *jsonscan.Scanner, p *Statusline) error {
			return readObject(s, "workspace", &p.Workspace, workspaceFields[:])
		}},
		{"context_window", func(s *jsonscan.Scanner, p *Statusline) error {
			return readObject(s, "context_window", &p.ContextWindow, contextWindowFields[:])
		}},
	}
	modelFields = [...]field[Model]{
		{"id", func(s *jsonscan.Scanner, m *Model) error { return s.String("model.id", &m.ID) }},
		{"display_name", func(s *jsonscan.Scanner, m *Model) error { return s.String("model.display_name", &m.DisplayName) }},
	}
	workspaceFields = [...]field[Workspace]{
		{"current_dir", func(s *jsonscan.Scanner, w *Workspace) error { return s.String("workspace.current_dir", &w.CurrentDir) }},
		{"project_dir", func(s *jsonscan.Scanner, w *Workspace) error { return s.String("workspace.project_dir", &w.ProjectDir) }},
		{"git_worktree", func(s *jsonscan.Scanner, w *Workspace) error {
			return s.String("workspace.git_worktree", &w.GitWorktree)
		}},
		{"repo", func(s *jsonscan.Scanner, w *Workspace) error { return decodeRepo(s, &w.Repo) }},
	}
	contextWindowFields = [...]field[ContextWindow]{
		{"total_input_tokens", func(s *jsonscan.Scanner, c *ContextWindow) error { return num(s, &c.TotalInputTokens) }},
		{"total_output_tokens", func(s *jsonscan.Scanner, c *ContextWindow) error { return num(s, &c.TotalOutputTokens) }},
		{"context_window_size", func(s *jsonscan.Scanner, c *ContextWindow) error { return num(s, &c.Size) }},
		{"used_percentage", func(s *jsonscan.Scanner, c *ContextWindow) error { return numPtr(s, &c.UsedPct) }},
		{"current_usage", func(s *jsonscan.Scanner, c *ContextWindow) error {
			return readObject(s, "context_window.current_usage", &c.CurrentUsage, usageFields[:])
		}},
	}
	usageFields = [...]field[Usage]{
		{"input_tokens", func(s *jsonscan.Scanner, u *Usage) error { return num(s, &u.Input) }},
		{"output_tokens", func(s *jsonscan.Scanner, u *Usage) error { return num(s, &u.Output) }},
		{"cache_creation_input_tokens", func(s *jsonscan.Scanner, u *Usage) error { return num(s, &u.CacheCreation) }},
		{"cache_read_input_tokens", func(s *jsonscan.Scanner, u *Usage) error { return num(s, &u.CacheRead) }},
	}
	hookFields = [...]field[Hook]{
		{"session_id", func(s *jsonscan.Scanner, h *Hook) error { return s.String("session_id", &h.SessionID) }},
		{"transcript_path", func(s *jsonscan.Scanner, h *Hook) error { return s.String("transcript_path", &h.TranscriptPath) }},
		{"cwd", func(s *jsonscan.Scanner, h *Hook) error { return s.String("cwd", &h.Cwd) }},
		{"prompt_id", func(s *jsonscan.Scanner, h *Hook) error { return s.String("prompt_id", &h.PromptID) }},
		{"hook_event_name", func(s *jsonscan.Scanner, h *Hook) error { return s.String("hook_event_name", &h.Event) }},
		{"source", func(s *jsonscan.Scanner, h *Hook) error { return s.String("source", &h.Source) }},
		{"model", func(s *jsonscan.Scanner, h *Hook) error { return s.String("model", &h.Model) }},
		{"trigger", func(s *jsonscan.Scanner, h *Hook) error { return s.String("trigger", &h.Trigger) }},
		{"prompt", func(s *jsonscan.Scanner, h *Hook) error { return s.String("prompt", &h.Prompt) }},
		{"custom_instructions", func(s *jsonscan.Scanner, h *Hook) error {
			return s.StringPtr("custom_instructions", &h.CustomInstructions)
		}},
		{"compact_summary", func(s *jsonscan.Scanner, h *Hook) error { return s.String("compact_summary", &h.CompactSummary) }},
		{"reason", func(s *jsonscan.Scanner, h *Hook) error { return s.String("reason", &h.Reason) }},
		{"permission_mode", func(s *jsonscan.Scanner, h *Hook) error { return s.String("permission_mode", &h.PermissionMode) }},
		{"background_tasks", func(s *jsonscan.Scanner, h *Hook) error { return decodeBackground(s, &h.InFlight) }}, // Stop (inflight.go)
		{"session_crons", func(s *jsonscan.Scanner, h *Hook) error { return decodeCrons(s, &h.InFlight) }},
		{"last_assistant_message", func(s *jsonscan.Scanner, h *Hook) error {
			return s.String("last_assistant_message", &h.LastAssistantMessage)
		}},
	}
)

// DecodeHook decodes a hook payload, as leniently as DecodeStatusline.
func DecodeHook(data []byte) (*Hook, error) {
	var h Hook
	err := jsonscan.Decode(data, func(s *jsonscan.Scanner, k []byte) error {
		return readField(s, k, &h, hookFields[:])
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
