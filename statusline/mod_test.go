package statusline

import (
	"testing"

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
			Face{Zone: "● SMART", Color: "#7ed383", Tokens: "40k/200k", Compact: "127k to compact"}},
		{"dumb with a step", View{Zone: zones.Dumb, Tokens: 140000, Window: 200000, Thresholds: th, Compact: cp, Tier: "dumb", Problems: []string{"x"}},
			Face{Zone: "● DUMB", Color: "#f0625a", Bold: true, Tokens: "140k/200k", Compact: "27k to compact", Warn: true, Step: "⚑ /compact-prep"}},
		{"ready", View{Zone: zones.Dumb, Tokens: 160000, Window: 200000, Thresholds: th, Compact: cp, Tier: TierReady},
			Face{Zone: "● DUMB", Color: "#f0625a", Bold: true, Tokens: "160k/200k", Compact: "7k to compact", Urgent: true, Step: "⚑ /compact"}},
		{"off", View{Zone: zones.Warn, Tokens: 90000, Window: 200000, Thresholds: th, Compact: zones.Compact{Source: "env"}},
			Face{Zone: "● WARN", Color: "#f1c85a", Tokens: "90k/200k", Compact: "auto-compact off"}},
	} {
		if got := FaceOf(c.v, "unicode"); got != c.want {
			t.Errorf("%s: FaceOf = %+v\nwant %+v", c.name, got, c.want)
		}
	}
}
