package payload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// statuslineSchema is every field Claude Code 2.1.332 sends to the statusLine command. Decoding
// the recorded payloads strictly into it makes a new Claude Code field a failing test, not a
// silent gap.
type statuslineSchema struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	PromptID       string `json:"prompt_id"`
	Effort         *struct {
		Level string `json:"level"`
	} `json:"effort"`
	Model struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	SessionName string `json:"session_name"`
	Workspace   struct {
		CurrentDir  string   `json:"current_dir"`
		ProjectDir  string   `json:"project_dir"`
		AddedDirs   []string `json:"added_dirs"`
		GitWorktree string   `json:"git_worktree"`
		Repo        *struct {
			Host  string `json:"host"`
			Owner string `json:"owner"`
			Name  string `json:"name"`
		} `json:"repo"`
	} `json:"workspace"`
	Version     string `json:"version"`
	OutputStyle struct {
		Name string `json:"name"`
	} `json:"output_style"`
	Cost struct {
		TotalCostUSD       float64 `json:"total_cost_usd"`
		TotalDurationMS    int64   `json:"total_duration_ms"`
		TotalAPIDurationMS int64   `json:"total_api_duration_ms"`
		TotalLinesAdded    int64   `json:"total_lines_added"`
		TotalLinesRemoved  int64   `json:"total_lines_removed"`
	} `json:"cost"`
	ContextWindow struct {
		TotalInputTokens  int64 `json:"total_input_tokens"`
		TotalOutputTokens int64 `json:"total_output_tokens"`
		ContextWindowSize int64 `json:"context_window_size"`
		CurrentUsage      *struct {
			InputTokens              int64 `json:"input_tokens"`
			OutputTokens             int64 `json:"output_tokens"`
			CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
			CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
		} `json:"current_usage"`
		UsedPercentage      *float64 `json:"used_percentage"`
		RemainingPercentage *float64 `json:"remaining_percentage"`
	} `json:"context_window"`
	Exceeds200k bool `json:"exceeds_200k_tokens"`
	PromptCache *struct {
		Warm              bool     `json:"warm"`
		CachingObserved   bool     `json:"caching_observed"`
		TTL               string   `json:"ttl"`
		ExpiresAt         *int64   `json:"expires_at"`
		Requests          int64    `json:"requests"`
		Misses            int64    `json:"misses"`
		ExpectedRebuilds  int64    `json:"expected_rebuilds"`
		HitRatio          *float64 `json:"hit_ratio"`
		CacheWriteTokens  int64    `json:"cache_write_tokens"`
		MissRecacheTokens int64    `json:"miss_recache_tokens"`
		LastMissAt        *int64   `json:"last_miss_at"`
		LastMissCause     *struct {
			Causes          []string `json:"causes"`
			ToolsAdded      int64    `json:"tools_added"`
			ToolsRemoved    int64    `json:"tools_removed"`
			SystemCharDelta int64    `json:"system_char_delta"`
		} `json:"last_miss_cause"`
		MissCauses          map[string]int64 `json:"miss_causes"`
		RecacheTokensIfCold *int64           `json:"recache_tokens_if_cold"`
	} `json:"prompt_cache"`
	FastMode bool `json:"fast_mode"`
	Thinking struct {
		Enabled bool `json:"enabled"`
	} `json:"thinking"`
	RateLimits *struct {
		FiveHour   *rateWindowSchema `json:"five_hour"`
		SevenDay   *rateWindowSchema `json:"seven_day"`
		SpendLimit *struct {
			UsedPercentage float64  `json:"used_percentage"`
			ResetsAt       int64    `json:"resets_at"`
			UsedUSD        *float64 `json:"used_usd"`
			LimitUSD       *float64 `json:"limit_usd"`
			Period         string   `json:"period"`
		} `json:"spend_limit"`
	} `json:"rate_limits"`
	Vim *struct {
		Mode string `json:"mode"`
	} `json:"vim"`
	Agent *struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"agent"`
	PR *struct {
		Number      int64  `json:"number"`
		URL         string `json:"url"`
		ReviewState string `json:"review_state"`
		Kind        string `json:"kind"`
	} `json:"pr"`
	Worktree *struct {
		Name           string `json:"name"`
		Path           string `json:"path"`
		Branch         string `json:"branch"`
		OriginalCwd    string `json:"original_cwd"`
		OriginalBranch string `json:"original_branch"`
	} `json:"worktree"`
}

type rateWindowSchema struct {
	UsedPercentage float64 `json:"used_percentage"`
	ResetsAt       int64   `json:"resets_at"`
}

// hookSchema is every field of every recorded hook payload.
type hookSchema struct {
	SessionID            string          `json:"session_id"`
	TranscriptPath       string          `json:"transcript_path"`
	Cwd                  string          `json:"cwd"`
	PromptID             string          `json:"prompt_id"`
	HookEventName        string          `json:"hook_event_name"`
	Source               string          `json:"source"`
	Model                string          `json:"model"`
	PermissionMode       string          `json:"permission_mode"`
	Prompt               string          `json:"prompt"`
	Trigger              string          `json:"trigger"`
	CustomInstructions   *string         `json:"custom_instructions"`
	CompactSummary       string          `json:"compact_summary"`
	Reason               string          `json:"reason"`
	Effort               json.RawMessage `json:"effort"`
	StopHookActive       bool            `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message"`
	BackgroundTasks      json.RawMessage `json:"background_tasks"`
	SessionCrons         json.RawMessage `json:"session_crons"`
	ToolName             string          `json:"tool_name"`
	ToolInput            json.RawMessage `json:"tool_input"`
	ToolUseID            string          `json:"tool_use_id"`
	ToolResponse         json.RawMessage `json:"tool_response"`
	DurationMS           json.RawMessage `json:"duration_ms"`
}

func fixtures(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "claude-code", "*", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures %s: %v", pattern, err)
	}
	return files
}

func strict(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s: schema drift: %v (update the schema and the decoder)", filepath.Base(file), err)
	}
}

func TestSchemaDrift(t *testing.T) {
	for _, f := range fixtures(t, "statusline-*.json") {
		strict(t, f, new(statuslineSchema))
	}
	for _, f := range fixtures(t, "hook-*.json") {
		strict(t, f, new(hookSchema))
	}
}

func TestRecordedStatuslines(t *testing.T) {
	for _, f := range fixtures(t, "statusline-*.json") {
		data, _ := os.ReadFile(f)
		p, err := DecodeStatusline(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var s statuslineSchema
		json.Unmarshal(data, &s)
		tokens, ok := p.Tokens()
		switch {
		case s.ContextWindow.CurrentUsage == nil:
			if ok {
				t.Errorf("%s: current_usage null must not count as known", f)
			}
		case s.ContextWindow.TotalInputTokens == 0:
			if ok {
				t.Errorf("%s: all-zero usage (after /compact) must not count as known", f)
			}
		default:
			// total_input_tokens was the current context in 2.1.332.
			if !ok || tokens != s.ContextWindow.TotalInputTokens {
				t.Errorf("%s: tokens %d, %v; want %d", f, tokens, ok, s.ContextWindow.TotalInputTokens)
			}
		}
		if int64(p.ContextWindow.Size) != s.ContextWindow.ContextWindowSize || p.ModelID() != s.Model.ID || p.Dir() != s.Workspace.ProjectDir {
			t.Errorf("%s: decoded %+v", f, p)
		}
	}
}

func TestLenient(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantErr  bool
		tokens   int64
		known    bool
		modelID  string
		sessonID string
	}{
		{"empty", "", true, 0, false, "", ""},
		{"whitespace", " \n\t ", true, 0, false, "", ""},
		{"null", "null", true, 0, false, "", ""},
		{"array", `[{"session_id":"x"}]`, true, 0, false, "", ""},
		{"not json", "hello", true, 0, false, "", ""},
		{"truncated", `{"model":{"id":"m"`, true, 0, false, "", ""},
		{"numbers as strings", `{"context_window":{"current_usage":{"input_tokens":"1000","cache_read_input_tokens":"2000"}}}`, false, 3000, true, "", ""},
		{"negative", `{"context_window":{"current_usage":{"input_tokens":-5000,"cache_read_input_tokens":7000}}}`, false, 7000, true, "", ""},
		{"huge", `{"context_window":{"current_usage":{"input_tokens":1e308}}}`, false, MaxTokens, true, "", ""},
		{"fraction", `{"context_window":{"current_usage":{"input_tokens":1500.7}}}`, false, 1500, true, "", ""},
		{"object as number", `{"context_window":{"current_usage":{"input_tokens":{},"cache_read_input_tokens":10}}}`, false, 10, true, "", ""},
		{"model as string keeps the rest", `{"session_id":"s","model":"claude-opus","context_window":{"current_usage":{"input_tokens":10}}}`, true, 10, true, "", "s"},
		{"unknown fields", `{"new_field":{"deep":[1,2,3]},"model":{"id":"m","extra":1}}`, false, 0, false, "m", ""},
		{"invalid utf-8", "{\"model\":{\"id\":\"m\xff\xfe\"}}", false, 0, false, "m\ufffd\ufffd", ""},
		{"lone surrogate", `{"model":{"id":"m\ud800"}}`, false, 0, false, "m\ufffd", ""},
		{"deep nesting", `{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, true, 0, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := DecodeStatusline([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if p == nil {
				t.Fatal("nil payload")
			}
			tokens, known := p.Tokens()
			if tokens != tt.tokens || known != tt.known || p.ModelID() != tt.modelID || p.SessionID != tt.sessonID {
				t.Fatalf("tokens %d %v model %q session %q; want %d %v %q %q", tokens, known, p.ModelID(), p.SessionID, tt.tokens, tt.known, tt.modelID, tt.sessonID)
			}
		})
	}
}

func TestReadLimit(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 50<<20)
	data, err := Read(bytes.NewReader(big))
	if err != ErrTooLarge || len(data) != MaxInput {
		t.Fatalf("Read(50 MB) = %d bytes, %v; want %d, ErrTooLarge", len(data), err, MaxInput)
	}
	data, err = Read(strings.NewReader(`{"a":1}`))
	if err != nil || string(data) != `{"a":1}` {
		t.Fatalf("Read = %q, %v", data, err)
	}
}

func TestHooks(t *testing.T) {
	for _, f := range fixtures(t, "hook-*.json") {
		data, _ := os.ReadFile(f)
		h, err := DecodeHook(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if h.Event == "" || h.SessionID == "" || !strings.Contains(filepath.Base(f), h.Event) {
			t.Errorf("%s: event %q session %q", f, h.Event, h.SessionID)
		}
	}
}

func FuzzDecodeStatusline(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "claude-code", "*", "statusline-*.json"))
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	f.Add([]byte(`{"context_window":{"current_usage":{"input_tokens":"-1e400"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _ := DecodeStatusline(data)
		if p == nil {
			t.Fatal("nil payload")
		}
		if n, _ := p.Tokens(); n < 0 || n > MaxTokens {
			t.Fatalf("tokens %d out of range", n)
		}
		h, _ := DecodeHook(data)
		if h == nil {
			t.Fatal("nil hook")
		}
	})
}

// TestStopInFlight decodes Stop's background_tasks and session_crons: the recorded (empty) ones
// and a full one with the fields the CLI documents; more than MaxInFlight are counted.
func TestStopInFlight(t *testing.T) {
	for _, f := range fixtures(t, "hook-*-Stop-*.json") {
		data, _ := os.ReadFile(f)
		h, err := DecodeHook(data)
		if err != nil || !h.InFlight.Empty() {
			t.Errorf("%s: %+v %v", f, h.InFlight, err)
		}
	}
	h, err := DecodeHook([]byte(`{"hook_event_name":"Stop","background_tasks":[{"id":"b1","type":"shell","status":"running","description":"d","command":"sleep 9"},{"id":"a1","type":"subagent","status":"pending","description":"e","agent_type":"Explore","server":"x"}],"session_crons":[{"id":"c1","schedule":"0 9 * * 1-5","recurring":true,"prompt":"p"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := InFlight{Background: []BackgroundTask{{ID: "b1", Type: "shell", Status: "running", Description: "d", Command: "sleep 9"}, {ID: "a1", Type: "subagent", Status: "pending", Description: "e", AgentType: "Explore"}},
		Crons: []Cron{{ID: "c1", Schedule: "0 9 * * 1-5", Recurring: true, Prompt: "p"}}}
	if fmt.Sprint(h.InFlight) != fmt.Sprint(want) {
		t.Errorf("in flight = %+v, want %+v", h.InFlight, want)
	}
	big := `{"hook_event_name":"Stop","background_tasks":[` + strings.Repeat(`{"id":"x"},`, MaxInFlight+4) + `{"id":"y"}]}`
	h, _ = DecodeHook([]byte(big))
	if len(h.InFlight.Background) != MaxInFlight || h.InFlight.BackgroundDropped != 5 {
		t.Errorf("%d kept, %d dropped", len(h.InFlight.Background), h.InFlight.BackgroundDropped)
	}
}
