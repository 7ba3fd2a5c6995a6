package statusline

import (
	"slices"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

func TestAppendTokens(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{-5, "0"}, {0, "0"}, {1, "1"}, {950, "950"}, {999, "999"},
		{1_000, "1k"}, {1_050, "1k"}, {1_100, "1.1k"}, {9_500, "9.5k"}, {9_999, "9.9k"},
		{10_000, "10k"}, {25_000, "25k"}, {142_000, "142k"}, {142_999, "142k"}, {199_999, "199k"},
		{200_000, "200k"}, {999_999, "999k"},
		{1_000_000, "1M"}, {1_200_000, "1.2M"}, {1_999_999, "1.9M"}, {9_999_999, "9.9M"},
		{10_000_000, "10M"}, {123_456_789, "123M"},
	}
	for _, tt := range tests {
		if got := string(appendTokens(nil, tt.n)); got != tt.want {
			t.Errorf("appendTokens(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestPercentAndBar(t *testing.T) {
	tests := []struct {
		tokens, window int64
		cells          int
		pct            int64
		filled         int
	}{
		{0, 200_000, 10, 0, 0},
		{142_000, 200_000, 10, 71, 7},
		{144_999, 200_000, 10, 72, 7},
		{150_000, 200_000, 10, 75, 8},
		{1_000, 200_000, 10, 1, 0},
		{199_999, 200_000, 10, 100, 10},
		{260_000, 200_000, 10, 130, 10},
		{60_000, 1_000_000, 10, 6, 1},
		{142_000, 200_000, 1, 71, 1},
		{142_000, 200_000, 40, 71, 28},
		{-1, 200_000, 10, 0, 0},
		{5, 0, 10, 0, 0},
	}
	for _, tt := range tests {
		if got := percent(tt.tokens, tt.window); got != tt.pct {
			t.Errorf("percent(%d, %d) = %d, want %d", tt.tokens, tt.window, got, tt.pct)
		}
		if got := filledCells(tt.tokens, tt.window, tt.cells); got != tt.filled {
			t.Errorf("filledCells(%d, %d, %d) = %d, want %d", tt.tokens, tt.window, tt.cells, got, tt.filled)
		}
	}
}

// plain renders one segment with the unicode glyphs and no colour.
func plain(name string, v View, glyphs string) string {
	return Render(v, Options{Profile: termcolor.Ascii, Glyphs: glyphs, Lines: [][]string{{name}}})
}

func TestSegments(t *testing.T) {
	d := dumbView()
	with := func(f func(*View)) View { v := dumbView(); f(&v); return v }
	tests := []struct {
		name, seg string
		v         View
		unicode   string
		ascii     string
	}{
		{"zone dumb", "zone", d, "● DUMB", "* DUMB"},
		{"zone smart", "zone", with(func(v *View) { v.Zone = zones.Smart }), "● SMART", "* SMART"},
		{"zone warn", "zone", with(func(v *View) { v.Zone = zones.Warn }), "● WARN", "* WARN"},
		{"zone unknown", "zone", View{}, "○ --", "o --"},
		{"zone out of range", "zone", View{Zone: 42}, "○ --", "o --"},
		{"zone with tier", "zone", with(func(v *View) { v.Tier = "dumb" }), "● DUMB", "* DUMB"},
		{"nudge", "nudge", with(func(v *View) { v.Tier = "dumb" }), "⚑ /compact-prep", "> /compact-prep"},
		{"no nudge", "nudge", with(func(v *View) { v.Tier = "" }), "", ""},
		{"nudge when the checkpoint is ready", "nudge", with(func(v *View) { v.Tier = TierReady }), "⚑ /compact", "> /compact"},
		{"tokens", "tokens", d, "142k/200k", "142k/200k"},
		{"tokens 1M", "tokens", with(func(v *View) { v.Tokens, v.Window = 1_250_000, 1_000_000 }), "1.2M/1M", "1.2M/1M"},
		{"tokens no window", "tokens", with(func(v *View) { v.Window = 0 }), "142k", "142k"},
		{"tokens unknown zone", "tokens", View{Window: 200_000}, "", ""},
		{"bar", "bar", d, "▰▰▰▰▰▰▰▱▱▱", "#######---"},
		{"bar empty", "bar", with(func(v *View) { v.Zone, v.Tokens = zones.Smart, 0 }), "▱▱▱▱▱▱▱▱▱▱", "----------"},
		{"bar full", "bar", with(func(v *View) { v.Tokens = 300_000 }), "▰▰▰▰▰▰▰▰▰▰", "##########"},
		{"bar no window", "bar", with(func(v *View) { v.Window = 0 }), "", ""},
		{"percent", "percent", d, "71%", "71%"},
		{"compact estimate", "compact", d, "~25k to compact", "~25k to compact"},
		{"compact exact", "compact", with(func(v *View) { v.Compact.Estimate = false }), "25k to compact", "25k to compact"},
		{"compact due", "compact", with(func(v *View) { v.Tokens = 167_000 }), "compact due", "compact due"},
		{"compact off", "compact", with(func(v *View) { v.Compact = zones.Compact{Source: "env DISABLE_COMPACT"} }), "auto-compact off", "auto-compact off"},
		{"compact not computed", "compact", with(func(v *View) { v.Compact = zones.Compact{} }), "", ""},
		{"compact unknown zone", "compact", View{Compact: d.Compact}, "", ""},
		{"model", "model", d, "Opus 5.5", "Opus 5.5"},
		{"model hidden", "model", View{}, "", ""},
		{"model with escapes", "model", View{Model: "Op\x1b[31mus\n5"}, "Op[31mus 5", "Op[31mus 5"},
		{"dir", "dir", d, "project", "project"},
		{"branch", "branch", d, "⎇ main", "git:main"},
		{"branch hidden", "branch", View{}, "", ""},
		{"compactions", "compactions", d, "↻2", "c2"},
		{"compactions none", "compactions", View{}, "", ""},
		{"problems", "problems", View{Problems: []string{"config.toml:4:1 unknown key 'colour'"}}, "⚠ config.toml:4:1 unknown key 'colour'", "! config.toml:4:1 unknown key 'colour'"},
		{"problems joined", "problems", View{Problems: []string{"a", "", "b"}}, "⚠ a; b", "! a; b"},
		{"problems empty strings", "problems", View{Problems: []string{""}}, "", ""},
		{"unknown segment", "colour", d, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plain(tt.seg, tt.v, "unicode"); got != tt.unicode {
				t.Errorf("unicode = %q, want %q", got, tt.unicode)
			}
			if got := plain(tt.seg, tt.v, "ascii"); got != tt.ascii {
				t.Errorf("ascii = %q, want %q", got, tt.ascii)
			}
		})
	}
}

func TestNerdBranch(t *testing.T) {
	if got := plain("branch", dumbView(), "nerd"); got != "\ue0a0 main" {
		t.Errorf("nerd branch = %q", got)
	}
}

func TestDefaultLine(t *testing.T) {
	v := dumbView()
	tests := []struct{ glyphs, want string }{
		{"unicode", "● DUMB 142k/200k ▰▰▰▰▰▰▰▱▱▱ 71% · ~25k to compact · Opus 5.5 · project ⎇ main · ↻2"},
		{"ascii", "* DUMB 142k/200k #######--- 71% | ~25k to compact | Opus 5.5 | project git:main | c2"},
		{"", "● DUMB 142k/200k ▰▰▰▰▰▰▰▱▱▱ 71% · ~25k to compact · Opus 5.5 · project ⎇ main · ↻2"},
	}
	for _, tt := range tests {
		if got := Render(v, Options{Profile: termcolor.Ascii, Glyphs: tt.glyphs}); got != tt.want {
			t.Errorf("glyphs %q:\n got %q\nwant %q", tt.glyphs, got, tt.want)
		}
	}
}

func TestLayout(t *testing.T) {
	v := dumbView()
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"two lines", Options{Lines: [][]string{{"zone", "tokens"}, {"model", "branch"}}}, "● DUMB 142k/200k\nOpus 5.5 · ⎇ main"},
		{"empty line skipped", Options{Lines: [][]string{{"zone"}, {"nope"}, {}, {"dir"}}}, "● DUMB\nproject"},
		{"separator", Options{Separator: " | ", Lines: [][]string{{"zone", "model", "dir", "branch"}}}, "● DUMB | Opus 5.5 | project ⎇ main"},
		{"separator cleaned", Options{Separator: "\n", Lines: [][]string{{"model", "dir"}}}, "Opus 5.5 project"},
		{"group broken by other", Options{Lines: [][]string{{"zone", "model", "tokens"}}}, "● DUMB · Opus 5.5 · 142k/200k"},
		{"bar width", Options{BarWidth: 4, Lines: [][]string{{"bar"}}}, "▰▰▰▱"},
		{"bar width capped", Options{BarWidth: 1000, Lines: [][]string{{"bar"}}}, strings.Repeat("▰", 28) + strings.Repeat("▱", 12)},
		{"nothing to show", Options{Lines: [][]string{{"model"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Profile = termcolor.Ascii
			vv := v
			if tt.name == "nothing to show" {
				vv.Model = ""
			}
			if got := Render(vv, tt.o); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSegmentTable: the one table names each segment once, the default line first and then the
// optional segments, each with a doc line and a priority under the pinned ones unless pinned on
// purpose; the name lists derive from it.
func TestSegmentTable(t *testing.T) {
	seen := map[string]bool{}
	optional := false
	for _, s := range Segments() {
		if seen[s.Name] || s.Name == "" || s.seg == nil || s.Doc == "" || s.Priority <= 0 || s.Priority > PriorityPinned {
			t.Errorf("segment %+v: duplicate, unnamed, without a type or a doc line, or its priority out of range", s)
		}
		seen[s.Name] = true
		if optional && s.Default {
			t.Errorf("default segment %q after an optional one: the default line is the table's first rows", s.Name)
		}
		optional = optional || !s.Default
	}
	all := SegmentNames()
	if want := append(DefaultLine(), OptionalSegments()...); !slices.Equal(all, want) {
		t.Errorf("SegmentNames %v, want the default line then the optional ones %v", all, want)
	}
	for _, n := range all {
		if !IsSegment(n) || LayoutHas(nil, n) != slices.Contains(DefaultLine(), n) {
			t.Errorf("%q: IsSegment %v, in the default layout %v", n, IsSegment(n), LayoutHas(nil, n))
		}
	}
	if IsSegment("nosuch") || LayoutHas(nil, "nosuch") {
		t.Error("an unknown name counts as a segment")
	}
	// Options.Lines nil renders exactly the default line.
	v := dumbView()
	v.Tier, v.Model, v.Dir, v.Branch, v.Compactions = "dumb", "Opus 5.5", "/p/proj", "main", 2
	v.Problems = []string{"p1"}
	o := Options{Profile: termcolor.Ascii}
	got := Render(v, o)
	o.Lines = [][]string{DefaultLine()}
	if want := Render(v, o); got != want || !strings.Contains(got, "DUMB") || !strings.Contains(got, "p1") {
		t.Errorf("nil layout %q, default line %q", got, want)
	}
}

func TestASCIIGlyphsHaveNoNonASCII(t *testing.T) {
	g := glyphSet("ascii")
	fields := []string{g.zone, g.unknown, g.noZone, g.full, g.empty, g.fullRun, g.emptyRun, g.branch,
		g.compactions, g.problem, g.problemSep, g.hint, g.approx, g.sep, g.ellipsis, g.hintText}
	fields = append(fields, g.zoneText[:]...)
	v := dumbView()
	v.Tier = "imminent"
	v.Problems = []string{"config.toml:4:1 unknown key 'colour'"}
	for _, w := range []int{0, 200, 60, 20, 5, 2} {
		fields = append(fields, Render(v, Options{Profile: termcolor.Ascii, Glyphs: "ascii", Width: w}))
	}
	fields = append(fields, Render(View{}, Options{Profile: termcolor.Ascii, Glyphs: "ascii"}))
	for _, s := range fields {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				t.Errorf("non-ASCII byte in ascii output %q", s)
				break
			}
		}
	}
}

// TestProblemsNeverHidden: problems are shown even when the layout leaves their segment out.
func TestProblemsNeverHidden(t *testing.T) {
	got := Render(View{Model: "Opus 5.5", Problems: []string{"p1"}}, Options{Profile: termcolor.Ascii, Lines: [][]string{{"model"}}})
	if got != "Opus 5.5 · ⚠ p1" {
		t.Errorf("problems left out of the layout: %q", got)
	}
}

// TestResumeSegment: the resume verdict shows as "on plan" or "OFF PLAN", nothing without one.
func TestResumeSegment(t *testing.T) {
	for _, tt := range []struct{ resume, want, not string }{
		{ResumeOnPlan, "on plan", "OFF PLAN"},
		{ResumeOffPlan, "OFF PLAN", "on plan"},
		{"", "", "plan"},
		{"garbage", "", "plan"},
	} {
		v := View{Zone: zones.Smart, Tokens: 1000, Window: 200_000, Resume: tt.resume}
		line := Render(v, Options{Profile: termcolor.Ascii, Lines: [][]string{{"zone", "resume"}}, Width: 80})
		if !strings.Contains(line, tt.want) || strings.Contains(line, tt.not) {
			t.Errorf("resume %q: %q", tt.resume, line)
		}
	}
}
