package pipeline

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/zoneline/zoneline/config"
)

// TestRenderWindowFromTokens: without context_window (Claude Code before 2.1.x), the window is
// the zones rule's: an unknown id whose transcript holds 554k is not shown against 200k (the
// tokens prove a larger window, as tune concludes), and an id of a known family gets its
// family's window.
func TestRenderWindowFromTokens(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		model  string
		tokens int64
		size   int64
		want   int64
	}{
		{"claude-mystery-9", 554_000, 0, 1_000_000},
		{"claude-mystery-9", 150_000, 0, 200_000},
		{"claude-opus-5", 30_000, 0, 1_000_000},
		{"claude-sonnet-5", 30_000, 0, 1_000_000},
		{"claude-fable-5", 30_000, 0, 1_000_000},
		{"claude-opus-4-8", 30_000, 0, 200_000},
		{"claude-opus-4-8", 260_000, 0, 1_000_000},
		{"claude-mystery-9", 260_000, 200_000, 200_000}, // Claude Code's own size stands
	} {
		path := filepath.Join(dir, tt.model+strconv.FormatInt(tt.tokens, 10)+".jsonl")
		line := `{"type":"assistant","isSidechain":false,"message":{"id":"m1","model":"` + tt.model + `","usage":{"input_tokens":` +
			strconv.FormatInt(tt.tokens, 10) + `,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":10}}}` + "\n"
		if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		payload := `{"session_id":"730c8849-a6f0-454b-a922-063e0b765bf2","transcript_path":"` + path + `","model":{"id":"` + tt.model + `"}`
		if tt.size > 0 {
			payload += `,"context_window":{"context_window_size":` + strconv.FormatInt(tt.size, 10) + `}`
		}
		payload += "}"
		c := &Context{Getenv: func(string) string { return "" }, Now: time.Now}
		r := c.Render([]byte(payload), nil, config.Default(), nil)
		if r.View.Tokens != tt.tokens || r.View.Window != tt.want {
			t.Errorf("%s at %d (size %d): %d/%d, want %d/%d (line %q)", tt.model, tt.tokens, tt.size, r.View.Tokens, r.View.Window, tt.tokens, tt.want, r.Line)
		}
	}
}
