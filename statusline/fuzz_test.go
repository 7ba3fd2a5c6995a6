package statusline

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/zones"
)

// FuzzFit renders views with random text and widths and checks every line: at most the width
// (as Width measures it), valid UTF-8, every escape a complete SGR, a reset at the end when
// coloured, no control character. It also fits random text with escapes directly, and checks
// Width against uniseg (the reference, unisegWidth) on text without escapes.
func FuzzFit(f *testing.F) {
	f.Add("Opus 5.5", "project", "main", "config.toml:4:1 unknown key 'colour'", int64(142_000), 80, uint8(0))
	f.Add("模型", "プロジェクト", "機能", "", int64(9_500), 20, uint8(1))
	f.Add("Cafe\u0301", "e\u0301\u0301", "\U0001F468\u200d\U0001F469", "⚠\ufe0f", int64(1_000_000), 5, uint8(2))
	f.Add("\x1b[31mx", "a\nb", "\xff\xfe", "\u202e", int64(-1), 1, uint8(3))
	f.Add("", "", "", "", int64(0), 0, uint8(4))
	f.Add("Opus 5.5", "project", "main", "", int64(142_000), 3, uint8(6))  // COLUMNS=5: the zone's dot
	f.Add("Opus 5.5", "project", "main", "x", int64(142_000), 1, uint8(7)) // one East-Asian cell
	f.Add("Opus 5.5", "project", "main", "x", int64(142_000), 6, uint8(8))
	f.Fuzz(func(t *testing.T, model, dir, branch, problem string, tokens int64, width int, knobs uint8) {
		width %= 300
		ea := knobs&1 != 0
		v := View{
			Zone: zones.Zone(knobs >> 1 % 4), Tokens: tokens, Window: 200_000,
			Compact: zones.Compact{Enabled: true, Point: 167_000, Source: "default", Estimate: true},
			Model:   model, Dir: dir, Branch: branch, Compactions: int(knobs % 3),
		}
		if problem != "" {
			v.Problems = []string{problem}
		}
		if knobs&8 != 0 {
			v.Tier = "dumb"
		}
		p := allProfiles[int(knobs>>4)%len(allProfiles)].p
		g := allGlyphs[int(knobs>>6)%len(allGlyphs)]
		out := Render(v, Options{Profile: p, Glyphs: g, Width: width, EastAsian: ea})
		if out == "" {
			t.Fatalf("empty render")
		}
		for _, line := range strings.Split(out, "\n") {
			checkLine(t, line, width, ea)
		}
		checkZone(t, out, v.Zone, g, width, ea)
		if p == termcolor.Ascii && strings.Contains(out, "\x1b") {
			t.Fatalf("escape with the Ascii profile: %q", out)
		}

		// Fit on styled text built from the random strings.
		s := "\x1b[1;31m" + clean(model) + "\x1b[0m " + clean(dir) + "\x1b[2m" + clean(branch) + sgrReset
		if width > 0 {
			fitted := Fit(s, width, "…", ea)
			if w := Width(fitted, ea); w > width {
				t.Fatalf("Fit(%q, %d) = %q is %d wide", s, width, fitted, w)
			}
			if err := checkEscapes(fitted); err != "" {
				t.Fatalf("Fit(%q, %d) = %q: %s", s, width, fitted, err)
			}
		}
		// Raw text: valid UTF-8 in, valid UTF-8 out; width bounded.
		if width > 0 {
			raw := Fit(model, width, "…", ea)
			if utf8.ValidString(model) && !utf8.ValidString(raw) {
				t.Fatalf("Fit(%q, %d) = %q: invalid UTF-8", model, width, raw)
			}
			if w := Width(raw, ea); w > width {
				t.Fatalf("Fit(%q, %d) = %q is %d wide", model, width, raw, w)
			}
		}
		// Reference: without escapes, Width is uniseg's width.
		if !strings.Contains(model, "\x1b") {
			if got, want := Width(model, ea), unisegWidth(model, ea); got != want {
				t.Fatalf("Width(%q) = %d, uniseg %d", model, got, want)
			}
		}
	})
}
