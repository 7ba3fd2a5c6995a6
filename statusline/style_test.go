package statusline

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"
	"github.com/zoneline/zoneline/zones"
)

func TestZoneColours(t *testing.T) {
	tests := []struct {
		zone    zones.Zone
		profile termenv.Profile
		want    string // the opening SGR around "● ZONE"
	}{
		{zones.Smart, termenv.ANSI, "\x1b[32m"},
		{zones.Warn, termenv.ANSI, "\x1b[33m"},
		{zones.Dumb, termenv.ANSI, "\x1b[1;31m"},
		{zones.Unknown, termenv.ANSI, "\x1b[2m"},
		{zones.Smart, termenv.ANSI256, "\x1b[38;5;114m"},
		{zones.Warn, termenv.ANSI256, "\x1b[38;5;221m"},
		{zones.Dumb, termenv.ANSI256, "\x1b[1;38;5;203m"},
		{zones.Smart, termenv.TrueColor, "\x1b[38;2;126;211;131m"},
		{zones.Warn, termenv.TrueColor, "\x1b[38;2;241;200;90m"},
		{zones.Dumb, termenv.TrueColor, "\x1b[1;38;2;240;98;90m"},
		{zones.Smart, termenv.Ascii, ""},
		{zones.Dumb, termenv.Ascii, ""},
	}
	for _, tt := range tests {
		v := dumbView()
		v.Zone = tt.zone
		got := Render(v, Options{Profile: tt.profile, Lines: [][]string{{"zone", "tokens"}}})
		text := unicodeGlyphs.zoneText[tt.zone]
		want := text + " 142k/200k"
		if tt.zone == zones.Unknown {
			want = text // no tokens before the first reply
		}
		if tt.want != "" {
			want = tt.want + text + sgrReset
			if tt.zone != zones.Unknown {
				// tokens share the zone's style, but a plain space separates them.
				want += " " + tt.want + "142k/200k" + sgrReset
			}
		}
		if got != want {
			t.Errorf("%v/%v: got %q, want %q", tt.zone, tt.profile, got, want)
		}
	}
}

func TestAsciiProfileHasNoEscapes(t *testing.T) {
	v := dumbView()
	v.Tier = "dumb"
	v.Problems = []string{"payload: not JSON"}
	for _, g := range allGlyphs {
		for _, w := range []int{0, 200, 40, 5} {
			if got := Render(v, Options{Profile: termenv.Ascii, Glyphs: g, Width: w}); strings.Contains(got, "\x1b") {
				t.Errorf("glyphs %s width %d: escape in %q", g, w, got)
			}
		}
	}
}

func TestColouredLinesEndWithReset(t *testing.T) {
	v := dumbView() // ends with the plain branch… then dim compactions
	for _, p := range allProfiles[1:] {
		for _, lines := range [][][]string{nil, {{"model", "zone", "dir"}}, {{"zone"}, {"dir", "compactions"}}} {
			out := Render(v, Options{Profile: p.p, Lines: lines})
			for _, line := range strings.Split(out, "\n") {
				checkLine(t, line, 0, false)
			}
		}
	}
}

func TestStyleTablesComplete(t *testing.T) {
	for _, p := range allProfiles[1:] {
		tab := sgrTable(p.p)
		for s := style(1); s < numStyles; s++ {
			if checkEscapes(tab[s]) != "" || !strings.HasPrefix(tab[s], "\x1b[") {
				t.Errorf("%s: style %v has SGR %q", p.name, s, tab[s])
			}
		}
		if tab[stylePlain] != "" {
			t.Errorf("%s: plain has SGR %q", p.name, tab[stylePlain])
		}
	}
	if sgrTable(termenv.Ascii) != nil {
		t.Error("Ascii has a style table")
	}
}

func TestProfileFor(t *testing.T) {
	tests := []struct {
		name    string
		setting string
		env     map[string]string
		want    termenv.Profile
	}{
		{"none", "none", map[string]string{"COLORTERM": "truecolor"}, termenv.Ascii},
		{"16", "16", nil, termenv.ANSI},
		{"256", "256", map[string]string{"NO_COLOR": "1"}, termenv.ANSI256},
		{"truecolor", "truecolor", nil, termenv.TrueColor},
		{"truecolor upper", " TrueColor ", nil, termenv.TrueColor},
		{"24bit", "24bit", nil, termenv.TrueColor},
		{"auto empty env", "auto", nil, termenv.ANSI},
		{"empty setting is auto", "", map[string]string{"TERM": "xterm-256color"}, termenv.ANSI256},
		{"unknown setting is auto", "rainbow", map[string]string{"COLORTERM": "24bit"}, termenv.TrueColor},
		{"NO_COLOR", "auto", map[string]string{"NO_COLOR": "1", "COLORTERM": "truecolor", "FORCE_COLOR": "3"}, termenv.Ascii},
		{"NO_COLOR empty ignored", "auto", map[string]string{"NO_COLOR": "", "TERM": "xterm-256color"}, termenv.ANSI256},
		{"FORCE_COLOR 0", "auto", map[string]string{"FORCE_COLOR": "0", "COLORTERM": "truecolor"}, termenv.Ascii},
		{"FORCE_COLOR false", "auto", map[string]string{"FORCE_COLOR": "false"}, termenv.Ascii},
		{"FORCE_COLOR 1", "auto", map[string]string{"FORCE_COLOR": "1", "COLORTERM": "truecolor"}, termenv.ANSI},
		{"FORCE_COLOR true", "auto", map[string]string{"FORCE_COLOR": "true"}, termenv.ANSI},
		{"FORCE_COLOR 2", "auto", map[string]string{"FORCE_COLOR": "2"}, termenv.ANSI256},
		{"FORCE_COLOR 3", "auto", map[string]string{"FORCE_COLOR": "3", "TERM": "dumb"}, termenv.TrueColor},
		{"COLORTERM truecolor", "auto", map[string]string{"COLORTERM": "truecolor", "TERM": "xterm"}, termenv.TrueColor},
		{"COLORTERM 24bit", "auto", map[string]string{"COLORTERM": "24bit"}, termenv.TrueColor},
		{"COLORTERM other", "auto", map[string]string{"COLORTERM": "yes", "TERM": "xterm-256color"}, termenv.ANSI256},
		{"TERM 256color", "auto", map[string]string{"TERM": "screen-256color"}, termenv.ANSI256},
		{"TERM direct", "auto", map[string]string{"TERM": "xterm-direct"}, termenv.TrueColor},
		{"TERM kitty", "auto", map[string]string{"TERM": "xterm-kitty"}, termenv.TrueColor},
		{"TERM ghostty", "auto", map[string]string{"TERM": "xterm-ghostty"}, termenv.TrueColor},
		{"TERM dumb", "auto", map[string]string{"TERM": "dumb"}, termenv.ANSI},
		{"TERM linux", "auto", map[string]string{"TERM": "linux"}, termenv.ANSI},
		{"TERM empty", "auto", map[string]string{"TERM": ""}, termenv.ANSI},
		{"TERM unknown but set", "auto", map[string]string{"TERM": "xterm"}, termenv.ANSI256},
		{"TERM tmux", "auto", map[string]string{"TERM": "tmux"}, termenv.ANSI256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			if got := ProfileFor(tt.setting, getenv); got != tt.want {
				t.Errorf("ProfileFor(%q, %v) = %v, want %v", tt.setting, tt.env, got, tt.want)
			}
		})
	}
	if got := ProfileFor("auto", nil); got != termenv.ANSI {
		t.Errorf("nil getenv: %v", got)
	}
}
