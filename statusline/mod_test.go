package statusline

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

func TestFaceOf(t *testing.T) {
	th := zones.Thresholds{Warn: 80000, Dumb: 120000}
	cp := zones.Compact{Enabled: true, Point: 167000}
	for _, c := range []struct {
		name string
		v    View
		want Face
	}{
		{"unknown", View{Window: 200000, Thresholds: th, Compact: cp}, Face{Zone: "○ --"}},
		{"smart", View{Zone: zones.Smart, Tokens: 40000, Window: 200000, Thresholds: th, Compact: cp},
			Face{Zone: "● SMART", Color: "#7ed076", Tokens: "40k/200k", Compact: "127k to compact"}},
		{"dumb with a step", View{Zone: zones.Dumb, Tokens: 140000, Window: 200000, Thresholds: th, Compact: cp, Tier: "dumb", Problems: []string{"x"}},
			Face{Zone: "● DUMB", Color: "#f0463c", Bold: true, Tokens: "140k/200k", Compact: "27k to compact", Warn: true, Step: "⚑ /compact-prep"}},
		{"ready", View{Zone: zones.Dumb, Tokens: 160000, Window: 200000, Thresholds: th, Compact: cp, Tier: TierReady},
			Face{Zone: "● DUMB", Color: "#f0463c", Bold: true, Tokens: "160k/200k", Compact: "7k to compact", Urgent: true, Step: "⚑ /compact"}},
		{"off", View{Zone: zones.Warn, Tokens: 90000, Window: 200000, Thresholds: th, Compact: zones.Compact{Source: "env"}},
			Face{Zone: "● WARN", Color: "#f1c84a", Tokens: "90k/200k", Compact: "auto-compact off"}},
	} {
		if got := FaceOf(c.v, "unicode"); got != c.want {
			t.Errorf("%s: FaceOf = %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// TestRowFitsAsTheStatusLine (issue 25: at 40 columns the mod's row wrapped inside its pieces,
// "●    120k/20 ~47k to" over "DUMB 0k      compact"): the row is the status line's render of
// RowSegments, fitted to the width by the same code, so its pieces join to that line, never
// wider than the width, with the zone and the tokens kept and the ⚠ shortened first.
func TestRowFitsAsTheStatusLine(t *testing.T) {
	v := View{Zone: zones.Dumb, Tokens: 120000, Window: 200000, Thresholds: zones.Thresholds{Warn: 80000, Dumb: 100000},
		Compact: zones.Compact{Enabled: true, Point: 167000}, Tier: "dumb", Problems: []string{"config.toml:1:1: unknown key 'colour' (did you mean 'color'?)"}}
	for _, w := range []int{0, 30, 40, 80, 120} {
		row := Row(v, "unicode", w)
		var text string
		for _, p := range row {
			text += p.Text
		}
		want := Render(v, Options{Profile: termcolor.Ascii, Lines: [][]string{RowSegments[:]}, Width: w})
		if text != want {
			t.Errorf("width %d: row %q, the status line's render %q", w, text, want)
		}
		if w > 0 && Width(text, false) > w {
			t.Errorf("width %d: row %q is %d cells", w, text, Width(text, false))
		}
		if (w == 0 || w >= 40) && (!strings.Contains(text, "● DUMB 120k/200k") || !strings.Contains(text, "⚠")) {
			t.Errorf("width %d: %q lost the zone, the tokens or the ⚠", w, text)
		}
		if w >= 80 && !strings.Contains(text, "47k to compact") {
			t.Errorf("width %d: %q lost the distance to compact", w, text)
		}
	}
	// The pieces carry the line's colours: the zone bold in the dumb colour, the step bold.
	row := Row(v, "unicode", 0)
	if p := row[0]; p.Text != "● DUMB" || p.Color != zoneHex(styleDumb) || !p.Bold {
		t.Errorf("zone piece %+v", p)
	}
	for _, p := range row {
		if strings.Contains(p.Text, "/compact-prep") && (!p.Bold || p.Color != zoneHex(styleHint)) {
			t.Errorf("step piece %+v", p)
		}
	}
}
