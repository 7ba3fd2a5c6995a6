package statusline

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

func TestZoneColours(t *testing.T) {
	tests := []struct {
		zone    zones.Zone
		profile termcolor.Profile
		want    string // the opening SGR around "● ZONE"
	}{
		{zones.Smart, termcolor.ANSI, "\x1b[32m"},
		{zones.Warn, termcolor.ANSI, "\x1b[33m"},
		{zones.Dumb, termcolor.ANSI, "\x1b[1;31m"},
		{zones.Unknown, termcolor.ANSI, "\x1b[2m"},
		{zones.Smart, termcolor.ANSI256, "\x1b[38;5;114m"},
		{zones.Warn, termcolor.ANSI256, "\x1b[38;5;221m"},
		{zones.Dumb, termcolor.ANSI256, "\x1b[1;38;5;203m"},
		{zones.Smart, termcolor.TrueColor, "\x1b[38;2;126;208;118m"},
		{zones.Warn, termcolor.TrueColor, "\x1b[38;2;241;200;74m"},
		{zones.Dumb, termcolor.TrueColor, "\x1b[1;38;2;240;70;60m"},
		{zones.Smart, termcolor.Ascii, ""},
		{zones.Dumb, termcolor.Ascii, ""},
	}
	for _, tt := range tests {
		v := dumbView()
		v.Zone = tt.zone
		got := Render(v, Options{Profile: tt.profile, Lines: [][]string{{"zone", "tokens"}}})
		text := glyphSet("unicode").zoneText[tt.zone]
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
			if got := Render(v, Options{Profile: termcolor.Ascii, Glyphs: g, Width: w}); strings.Contains(got, "\x1b") {
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
	if sgrTable(termcolor.Ascii) != nil {
		t.Error("Ascii has a style table")
	}
}

func TestPaintZone(t *testing.T) {
	tests := []struct {
		p    termcolor.Profile
		z    zones.Zone
		want string
	}{
		{termcolor.Ascii, zones.Dumb, "x"},
		{termcolor.ANSI, zones.Smart, "\x1b[32mx\x1b[0m"},
		{termcolor.ANSI, zones.Dumb, "\x1b[1;31mx\x1b[0m"},
		{termcolor.ANSI256, zones.Warn, "\x1b[38;5;221mx\x1b[0m"},
		{termcolor.TrueColor, zones.Dumb, "\x1b[1;38;2;240;70;60mx\x1b[0m"},
		{termcolor.ANSI, zones.Unknown, "\x1b[2mx\x1b[0m"},
	}
	for _, tt := range tests {
		if got := PaintZone(tt.p, tt.z, "x"); got != tt.want {
			t.Errorf("PaintZone(%v, %v): %q, want %q", tt.p, tt.z, got, tt.want)
		}
	}
}
