package termcolor

import (
	"testing"

	"github.com/muesli/termenv"
)

// termenv is the oracle: Paint must write exactly what termenv writes for the same profile,
// attributes and basic colours, as tune's chart and the sessions table used to through termenv.
func TestPaintMatchesTermenv(t *testing.T) {
	profiles := []struct {
		p  Profile
		tp termenv.Profile
	}{{Ascii, termenv.Ascii}, {ANSI, termenv.ANSI}, {ANSI256, termenv.ANSI256}, {TrueColor, termenv.TrueColor}}
	colours := []string{Red, Green, Yellow, Magenta}
	texts := []string{"", "dumb", "▰▰▱ 125k", "a\x1b[0mb"}
	for _, pr := range profiles {
		for _, s := range texts {
			if got, want := pr.p.Paint(s, Bold), pr.tp.String(s).Bold().String(); got != want {
				t.Errorf("%v bold %q: %q, termenv %q", pr.p, s, got, want)
			}
			if got, want := pr.p.Paint(s, Faint), pr.tp.String(s).Faint().String(); got != want {
				t.Errorf("%v faint %q: %q, termenv %q", pr.p, s, got, want)
			}
			if got, want := pr.p.Paint(s), pr.tp.String(s).String(); got != want {
				t.Errorf("%v plain %q: %q, termenv %q", pr.p, s, got, want)
			}
			for _, c := range colours {
				// termenv's colour "1".."5" is the basic colour 31..35.
				tc := pr.tp.Color(string(c[1]))
				if got, want := pr.p.Paint(s, c), pr.tp.String(s).Foreground(tc).String(); got != want {
					t.Errorf("%v colour %s %q: %q, termenv %q", pr.p, c, s, got, want)
				}
				if got, want := pr.p.Paint(s, c, Bold), pr.tp.String(s).Foreground(tc).Bold().String(); got != want {
					t.Errorf("%v colour %s bold %q: %q, termenv %q", pr.p, c, s, got, want)
				}
			}
		}
	}
}

func TestFor(t *testing.T) {
	tests := []struct {
		name    string
		setting string
		env     map[string]string
		want    Profile
	}{
		{"none", "none", map[string]string{"COLORTERM": "truecolor"}, Ascii},
		{"16", "16", nil, ANSI},
		{"256", "256", map[string]string{"NO_COLOR": "1"}, ANSI256},
		{"truecolor", "truecolor", nil, TrueColor},
		{"truecolor upper", " TrueColor ", nil, TrueColor},
		{"24bit", "24bit", nil, TrueColor},
		{"auto empty env", "auto", nil, ANSI},
		{"empty setting is auto", "", map[string]string{"TERM": "xterm-256color"}, ANSI256},
		{"unknown setting is auto", "rainbow", map[string]string{"COLORTERM": "24bit"}, TrueColor},
		{"NO_COLOR", "auto", map[string]string{"NO_COLOR": "1", "COLORTERM": "truecolor", "FORCE_COLOR": "3"}, Ascii},
		{"NO_COLOR empty ignored", "auto", map[string]string{"NO_COLOR": "", "TERM": "xterm-256color"}, ANSI256},
		{"FORCE_COLOR 0", "auto", map[string]string{"FORCE_COLOR": "0", "COLORTERM": "truecolor"}, Ascii},
		{"FORCE_COLOR false", "auto", map[string]string{"FORCE_COLOR": "false"}, Ascii},
		{"FORCE_COLOR 1", "auto", map[string]string{"FORCE_COLOR": "1", "COLORTERM": "truecolor"}, ANSI},
		{"FORCE_COLOR true", "auto", map[string]string{"FORCE_COLOR": "true"}, ANSI},
		{"FORCE_COLOR 2", "auto", map[string]string{"FORCE_COLOR": "2"}, ANSI256},
		{"FORCE_COLOR 3", "auto", map[string]string{"FORCE_COLOR": "3", "TERM": "dumb"}, TrueColor},
		{"COLORTERM truecolor", "auto", map[string]string{"COLORTERM": "truecolor", "TERM": "xterm"}, TrueColor},
		{"COLORTERM 24bit", "auto", map[string]string{"COLORTERM": "24bit"}, TrueColor},
		{"COLORTERM other", "auto", map[string]string{"COLORTERM": "yes", "TERM": "xterm-256color"}, ANSI256},
		{"TERM 256color", "auto", map[string]string{"TERM": "screen-256color"}, ANSI256},
		{"TERM direct", "auto", map[string]string{"TERM": "xterm-direct"}, TrueColor},
		{"TERM kitty", "auto", map[string]string{"TERM": "xterm-kitty"}, TrueColor},
		{"TERM ghostty", "auto", map[string]string{"TERM": "xterm-ghostty"}, TrueColor},
		{"TERM dumb", "auto", map[string]string{"TERM": "dumb"}, ANSI},
		{"TERM linux", "auto", map[string]string{"TERM": "linux"}, ANSI},
		{"TERM empty", "auto", map[string]string{"TERM": ""}, ANSI},
		{"TERM unknown but set", "auto", map[string]string{"TERM": "xterm"}, ANSI256},
		{"TERM tmux", "auto", map[string]string{"TERM": "tmux"}, ANSI256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			if got := For(tt.setting, getenv); got != tt.want {
				t.Errorf("For(%q, %v) = %v, want %v", tt.setting, tt.env, got, tt.want)
			}
		})
	}
	if got := For("auto", nil); got != ANSI {
		t.Errorf("nil getenv: %v", got)
	}
}

func TestProfileString(t *testing.T) {
	for p, want := range map[Profile]string{Ascii: "none", ANSI: "16", ANSI256: "256", TrueColor: "truecolor", 9: "none"} {
		if got := p.String(); got != want {
			t.Errorf("%d: %q, want %q", p, got, want)
		}
	}
}
