package statusline

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/zones"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenViews are the full renders kept under testdata/<name>.golden.
func goldenViews() map[string]View {
	smart := dumbView()
	smart.Zone, smart.Tokens, smart.Compactions = zones.Smart, 42_000, 0
	warn := dumbView()
	warn.Zone, warn.Tokens = zones.Warn, 95_500
	dumb := fitView()
	unknown := View{Window: 200_000, Compact: dumbView().Compact, Model: "Opus 5.5", Dir: "project", Branch: "main"}
	million := View{
		Zone: zones.Dumb, Tokens: 1_250_000 / 2, Window: 1_000_000,
		Compact: zones.Compact{Enabled: true, Point: 967_000, Source: "default", Estimate: true},
		Model:   "Opus 5.5", Dir: "zoneline", Branch: "feature/fit", Compactions: 1,
	}
	due := dumbView()
	due.Tokens, due.Tier = 171_000, "imminent"
	off := dumbView()
	off.Compact = zones.Compact{Source: "env DISABLE_COMPACT"}
	off.Branch = "0123abc"
	wide := fitView()
	wide.Model, wide.Dir, wide.Branch = "模型 Opus", "プロジェクト", "機能/ブランチ"
	return map[string]View{
		"smart": smart, "warn": warn, "dumb": dumb, "unknown": unknown,
		"million": million, "due": due, "autocompact-off": off, "wide-text": wide,
	}
}

// renderGolden renders v in every glyph set and profile, unfitted and at a few widths, one
// block per combination; ESC is written as \e so the file reads as text.
func renderGolden(v View) string {
	var b strings.Builder
	for _, g := range allGlyphs {
		for _, p := range allProfiles {
			for _, w := range []int{0, 80, 40} {
				for _, ea := range []bool{false, true} {
					if ea && (p.name != "none" || w == 0) {
						continue // East-Asian width only changes the fitting
					}
					fmt.Fprintf(&b, "## glyphs=%s color=%s width=%d eastasian=%v\n", g, p.name, w, ea)
					out := Render(v, Options{Profile: p.p, Glyphs: g, Width: w, EastAsian: ea})
					b.WriteString(strings.ReplaceAll(out, "\x1b", `\e`))
					b.WriteString("\n")
				}
			}
		}
	}
	// Two lines.
	fmt.Fprintf(&b, "## glyphs=unicode color=16 width=0 lines=[zone tokens bar percent] [compact model dir branch problems]\n")
	out := Render(v, Options{Profile: allProfiles[1].p, Lines: [][]string{{"zone", "tokens", "bar", "percent"}, {"compact", "model", "dir", "branch", "problems"}}})
	b.WriteString(strings.ReplaceAll(out, "\x1b", `\e`))
	b.WriteString("\n")
	return b.String()
}

func TestGolden(t *testing.T) {
	for name, v := range goldenViews() {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name+".golden")
			got := renderGolden(v)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the render (go test -run TestGolden -update to accept):\n%s", path, diff(string(want), got))
			}
		})
	}
}

// diff returns the first differing lines of want and got.
func diff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %s\n got %s", i+1, w, g)
		}
	}
	return ""
}
