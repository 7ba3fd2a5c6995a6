package pipeline

import (
	"strings"
	"testing"
)

func TestReplyNeedle(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Mock reply #1. OK.", "Mock reply #1. OK."},
		{"short", ""},
		{`He said "hi" there`, "He said "},
		{"line one\nline two", "line one"},
		{strings.Repeat("é", 40), strings.Repeat("é", 32)},
	} {
		if got := string(replyNeedle(tt.in)); got != tt.want {
			t.Errorf("replyNeedle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"claude-sonnet-4-5-20250929": "Sonnet 4.5", "claude-opus-5-5": "Opus 5.5", "claude-haiku-4-5": "Haiku 4.5",
		"claude-opus-4-1-20250805[1m]": "Opus 4.1", "gpt-x": "gpt-x", "claude-3-5-sonnet-20241022": "claude-3-5-sonnet-20241022", "": "",
	} {
		if got := displayName(in); got != want {
			t.Errorf("displayName(%q) = %q, want %q", in, got, want)
		}
	}
}
