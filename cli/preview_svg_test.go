package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
)

func TestParseSGR(t *testing.T) {
	basic := func(n int, code string) termcolor.Color {
		return termcolor.Color{Kind: termcolor.ColorBasic, N: n, Code: code}
	}
	tests := []struct {
		name string
		in   string
		want []svgRun
		cols int
	}{
		{"plain", "ab", []svgRun{{text: "ab", col: 0}}, 2},
		{"16 colours and reset", "\x1b[32mok\x1b[0m x", []svgRun{{text: "ok", Style: termcolor.Style{FG: basic(2, "32")}}, {text: " x", col: 2}}, 4},
		{"bold red", "\x1b[1;31mD\x1b[0m", []svgRun{{text: "D", Style: termcolor.Style{FG: basic(1, "31"), Bold: true}}}, 1},
		{"dim then normal", "\x1b[2m▱\x1b[22m▰", []svgRun{{text: "▱", Style: termcolor.Style{Dim: true}}, {text: "▰", col: 1}}, 2},
		{"bright and bg", "\x1b[91;44mx", []svgRun{{text: "x", Style: termcolor.Style{FG: basic(9, "91"), BG: basic(4, "44")}}}, 1},
		{"italic, underline", "\x1b[3;4mi\x1b[23;24mj", []svgRun{{text: "i", Style: termcolor.Style{Italic: true, Underline: true}}, {text: "j", col: 1}}, 2},
		{"empty params reset", "\x1b[31ma\x1b[mb", []svgRun{{text: "a", Style: termcolor.Style{FG: basic(1, "31")}}, {text: "b", col: 1}}, 2},
		{"other escapes dropped", "a\x1b[2Kb", []svgRun{{text: "a"}, {text: "b", col: 1}}, 2},
		{"wide rune", "界x", []svgRun{{text: "界x"}}, 3},
	}
	for _, tt := range tests {
		got, cols := parseSGR(tt.in, 0)
		if !reflect.DeepEqual(got, tt.want) || cols != tt.cols {
			t.Errorf("%s: parseSGR(%q) = %+v, %d; want %+v, %d", tt.name, tt.in, got, cols, tt.want, tt.cols)
		}
	}
}

// TestSVGColor: the colours of the picture, by the SGR code that set them (the 16 colours from
// its own palette).
func TestSVGColor(t *testing.T) {
	for code, want := range map[string]string{
		"31": "#e06c75", "38;5;1": "#e06c75", "38;5;16": "#000000", "38;5;196": "#ff0000", "38;5;203": "#ff5f5f",
		"38;5;221": "#ffd75f", "38;5;232": "#080808", "38;5;246": "#949494", "38;5;255": "#eeeeee", "38;5;256": "",
		"38;5;114": "#87d787", "38;2;240;98;90": "#f0625a", "1;38;2;240;98;90": "#f0625a", "39": "",
	} {
		runs, _ := parseSGR("\x1b["+code+"mx", 0)
		if got := svgColor(runs[0].FG); got != want {
			t.Errorf("SGR %s: %q, want %q", code, got, want)
		}
	}
}

// TestPreviewSVG checks that the picture is deterministic, escapes text, and that
// docs/zones.svg is what the current renderer draws on the defaults.
func TestPreviewSVG(t *testing.T) {
	e, out, errb := testEnv(t, nil, map[string]string{"NO_COLOR": "1", "ZONELINE_CONFIG": "$DIR/none/config.toml"})
	p1 := filepath.Join(t.TempDir(), "a.svg")
	p2 := filepath.Join(t.TempDir(), "b.svg")
	if code := e.Run([]string{"preview", "-svg", p1}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if !strings.Contains(out.String(), "wrote "+p1) {
		t.Errorf("stdout: %s", out)
	}
	e.Run([]string{"preview", "-svg", p2})
	a, _ := os.ReadFile(p1)
	b, _ := os.ReadFile(p2)
	if string(a) != string(b) {
		t.Errorf("two renders differ")
	}
	svg := string(a)
	for _, want := range []string{"<svg ", "SMART", "WARN", "DUMB", `fill="#7ed076"`, `font-weight="bold"`, "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q (NO_COLOR must not turn its colours off)", want)
		}
	}
	if strings.Contains(svg, "\x1b") {
		t.Errorf("escape codes leaked into the picture")
	}
	if got := renderSVG([]svgRow{{label: "a<b", line: "x & \"y\""}}, 0); !strings.Contains(string(got), "a&lt;b") || !strings.Contains(string(got), "x &amp; &quot;y&quot;") {
		t.Errorf("not escaped: %s", got)
	}
	docs, err := os.ReadFile(filepath.Join("..", "docs", "zones.svg"))
	if err != nil {
		t.Fatalf("docs/zones.svg: %v", err)
	}
	if string(docs) != svg {
		t.Errorf("docs/zones.svg is not what the renderer draws now; regenerate it: ZONELINE_CONFIG=/nonexistent go run ./cmd/zoneline preview -svg docs/zones.svg")
	}
}
