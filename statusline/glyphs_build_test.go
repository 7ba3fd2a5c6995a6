package statusline

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/zones"
)

// The derived fields of every glyph set are what the base fields make: the bar runs are
// MaxBarWidth cells, the zone texts and the hints read as the glyph plus the word.
func TestGlyphSetsBuilt(t *testing.T) {
	for i := range glyphSets {
		g := glyphSets[i]
		want := g
		want.fullRun = strings.Repeat(g.full, MaxBarWidth)
		want.emptyRun = strings.Repeat(g.empty, MaxBarWidth)
		want.zoneText = [4]string{
			zones.Unknown: g.unknown + " " + g.noZone,
			zones.Smart:   g.zone + " SMART",
			zones.Warn:    g.zone + " WARN",
			zones.Dumb:    g.zone + " DUMB",
		}
		want.hintText = g.hint + "/compact-prep"
		want.readyText = g.hint + "/compact"
		if g != want {
			t.Errorf("glyph set %d:\n got %+v\nwant %+v", i, g, want)
		}
	}
	for name, want := range map[string]int{"unicode": setUnicode, "": setUnicode, "bogus": setUnicode, "ascii": setASCII, "nerd": setNerd} {
		if glyphSet(name) != &glyphSets[want] {
			t.Errorf("glyphSet(%q) is not set %d", name, want)
		}
	}
}
