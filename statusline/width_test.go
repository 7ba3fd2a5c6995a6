package statusline

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

// unisegWidth is the reference measure: uniseg's width of each grapheme cluster of s, capped at
// two cells (eachCluster's rule), East-Asian ambiguous runes two cells wide when eastAsian.
func unisegWidth(s string, eastAsian bool) int {
	unisegMu.Lock()
	defer unisegMu.Unlock()
	uniseg.EastAsianAmbiguousWidth = 1
	if eastAsian {
		uniseg.EastAsianAmbiguousWidth = 2
	}
	w, state := 0, -1
	for s != "" {
		var c string
		c, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		w += min(uniseg.StringWidth(c), 2)
	}
	return w
}

func TestGlyphWidthsMatchUniseg(t *testing.T) {
	for _, g := range []*glyphs{glyphSet("unicode"), glyphSet("ascii"), glyphSet("nerd")} {
		all := strings.Join([]string{g.zone, g.unknown, g.noZone, g.full, g.empty, g.branch, g.compactions,
			g.problem, g.problemSep, g.hint, g.approx, g.sep, g.ellipsis, separatorGlyphs, extraGlyphs}, "")
		for _, r := range all {
			if r < utf8.RuneSelf {
				continue
			}
			for _, ea := range []bool{false, true} {
				w, ok := glyphWidth(r, ea)
				if !ok {
					t.Errorf("glyph %q (%U) is not in glyphWidth: the render would ask uniseg", r, r)
					continue
				}
				if want := unisegWidth(string(r), ea); w != want {
					t.Errorf("glyphWidth(%U, %v) = %d, uniseg says %d", r, ea, w, want)
				}
			}
		}
	}
}

func TestFastWidthMatchesUniseg(t *testing.T) {
	// Random strings of ASCII and the fixed glyphs: the fast path must agree with uniseg.
	alphabet := []rune("ab ~/%;:·●○▰▱⎇↻⚠⚑…\ue0a0\uf021\uf071\uf024\r\n\t" + separatorGlyphs)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		for _, ea := range []bool{false, true} {
			w, exact := fastWidth(s, ea)
			if !exact {
				t.Fatalf("fastWidth(%q) not exact", s)
			}
			if want := unisegWidth(s, ea); w != want {
				t.Fatalf("fastWidth(%q, %v) = %d, uniseg %d", s, ea, w, want)
			}
		}
	}
}

func TestWidth(t *testing.T) {
	tests := []struct {
		s        string
		narrow   int
		eastAsia int
	}{
		{"", 0, 0},
		{"abc", 3, 3},
		{"\x1b[1;31mabc\x1b[0m", 3, 3},
		{"\x1b[38;2;1;2;3m●\x1b[0m DUMB", 6, 7},
		{"●○…·", 4, 8},
		{"▰▱⎇↻⚠⚑", 6, 6},
		{"日本", 4, 4},
		{"e\u0301", 1, 1},
		{"a\x1b[31m", 1, 1},
		{"\x1b]8;;http://x\x07link\x1b]8;;\x1b\\", 4, 4},
		{"\x1b[31", 0, 0},      // unterminated CSI: the rest is the sequence
		{"a\x1bb", 1, 1},       // a two-byte escape
		{"tab\there", 7, 7},    // controls have no width
		{"\U0001F600", 2, 2},   // emoji
		{"⚠\ufe0f", 2, 2},      // emoji presentation (go-runewidth, before uniseg, said 1)
		{"\xff", 1, 2},         // invalid byte: U+FFFD, ambiguous
		{"\ue0a0 main", 6, 7},  // nerd branch, private use: ambiguous
		{"Ópus 日本語 ß", 13, 14}, // mixed; ß is ambiguous (go-runewidth, before uniseg, said 13)
	}
	for _, tt := range tests {
		if got := Width(tt.s, false); got != tt.narrow {
			t.Errorf("Width(%q, false) = %d, want %d", tt.s, got, tt.narrow)
		}
		if got := Width(tt.s, true); got != tt.eastAsia {
			t.Errorf("Width(%q, true) = %d, want %d", tt.s, got, tt.eastAsia)
		}
	}
}

func TestTruncateText(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		ea   bool
		want string
	}{
		{"abc", 2, false, "ab"},
		{"abc", 0, false, ""},
		{"abc", 5, false, "abc"},
		{"日本語", 3, false, "日"}, // never half a wide glyph
		{"日本語", 4, false, "日本"},
		{"e\u0301e\u0301", 1, false, "e\u0301"}, // the combining mark stays with its base
		{"e\u0301e\u0301", 2, false, "e\u0301e\u0301"},
		{"●●●", 3, true, "●"},
		{"●●●", 2, false, "●●"},
		{"a\U0001F468\u200d\U0001F469\u200d\U0001F467b", 2, false, "a"}, // a ZWJ family is one 2-cell cluster
		{"a\U0001F468\u200d\U0001F469\u200d\U0001F467b", 3, false, "a\U0001F468\u200d\U0001F469\u200d\U0001F467"},
		{"\U0001F1EB\U0001F1F7x", 1, false, ""}, // a flag is two runes, one cluster
	}
	for _, tt := range tests {
		if got := truncateText(tt.s, tt.w, tt.ea); got != tt.want {
			t.Errorf("truncateText(%q, %d, %v) = %q, want %q", tt.s, tt.w, tt.ea, got, tt.want)
		}
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		s        string
		w        int
		ellipsis string
		ea       bool
		want     string
	}{
		{"hello", 5, "…", false, "hello"},
		{"hello", 0, "…", false, ""},
		{"hello", -1, "…", false, ""},
		{"hello world", 6, "…", false, "hello…"},
		{"hello world", 6, "...", false, "hel..."},
		{"hello world", 2, "...", false, "he"}, // the ellipsis does not fit: cut without it
		{"hello world", 1, "…", true, "h"},     // "…" is two cells East-Asian
		{"\x1b[31mhello world\x1b[0m", 5, "…", false, "\x1b[31mhell…\x1b[0m"},
		{"\x1b[31mab\x1b[0m\x1b[32mcdef\x1b[0m", 3, "…", false, "\x1b[31mab\x1b[0m\x1b[32m…\x1b[0m"},
		{"日本語", 4, "…", false, "日…"},
		{"日本語", 3, "…", false, "日…"},
		{"日本語", 2, "…", false, "…"},
		{"ab cd", 4, "…", false, "ab…"}, // the space before the ellipsis goes
		// A cut inside an OSC 8 hyperlink closes it before the reset; after its end, nothing to close.
		{"\x1b]8;;https://x\x1b\\long link text\x1b]8;;\x1b\\ tail", 6, "…", false, "\x1b]8;;https://x\x1b\\long…\x1b]8;;\x1b\\\x1b[0m"},
		{"\x1b]8;;https://x\x07ab\x1b]8;;\x07 tail end", 6, "…", false, "\x1b]8;;https://x\x07ab\x1b]8;;\x07 ta…\x1b[0m"},
	}
	for _, tt := range tests {
		got := Fit(tt.s, tt.w, tt.ellipsis, tt.ea)
		if got != tt.want {
			t.Errorf("Fit(%q, %d, %q, %v) = %q, want %q", tt.s, tt.w, tt.ellipsis, tt.ea, got, tt.want)
		}
		if tt.w > 0 && Width(got, tt.ea) > tt.w {
			t.Errorf("Fit(%q, %d) is %d wide", tt.s, tt.w, Width(got, tt.ea))
		}
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"Ópus 日本", "Ópus 日本"},
		{"a\x1b[31mb", "a[31mb"},
		{"a\nb\tc\r", "a b c "},
		{"a\u0085b\u009bc", "abc"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
		{"rtl\u202eevil", "rtlevil"},
		{"a\u2028b", "a b"},
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = clean("Opus 5.5 ⎇ 日本") }); n != 0 {
		t.Errorf("clean of clean text allocates %v times", n)
	}
}

func TestCommonRenderSkipsUniseg(t *testing.T) {
	v := dumbView()
	v.Tier = "dumb"
	v.Problems = []string{"config.toml:4:1 unknown key 'colour'"}
	accented := dumbView()
	accented.Model, accented.Dir, accented.Branch = "Ópus 5.5", "projé", "fix/ü"
	cases := []struct {
		name string
		v    View
		o    Options
	}{
		{"unicode no width", v, Options{Profile: termcolor.ANSI256}},
		{"unicode pane 198", v, Options{Profile: termcolor.ANSI256, Width: 198}},
		{"unicode east-asian", v, Options{Profile: termcolor.TrueColor, Width: 198, EastAsian: true}},
		{"nerd", v, Options{Glyphs: "nerd", Width: 198}},
		{"ascii", v, Options{Glyphs: "ascii", Width: 198}},
		{"unicode narrow, ASCII text", v, Options{Width: 40}},
		{"accented text, wide pane", accented, Options{Width: 198}},
		{"separator glyph", v, Options{Width: 198, Separator: " │ "}},
		{"unknown separator, no width", v, Options{Separator: " ▶ "}},
		{"unknown zone", View{Model: "Opus 5.5"}, Options{Width: 198}},
	}
	for _, c := range cases {
		before := unisegWalks.Load()
		Render(c.v, c.o)
		if n := unisegWalks.Load() - before; n != 0 {
			t.Errorf("%s: %d walks through uniseg", c.name, n)
		}
	}
	// Fitting non-ASCII dynamic text does measure it.
	before := unisegWalks.Load()
	Render(accented, Options{Width: 30})
	if unisegWalks.Load() == before {
		t.Error("fitting accented text did not measure it with uniseg")
	}
}

// fitView is the dumb view with a tier and a problem: the widest default line.
func fitView() View {
	v := dumbView()
	v.Tier = "dumb"
	v.Problems = []string{"config.toml:4:1 unknown key 'colour'"}
	return v
}

// TestProblemYields (issue 25: a config typo at 80 columns showed "● DUMB · ⚑ /compact-prep ·
// ⚠ config.toml:1:1: unknown key 'colour' (did you mea…" and no tokens): the ⚠ segment shortens
// first, then is cut, and keeps every one of the zone, the tokens and the distance to compact
// that the line without it keeps; its mark always shows.
func TestProblemYields(t *testing.T) {
	v := fitView()
	v.Problems = []string{"config.toml:1:1: unknown key 'colour' (did you mean 'color'?)"}
	plain := fitView()
	plain.Problems = nil
	for _, w := range []int{40, 80, 120} {
		o := Options{Profile: termcolor.Ascii, Width: w}
		got, without := Render(v, o), Render(plain, o)
		for _, part := range []string{"DUMB", "142k/200k", "to compact", "/compact-prep"} {
			if strings.Contains(without, part) && !strings.Contains(got, part) {
				t.Errorf("width %d: the ⚠ pushed out %q:\n %q\nwithout it %q", w, part, got, without)
			}
		}
		if !strings.Contains(got, "⚠") || Width(got, false) > w {
			t.Errorf("width %d: %q (%d cells)", w, got, Width(got, false))
		}
		if w >= 80 && !strings.Contains(got, "⚠ zoneline config check") && !strings.Contains(got, "unknown key 'colour'") {
			t.Errorf("width %d: neither the problem nor the command that tells more: %q", w, got)
		}
	}
	// The short form names the command for the problem's kind, and counts the rest.
	for _, tt := range []struct {
		problems []string
		want     string
	}{
		{[]string{"config.toml:1:1: unknown key 'colour'", "payload: empty payload"}, "⚠ zoneline config check +1"},
		{[]string{"HOME is relative: ignored", "ZONELINE_CONFIG is relative: ignored", "payload: empty payload"}, "⚠ HOME is relative: ignored +2"},
	} {
		v.Problems = tt.problems
		got := Render(v, Options{Profile: termcolor.Ascii, Width: 90})
		if !strings.HasSuffix(got, tt.want) {
			t.Errorf("%q at 90: %q, want it to end %q", tt.problems, got, tt.want)
		}
	}
}

func TestFitWidths(t *testing.T) {
	want := map[int]string{
		200: "● DUMB 142k/200k ▰▰▰▰▰▰▰▱▱▱ 71% · ~25k to compact · ⚑ /compact-prep · Opus 5.5 · project ⎇ main · ↻2 · ⚠ config.toml:4:1 unknown key 'colour'",
		0:   "● DUMB 142k/200k ▰▰▰▰▰▰▰▱▱▱ 71% · ~25k to compact · ⚑ /compact-prep · Opus 5.5 · project ⎇ main · ↻2 · ⚠ config.toml:4:1 unknown key 'colour'",
		120: "● DUMB 142k/200k 71% · ~25k to compact · ⚑ /compact-prep · Opus 5.5 · project ⎇ main · ⚠ zoneline config check",
		80:  "● DUMB 142k/200k · ~25k to compact · ⚑ /compact-prep · ⚠ zoneline config check",
		60:  "● DUMB 142k/200k · ~25k to compact · ⚑ /compact-prep · ⚠ zo…",
		40:  "● DUMB 142k/200k · ⚑ /compact-prep · ⚠ …",
		20:  "● DUMB · ⚑ /compact…",
		7:   "● DUMB…",
		6:   "● DUMB", // the zone word whole rather than the ellipsis after it
		5:   "●",      // never "● DU…": the dot alone, in the zone's colour
		3:   "●",      // COLUMNS=5 with the default indent
		1:   "●",
	}
	for w, s := range want {
		if got := Render(fitView(), Options{Profile: termcolor.Ascii, Width: w}); got != s {
			t.Errorf("width %d:\n got %q\nwant %q", w, got, s)
		}
	}
	// Without the problem, the segments go lowest priority first.
	plainWant := map[int]string{
		80: "● DUMB 142k/200k ▰▰▰▰▰▰▰▱▱▱ 71% · ~25k to compact · Opus 5.5 · project ⎇ main",
		60: "● DUMB 142k/200k 71% · ~25k to compact · Opus 5.5 · project",
		40: "● DUMB 142k/200k 71% · ~25k to compact",
		20: "● DUMB 142k/200k",
		10: "● DUMB",
		6:  "● DUMB",
		5:  "●",
		2:  "●",
		1:  "●",
	}
	for w, s := range plainWant {
		if got := Render(dumbView(), Options{Profile: termcolor.Ascii, Width: w}); got != s {
			t.Errorf("no problem, width %d:\n got %q\nwant %q", w, got, s)
		}
	}
}

func TestFitInvariants(t *testing.T) {
	cjk := fitView()
	cjk.Model, cjk.Dir, cjk.Branch = "模型 Opus", "プロジェクト", "機能/ブランチ"
	marks := fitView()
	marks.Model, marks.Dir = "Cafe\u0301 mode\u0300le", "e\u0301\u0301\u0301\u0301\u0301"
	emoji := fitView()
	emoji.Branch, emoji.Problems = "fix-\U0001F468\u200d\U0001F469\u200d\U0001F467-\U0001F1EB\U0001F1F7", []string{"⚠\ufe0f a", "b\x1b[31m"}
	views := map[string]View{"dumb": fitView(), "plain": dumbView(), "unknown": {}, "cjk": cjk, "marks": marks, "emoji": emoji}
	for name, v := range views {
		for _, p := range allProfiles {
			for _, g := range allGlyphs {
				for _, ea := range []bool{false, true} {
					for _, w := range []int{200, 80, 60, 40, 20, 8, 7, 6, 5, 4, 3, 2, 1, 0} {
						out := Render(v, Options{Profile: p.p, Glyphs: g, Width: w, EastAsian: ea})
						if out == "" {
							t.Errorf("%s/%s/%s/%d: empty line", name, p.name, g, w)
						}
						checkLine(t, out, w, ea)
						checkZone(t, out, v.Zone, g, w, ea)
						if w >= 40 && len(v.Problems) > 0 && !strings.Contains(out, strings.TrimSpace(glyphSet(g).problem)) {
							t.Errorf("%s/%s/%s/%d: problems dropped: %q", name, p.name, g, w, out)
						}
						if v.Zone != zones.Unknown && w >= 20 && !strings.Contains(out, "DUMB") {
							t.Errorf("%s/%s/%s/%d: zone cut: %q", name, p.name, g, w, out)
						}
					}
				}
			}
		}
	}
}
