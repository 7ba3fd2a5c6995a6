package tune

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"

	"github.com/zoneline/zoneline/tune/internal/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenReport scans a fixed set of generated sessions: a Sonnet user who auto-compacts, one
// who compacts by hand, and an Opus 1M session.
func goldenReport(t *testing.T) *Report {
	t.Helper()
	dir := t.TempDir()
	writeSession(t, dir, "auto", autoSession(1))
	var evs []gen.Event
	for k := int64(0); k < 4; k++ {
		for ctx := int64(10_000); ctx <= 120_000+10_000*k; ctx += 10_000 {
			evs = append(evs, gturn(ctx))
		}
		evs = append(evs, compact("auto", 120_120+10_000*k, 5_000))
	}
	for _, at := range []int64{90_000, 100_000, 140_000} {
		for ctx := int64(20_000); ctx <= at; ctx += 20_000 {
			evs = append(evs, gturn(ctx))
		}
		evs = append(evs, compact("manual", at+120, 8_000))
	}
	writeSession(t, dir, "mixed", gen.Session{Model: sonnet, Events: evs, Seed: 11})
	writeSession(t, dir, "opus", gen.Session{Model: "claude-opus-5-5", Events: gen.Turns(40, 20_000, 15_000, 0), Seed: 12})
	return run(t, dir)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tune -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./tune -run %s -update to accept):\n%s", name, t.Name(), got)
	}
}

func TestChartGolden(t *testing.T) {
	rep := goldenReport(t)
	var ascii, uni bytes.Buffer
	Render(&ascii, rep, ChartOptions{Profile: termcolor.Ascii, ASCII: true})
	golden(t, "chart-ascii.golden", ascii.Bytes())
	Render(&uni, rep, ChartOptions{Profile: termcolor.Ascii})
	golden(t, "chart-unicode.golden", uni.Bytes())
	if bytes.ContainsRune(ascii.Bytes(), 0x1b) || bytes.ContainsRune(uni.Bytes(), 0x1b) {
		t.Error("the Ascii profile wrote an escape code")
	}
	for _, r := range ascii.String() {
		if r > 0x7e {
			t.Errorf("ASCII chart holds %q", r)
			break
		}
	}
	var colour bytes.Buffer
	Render(&colour, rep, ChartOptions{Profile: termcolor.ANSI})
	if !bytes.Contains(colour.Bytes(), []byte("\x1b[31m")) || !bytes.Contains(colour.Bytes(), []byte("\x1b[35;1m")) {
		t.Error("ANSI chart: want red bars (dumb) and a bold magenta auto-compact mark")
	}
}

func TestSVGGolden(t *testing.T) {
	rep := goldenReport(t)
	var a, b bytes.Buffer
	if err := SVG(&a, rep); err != nil {
		t.Fatal(err)
	}
	SVG(&b, goldenReport(t))
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two SVGs of the same transcripts differ")
	}
	golden(t, "chart.svg", a.Bytes())
}
