package e2e

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// These run without ZONELINE_E2E: they check the ANSI reading the scenarios rely on.

func TestColorHue(t *testing.T) {
	tests := []struct {
		name string
		line string
		word string
		hue  string
		code string
	}{
		{"16 green", "\x1b[32m● SMART\x1b[39m", "SMART", "green", "32"},
		{"16 bright yellow", "\x1b[1m\x1b[93mWARN\x1b[0m", "WARN", "yellow", "93"},
		{"16 bold red", "\x1b[1;31mDUMB\x1b[0m", "DUMB", "red", "31"},
		{"256 green", "\x1b[38;5;114mSMART", "SMART", "green", "38;5;114"},
		{"256 amber", "\x1b[38;5;214mWARN", "WARN", "yellow", "38;5;214"},
		{"256 orange", "\x1b[38;5;208mWARN", "WARN", "yellow", "38;5;208"},
		{"256 red", "\x1b[38;5;196mDUMB", "DUMB", "red", "38;5;196"},
		{"truecolour green", "\x1b[38;2;80;200;120mSMART", "SMART", "green", "38;2;80;200;120"},
		{"truecolour colon form", "\x1b[38:2:230:70:70mDUMB", "DUMB", "red", "38;2;230;70;70"},
		{"claude's grey", "  \x1b[38;5;246mE2E-SMOKE-LINE", "E2E", "grey", "38;5;246"},
		{"reset to default", "\x1b[31mx\x1b[0m SMART", "SMART", "default", ""},
		{"background ignored", "\x1b[48;5;22;38;5;196mDUMB", "DUMB", "red", "38;5;196"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := ColorAt(termcolor.Cells(tt.line), tt.word)
			if !ok {
				t.Fatalf("%q not found in %q", tt.word, tt.line)
			}
			if c.Hue() != tt.hue || c.Code != tt.code {
				t.Errorf("ColorAt(%q, %q) = %s code %q, want %s code %q", tt.line, tt.word, c.Hue(), c.Code, tt.hue, tt.code)
			}
		})
	}
}

func TestStatusArea(t *testing.T) {
	border := strings.Repeat("─", 60)
	screen := strings.Join([]string{
		"● Mock reply #1. OK.",
		"",
		"\x1b[38;5;244m" + border,
		"\x1b[39m❯ ",
		"\x1b[38;5;244m" + border,
		"\x1b[39m  \x1b[38;5;246mE2E-SMOKE-LINE",
		"\x1b[39m  \x1b[38;5;246m⏸ manual mode on · ← for agents\x1b[39m",
		"", "",
	}, "\n")
	got := StatusArea(screen)
	if len(got) != 1 || termcolor.Strip(got[0]) != "  E2E-SMOKE-LINE" {
		t.Fatalf("StatusArea = %q, want the one smoke line", got)
	}
	blank := strings.Join([]string{border, "❯ ", border, "  ⏵⏵ auto mode on (shift+tab to cycle)", ""}, "\n")
	if got := StatusArea(blank); got == nil || len(got) != 0 {
		t.Fatalf("StatusArea(blank) = %q, want empty", got)
	}
	if got := StatusArea("no box here\n"); got != nil {
		t.Fatalf("StatusArea(no box) = %q, want nil", got)
	}
}
