//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package termcolor

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"
)

// environ is a fixed environment for termenv.
type environ map[string]string

func (e environ) Getenv(k string) string { return e[k] }
func (e environ) Environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

// termenvProfile is termenv's own detection for env, with stdout taken as a terminal, as For
// reads the environment (termenv.WithTTY(true); EnvColorProfile honours NO_COLOR and
// CLICOLOR_FORCE).
func termenvProfile(env map[string]string) Profile {
	o := termenv.NewOutput(nil, termenv.WithEnvironment(environ(env)), termenv.WithTTY(true))
	switch o.EnvColorProfile() {
	case termenv.TrueColor:
		return TrueColor
	case termenv.ANSI256:
		return ANSI256
	case termenv.ANSI:
		return ANSI
	}
	return Ascii
}

// TestForAgainstTermenv holds For("auto") to termenv's own profile detection: where a case has
// no reason, For must give what termenv gives; where it has one, termenv must give something
// else (so a reason that no longer holds fails too) and For gives want for that reason. A termenv
// bump that changes its detection shows up here as a failing case to look at.
func TestForAgainstTermenv(t *testing.T) {
	tests := []struct {
		env    map[string]string
		want   Profile
		reason string // why For departs from termenv, "" when it does not
	}{
		// Agreement.
		{map[string]string{"TERM": "xterm-256color"}, ANSI256, ""},
		{map[string]string{"TERM": "screen-256color"}, ANSI256, ""},
		{map[string]string{"TERM": "tmux-256color"}, ANSI256, ""},
		{map[string]string{"TERM": "xterm-kitty"}, TrueColor, ""},
		{map[string]string{"TERM": "xterm-ghostty"}, TrueColor, ""},
		{map[string]string{"TERM": "alacritty"}, TrueColor, ""},
		{map[string]string{"TERM": "wezterm"}, TrueColor, ""},
		{map[string]string{"TERM": "contour"}, TrueColor, ""},
		{map[string]string{"TERM": "rio"}, TrueColor, ""},
		{map[string]string{"TERM": "linux"}, ANSI, ""},
		{map[string]string{"TERM": "ansi"}, ANSI, ""},
		{map[string]string{"COLORTERM": "truecolor", "TERM": "xterm-256color"}, TrueColor, ""},
		{map[string]string{"COLORTERM": "24bit"}, TrueColor, ""},
		{map[string]string{"COLORTERM": "TrueColor", "TERM": "xterm"}, TrueColor, ""},
		{map[string]string{"COLORTERM": "truecolor", "TERM": "screen", "TERM_PROGRAM": "tmux"}, TrueColor, ""},
		{map[string]string{"NO_COLOR": "1", "COLORTERM": "truecolor"}, Ascii, ""},
		{map[string]string{"NO_COLOR": "1", "TERM": "xterm-256color", "FORCE_COLOR": "3"}, Ascii, ""},
		{map[string]string{"NO_COLOR": "", "TERM": "xterm-256color"}, ANSI256, ""},
		{map[string]string{"FORCE_COLOR": "1", "TERM": "ansi"}, ANSI, ""},
		{map[string]string{"FORCE_COLOR": "3", "COLORTERM": "truecolor"}, TrueColor, ""},
		{map[string]string{"CI": "true", "TERM": "xterm-256color"}, ANSI256, ""}, // a CI runner is taken as a terminal too
		// For ignores CLICOLOR_FORCE, which termenv reads only to lift Ascii to ANSI: For gives
		// Ascii only for NO_COLOR and FORCE_COLOR=0, so the two agree.
		{map[string]string{"CLICOLOR_FORCE": "1", "TERM": "dumb"}, ANSI, ""},
		{map[string]string{"CLICOLOR_FORCE": "1", "TERM": "xterm-256color"}, ANSI256, ""},

		// Departures, each for a reason.
		{map[string]string{"TERM": "xterm"}, ANSI256, "plain xterm: every xterm-compatible terminal of today draws 256 colours; termenv says ANSI"},
		{map[string]string{"TERM": "tmux"}, ANSI256, "an unknown but set TERM is a modern terminal (256 colours); termenv says Ascii"},
		{map[string]string{"TERM": "screen"}, ANSI256, "an unknown but set TERM is a modern terminal (256 colours); termenv says Ascii"},
		{map[string]string{"TERM": "vt100"}, ANSI, "a known old terminal gets the 16 colours, not none: Claude Code, not the terminal, draws the line"},
		{map[string]string{"TERM": "dumb"}, ANSI, "TERM=dumb: Claude Code renders the colours itself, so the 16 basic ones stay; termenv says Ascii"},
		{map[string]string{}, ANSI, "no TERM at all (Claude Code's hook environment can lack it): the 16 basic colours; termenv says Ascii"},
		{map[string]string{"TERM": "xterm-direct"}, TrueColor, "terminfo's *-direct entries are 24-bit; termenv does not know them"},
		{map[string]string{"TERM": "foot"}, TrueColor, "foot is a 24-bit terminal termenv's list lacks"},
		{map[string]string{"COLORTERM": "truecolor", "TERM": "screen"}, TrueColor, "COLORTERM=truecolor is believed inside screen too; termenv lowers it to 256 unless TERM_PROGRAM=tmux"},
		{map[string]string{"COLORTERM": "yes", "TERM": "xterm-kitty"}, TrueColor, "COLORTERM=yes says nothing about depth, so TERM decides; termenv takes it as 256"},
		{map[string]string{"FORCE_COLOR": "2"}, ANSI256, "FORCE_COLOR (chalk/supports-color levels 1-3) is read; termenv ignores it"},
		{map[string]string{"FORCE_COLOR": "0", "TERM": "xterm-256color"}, Ascii, "FORCE_COLOR=0 turns colour off; termenv ignores FORCE_COLOR"},
		{map[string]string{"CLICOLOR": "0", "TERM": "xterm-256color"}, ANSI256, "CLICOLOR=0 is not read: NO_COLOR is the one off switch zoneline documents; termenv turns colour off"},
	}
	for _, tt := range tests {
		name := envString(tt.env)
		t.Run(name, func(t *testing.T) {
			got, oracle := For("auto", func(k string) string { return tt.env[k] }), termenvProfile(tt.env)
			if got != tt.want {
				t.Errorf("For = %v, want %v (termenv: %v)", got, tt.want, oracle)
			}
			switch {
			case tt.reason == "" && oracle != tt.want:
				t.Errorf("termenv now says %v, For %v: agree again or give the reason", oracle, got)
			case tt.reason != "" && oracle == tt.want:
				t.Errorf("termenv now agrees (%v): the reason %q no longer holds", oracle, tt.reason)
			}
		})
	}
}

func envString(env map[string]string) string {
	if len(env) == 0 {
		return "empty"
	}
	var parts []string
	for _, k := range []string{"NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "CI", "COLORTERM", "TERM_PROGRAM", "TERM"} {
		if v, ok := env[k]; ok {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, ",")
}
