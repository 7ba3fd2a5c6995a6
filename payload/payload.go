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
	Extras                       // the fields the extra segments read (extras.go)
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
	buf, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return buf, fmt.Errorf("zoneline: reading stdin: %w", err)
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
	err, syntax := decodeErr(jsonscan.DecodeFields(data, &p, statuslineFields[:]))
	if syntax {
		return &Statusline{}, err
	}
	return &p, err
}

// DecodeHook decodes a hook payload, as leniently as DecodeStatusline.
func DecodeHook(data []byte) (*Hook, error) {
	var h Hook
	err, syntax := decodeErr(jsonscan.DecodeFields(data, &h, hookFields[:]))
	if syntax {
		return &Hook{}, err
	}
	return &h, err
}

// The payloads' key tables (scan.go).
var (
	statuslineFields = [...]field[Statusline]{
		{Key: "session_id", Read: func(s *scanner, p *Statusline) error { return s.String(&p.SessionID) }},
		{Key: "transcript_path", Read: func(s *scanner, p *Statusline) error { return s.String(&p.TranscriptPath) }},
		{Key: "cwd", Read: func(s *scanner, p *Statusline) error { return s.String(&p.Cwd) }},
		{Key: "version", Read: func(s *scanner, p *Statusline) error { return s.String(&p.Version) }},
		{Key: "exceeds_200k_tokens", Read: func(s *scanner, p *Statusline) error { return s.BoolPtr(&p.Exceeds200k) }},
		{Key: "model", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Model, modelFields[:]) }},
		{Key: "workspace", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Workspace, workspaceFields[:]) }},
		{Key: "context_window", Read: func(s *scanner, p *Statusline) error {
			return jsonscan.ReadPtr(s, &p.ContextWindow, contextWindowFields[:])
		}},
		// the extra segments' fields (Statusline.Extras, extras.go)
		{Key: "session_name", Read: func(s *scanner, p *Statusline) error { return s.String(&p.SessionName) }},
		{Key: "fast_mode", Read: func(s *scanner, p *Statusline) error { return s.BoolPtr(&p.FastMode) }},
		{Key: "output_style", Read: func(s *scanner, p *Statusline) error {
			return jsonscan.ReadPtr(s, &p.OutputStyle, outputStyleFields[:])
		}},
		{Key: "cost", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Cost, costFields[:]) }},
		{Key: "effort", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Effort, effortFields[:]) }},
		{Key: "thinking", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Thinking, thinkingFields[:]) }},
		{Key: "rate_limits", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.RateLimits, rateLimitsFields[:]) }},
		{Key: "prompt_cache", Read: func(s *scanner, p *Statusline) error {
			return jsonscan.ReadPtr(s, &p.PromptCache, promptCacheFields[:])
		}},
		{Key: "vim", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Vim, vimFields[:]) }},
		{Key: "agent", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Agent, agentFields[:]) }},
		{Key: "pr", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.PR, prFields[:]) }},
		{Key: "worktree", Read: func(s *scanner, p *Statusline) error { return jsonscan.ReadPtr(s, &p.Worktree, worktreeFields[:]) }},
	}
	modelFields = [...]field[Model]{
		{Key: "id", Read: func(s *scanner, m *Model) error { return s.String(&m.ID) }},
		{Key: "display_name", Read: func(s *scanner, m *Model) error { return s.String(&m.DisplayName) }},
	}
	workspaceFields = [...]field[Workspace]{
		{Key: "current_dir", Read: func(s *scanner, w *Workspace) error { return s.String(&w.CurrentDir) }},
		{Key: "project_dir", Read: func(s *scanner, w *Workspace) error { return s.String(&w.ProjectDir) }},
		{Key: "git_worktree", Read: func(s *scanner, w *Workspace) error { return s.String(&w.GitWorktree) }},
		{Key: "repo", Read: func(s *scanner, w *Workspace) error { return jsonscan.ReadPtr(s, &w.Repo, repoFields[:]) }},
	}
	contextWindowFields = [...]field[ContextWindow]{
		{Key: "total_input_tokens", Read: func(s *scanner, c *ContextWindow) error { return num(s, &c.TotalInputTokens) }},
		{Key: "total_output_tokens", Read: func(s *scanner, c *ContextWindow) error { return num(s, &c.TotalOutputTokens) }},
		{Key: "context_window_size", Read: func(s *scanner, c *ContextWindow) error { return num(s, &c.Size) }},
		{Key: "used_percentage", Read: func(s *scanner, c *ContextWindow) error { return numPtr(s, &c.UsedPct) }},
		{Key: "current_usage", Read: func(s *scanner, c *ContextWindow) error {
			return jsonscan.ReadPtr(s, &c.CurrentUsage, usageFields[:])
		}},
	}
	usageFields = [...]field[Usage]{
		{Key: "input_tokens", Read: func(s *scanner, u *Usage) error { return num(s, &u.Input) }},
		{Key: "output_tokens", Read: func(s *scanner, u *Usage) error { return num(s, &u.Output) }},
		{Key: "cache_creation_input_tokens", Read: func(s *scanner, u *Usage) error { return num(s, &u.CacheCreation) }},
		{Key: "cache_read_input_tokens", Read: func(s *scanner, u *Usage) error { return num(s, &u.CacheRead) }},
	}
	hookFields = [...]field[Hook]{
		{Key: "session_id", Read: func(s *scanner, h *Hook) error { return s.String(&h.SessionID) }},
		{Key: "transcript_path", Read: func(s *scanner, h *Hook) error { return s.String(&h.TranscriptPath) }},
		{Key: "cwd", Read: func(s *scanner, h *Hook) error { return s.String(&h.Cwd) }},
		{Key: "prompt_id", Read: func(s *scanner, h *Hook) error { return s.String(&h.PromptID) }},
		{Key: "hook_event_name", Read: func(s *scanner, h *Hook) error { return s.String(&h.Event) }},
		{Key: "source", Read: func(s *scanner, h *Hook) error { return s.String(&h.Source) }},
		{Key: "model", Read: func(s *scanner, h *Hook) error { return s.String(&h.Model) }},
		{Key: "trigger", Read: func(s *scanner, h *Hook) error { return s.String(&h.Trigger) }},
		{Key: "prompt", Read: func(s *scanner, h *Hook) error { return s.String(&h.Prompt) }},
		{Key: "custom_instructions", Read: func(s *scanner, h *Hook) error { return s.StringPtr(&h.CustomInstructions) }},
		{Key: "compact_summary", Read: func(s *scanner, h *Hook) error { return s.String(&h.CompactSummary) }},
		{Key: "reason", Read: func(s *scanner, h *Hook) error { return s.String(&h.Reason) }},
		{Key: "permission_mode", Read: func(s *scanner, h *Hook) error { return s.String(&h.PermissionMode) }},
		{Key: "background_tasks", Read: func(s *scanner, h *Hook) error { // Stop (inflight.go)
			f := &h.InFlight
			return jsonscan.ReadList(s, &f.Background, MaxInFlight, &f.BackgroundDropped, BackgroundFields[:])
		}},
		{Key: "session_crons", Read: func(s *scanner, h *Hook) error {
			return jsonscan.ReadList(s, &h.InFlight.Crons, MaxInFlight, &h.InFlight.CronsDropped, CronFields[:])
		}},
		{Key: "last_assistant_message", Read: func(s *scanner, h *Hook) error { return s.String(&h.LastAssistantMessage) }},
	}
)

// Num is a lenient token count: a JSON number (fractions dropped, negatives as 0, huge values
// capped at MaxTokens), a string holding one, or null (0).
type Num int64

// MaxTokens caps any token count read from outside (1 << 40, far beyond any window).
const MaxTokens = 1 << 40

// UnmarshalJSON implements json.Unmarshaler. It never fails: a value that is no count is 0.
func (n *Num) UnmarshalJSON(b []byte) error {
	*n = parseNum(b)
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
