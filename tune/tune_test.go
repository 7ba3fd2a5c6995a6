package tune

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/tune/internal/gen"
)

const sonnet = "claude-sonnet-4-5-20250929"

func gturn(ctx int64) gen.Event { return gen.Event{Kind: gen.Turn, Context: ctx} }

func compact(trigger string, pre, post int64) gen.Event {
	return gen.Event{Kind: gen.Compact, Trigger: trigger, Pre: pre, Post: post}
}

// writeSession writes a session under dir/projects/p/ and returns its path.
func writeSession(t *testing.T, dir, name string, s gen.Session) string {
	t.Helper()
	path := filepath.Join(dir, "projects", "-home-user-p", name+".jsonl")
	if err := gen.WriteFile(path, s); err != nil {
		t.Fatal(err)
	}
	return path
}

func run(t *testing.T, paths ...string) *Report {
	t.Helper()
	rep, err := Run(Options{Paths: paths, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func model(t *testing.T, rep *Report, name string) *Model {
	t.Helper()
	for i := range rep.Models {
		if rep.Models[i].Model == name {
			return &rep.Models[i]
		}
	}
	t.Fatalf("no model %s in %+v", name, rep.Models)
	return nil
}

// autoSession auto-compacts at a known point: eight turns 20k … 160k (a sidechain turn of 190k
// and a response written as three records in between), the compaction, then two turns.
func autoSession(seed uint64) gen.Session {
	var evs []gen.Event
	for i := int64(1); i <= 8; i++ {
		evs = append(evs, gturn(i*20_000))
		if i == 4 {
			evs = append(evs, gen.Event{Kind: gen.Turn, Context: 190_000, Sidechain: true})
			evs[len(evs)-2].Dups = 2
		}
	}
	evs = append(evs, compact("auto", 160_120, 10_000), gturn(15_000), gturn(30_000))
	return gen.Session{Model: sonnet, Events: evs, Seed: seed}
}

func TestAutoCompactKnownPoint(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "auto", autoSession(1))
	rep := run(t, filepath.Join(dir, "projects"))
	if rep.Totals.Turns != 10 || rep.Totals.Sessions != 1 || rep.Totals.Duplicates != 2 || rep.Totals.Compactions != 1 {
		t.Fatalf("totals %+v: want 10 turns (sidechain skipped, duplicates once), 1 session, 2 duplicates, 1 compaction", rep.Totals)
	}
	m := model(t, rep, sonnet)
	if m.Context.Max != 160_000 || m.Context.Min != 15_000 {
		t.Errorf("context %+v: want max 160k (the 190k sidechain is skipped), min 15k", m.Context)
	}
	if m.Auto != 1 || m.Manual != 0 || len(m.Compactions) != 1 {
		t.Fatalf("compactions %+v", m.Compactions)
	}
	c := m.Compactions[0]
	if c.PreTokens != 160_120 || c.PostTokens == nil || *c.PostTokens != 10_000 || c.Turns != 8 || c.Trigger != "auto" {
		t.Errorf("compaction %+v: want pre 160120, post 10000 after 8 turns", c)
	}
	// With -lead 3, the last threshold crossed 3 responses ahead is the 5th turn's 100k.
	if c.InTimeAt != 100_000 {
		t.Errorf("in time at %d, want 100000", c.InTimeAt)
	}
	// Defaults for Sonnet on 200k: warn 80k (4th turn: 4 responses after it), dumb = prep
	// 120k (6th turn: 2 after it, too late for -lead 3).
	want := map[string]int{"warn": 4, "dumb": 2, "prep": 2}
	for _, z := range m.Leads {
		if z.Crossed != 1 || z.Of != 1 || z.MinTurns != want[z.Zone] || z.MedianTurns != float64(want[z.Zone]) {
			t.Errorf("lead %+v: want crossed 1 of 1, %d turns", z, want[z.Zone])
		}
		if z.MedianSeconds <= 0 {
			t.Errorf("lead %+v: want a positive time", z)
		}
	}
	if m.InTime != (InTime{Warned: 0, Of: 1}) {
		t.Errorf("prep in time %+v, want 0 of 1", m.InTime)
	}
	if m.Current.Warn != 80_000 || m.Current.Dumb != 120_000 || m.Current.AutoCompact != 167_000 {
		t.Errorf("current %+v", m.Current)
	}
}

func TestManualCompactionsMoveDumb(t *testing.T) {
	dir := t.TempDir()
	var evs []gen.Event
	for _, at := range []int64{100_000, 150_000, 110_000} { // the user compacts by hand
		for ctx := int64(20_000); ctx <= at; ctx += 10_000 {
			evs = append(evs, gturn(ctx))
		}
		evs = append(evs, compact("manual", at+120, 8_000))
	}
	writeSession(t, dir, "manual", gen.Session{Model: sonnet, Events: evs, Seed: 2})
	m := model(t, run(t, dir), sonnet)
	if m.Manual != 3 || m.Auto != 0 {
		t.Fatalf("manual %d auto %d", m.Manual, m.Auto)
	}
	s := m.Suggested
	// The 25th percentile of 100k, 110k and 150k is 100k; warn keeps 80:120.
	if s.Dumb != 100_000 || s.Warn != 65_000 || s.Prep != 100_000 || s.PrepSet != "dumb" || !s.Changed {
		t.Errorf("suggested %+v: want dumb 100k, warn 65k, prep at dumb", s)
	}
	for _, why := range []string{s.WhyWarn, s.WhyDumb, s.WhyPrep} {
		if why == "" || strings.Contains(why, "\n") {
			t.Errorf("reason %q: want one line", why)
		}
	}
}

func TestDumbClampedToSaneRange(t *testing.T) {
	dir := t.TempDir()
	var evs []gen.Event
	for range 4 { // compacting at 20k every time: far below half the default
		evs = append(evs, gturn(10_000), gturn(20_000), compact("manual", 20_120, 5_000))
	}
	writeSession(t, dir, "early", gen.Session{Model: sonnet, Events: evs, Seed: 3})
	s := model(t, run(t, dir), sonnet).Suggested
	if s.Dumb != 60_000 {
		t.Errorf("dumb %d: want 60k, half the default 120k", s.Dumb)
	}
}

func TestPrepSuggestionWarnsNinetyPercentInTime(t *testing.T) {
	dir := t.TempDir()
	// Ten auto-compacted epochs climbing 10k a turn from 10k; epoch k peaks at 100k+10k·k, so
	// the highest context 3 responses before its end is 70k+10k·k: 70k … 160k.
	var evs []gen.Event
	for k := int64(0); k < 10; k++ {
		for ctx := int64(10_000); ctx <= 100_000+10_000*k; ctx += 10_000 {
			evs = append(evs, gturn(ctx))
		}
		evs = append(evs, compact("auto", 100_120+10_000*k, 5_000))
	}
	writeSession(t, dir, "ten", gen.Session{Model: sonnet, Events: evs, Seed: 4})
	m := model(t, run(t, dir), sonnet)
	if m.Auto != 10 {
		t.Fatalf("auto %d", m.Auto)
	}
	// 90 % of the ten warned: every epoch but the lowest reaches 80k three turns ahead.
	if s := m.Suggested; s.Prep != 80_000 || s.PrepSet != "80000" {
		t.Errorf("suggested prep %d (%q): want 80k\n%s", s.Prep, s.PrepSet, s.WhyPrep)
	}
	// The current prep (dumb, 120k) is crossed 3 ahead by epochs with 70k+10k·k >= 120k: 5.
	if m.InTime != (InTime{Warned: 5, Of: 10}) {
		t.Errorf("in time %+v, want 5 of 10", m.InTime)
	}
}

func TestDuplicatedFileCountsOnce(t *testing.T) {
	dir := t.TempDir()
	a := writeSession(t, dir, "a", autoSession(5))
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "projects", "-home-user-p", "b.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir)
	if rep.Totals.Turns != 10 || rep.Totals.Compactions != 1 || rep.Totals.Sessions != 1 || rep.Totals.Duplicates != 2+12 {
		t.Errorf("totals %+v: want the copy's 12 records (10 turns, 2 repeats) and its compaction skipped as duplicates", rep.Totals)
	}
}

func TestRobustOnBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := writeSession(t, dir, "good", autoSession(6))
	// A half-written last line: an assistant record cut off mid-usage, no newline.
	f, err := os.OpenFile(good, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"parentUuid":"x","isSidechain":false,"message":{"model":"` + sonnet + `","id":"msg_cut","usage":{"input_tokens":5`)
	// A huge line (over MaxLine) that would count if read: it is skipped without being held.
	huge := filepath.Join(dir, "projects", "-home-user-p", "huge.jsonl")
	h, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	h.WriteString(`{"type":"assistant","message":{"model":"` + sonnet + `","id":"msg_huge","content":"`)
	h.WriteString(strings.Repeat("x", MaxLine+10))
	h.WriteString(`","usage":{"input_tokens":199000}}}` + "\n")
	h.Close()
	f.Close()
	// A folder named like a transcript.
	if err := os.MkdirAll(filepath.Join(dir, "projects", "-home-user-p", "folder.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep := run(t, dir)
	tt := rep.Totals
	if tt.Turns != 10 || tt.BadLines != 1 || tt.HugeLines != 1 || tt.Unreadable != 1 {
		t.Errorf("totals %+v: want 10 turns, 1 bad line, 1 huge line, 1 unreadable", tt)
	}
	if len(rep.Problems) != 1 || !strings.HasSuffix(rep.Problems[0].Path, "folder.jsonl") {
		t.Errorf("problems %+v", rep.Problems)
	}
	if m := model(t, rep, sonnet); m.Context.Max != 160_000 {
		t.Errorf("max %d: the huge line must not count", m.Context.Max)
	}
}

func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "good", autoSession(7))
	locked := writeSession(t, dir, "locked", autoSession(8))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Open(locked); err == nil {
		f.Close()
		t.Skip("running as root: a chmod 000 file is still readable (TestRobustOnBadFiles covers a *.jsonl folder)")
	}
	rep := run(t, dir)
	if rep.Totals.Unreadable != 1 || rep.Totals.Turns != 10 || len(rep.Problems) != 1 {
		t.Errorf("totals %+v problems %+v: want the locked file reported, the other read", rep.Totals, rep.Problems)
	}
}

func TestVanishedFile(t *testing.T) {
	dir := t.TempDir()
	a := writeSession(t, dir, "a", autoSession(9))
	b := writeSession(t, dir, "b", autoSession(10))
	files, sizes, _, err := Find([]string{dir})
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
	os.Remove(b) // gone between listing and reading
	res := scanFiles(files, sizes, 2, nil)
	rep := analyze(Options{Lead: DefaultLead, Config: nil}.defaults(), res, nil)
	if rep.Totals.Vanished != 1 || rep.Totals.Turns != 10 || rep.Totals.Unreadable != 0 {
		t.Errorf("totals %+v: want 1 vanished, %s's 10 turns", rep.Totals, filepath.Base(a))
	}
}

func TestMissingRootFails(t *testing.T) {
	_, err := Run(Options{Paths: []string{filepath.Join(t.TempDir(), "nope")}})
	if err == nil || !strings.HasPrefix(err.Error(), "zoneline: ") {
		t.Errorf("err %v: want a zoneline: error", err)
	}
}

func TestHistogram(t *testing.T) {
	step, counts := histogram([]int64{0, 9_999, 10_000, 170_000}, 167_000)
	if step != 10_000 || len(counts) != 17 || counts[0] != 2 || counts[1] != 1 || counts[16] != 1 {
		t.Errorf("step %d counts %v", step, counts)
	}
	step, counts = histogram([]int64{900_000}, 967_000)
	if step != 50_000 || len(counts) != 20 || counts[18] != 1 {
		t.Errorf("1M: step %d counts %v", step, counts)
	}
}

func TestSymlinkedRoot(t *testing.T) {
	dir := t.TempDir()
	writeSession(t, dir, "a", autoSession(13))
	link := filepath.Join(t.TempDir(), "claude-projects")
	if err := os.Symlink(filepath.Join(dir, "projects"), link); err != nil {
		t.Skip(err)
	}
	if rep := run(t, link); rep.Totals.Turns != 10 {
		t.Errorf("through a symlinked folder: %d turns, want 10", rep.Totals.Turns)
	}
}

// TestWindowKnownOrGuessed: without the statusline's registry, a model's window is what is
// known of it (zones.ModelWindow: Opus 5.5 has 1M by default), and a model nothing is known of
// gets the 200k default, said to be a guess.
func TestWindowKnownOrGuessed(t *testing.T) {
	dir := t.TempDir()
	for i, id := range []string{"claude-opus-5-5", "claude-mystery-1", "claude-sonnet-4-5-20250929"} {
		writeSession(t, dir, id, gen.Session{Model: id, Events: []gen.Event{gturn(20_000), gturn(60_000)}, Seed: uint64(i + 1)})
	}
	rep := run(t, dir)
	for _, tt := range []struct {
		id     string
		window int64
		source string
		guess  bool
	}{
		{"claude-opus-5-5", 1_000_000, WindowModelDefault, false},
		{"claude-sonnet-4-5-20250929", 200_000, WindowModelDefault, false},
		{"claude-mystery-1", 200_000, WindowGuess, true},
	} {
		m := model(t, rep, tt.id)
		if m.Window != tt.window || m.WindowSource != tt.source || m.WindowGuess != tt.guess {
			t.Errorf("%s: window %d (%s, guess %v), want %d (%s, guess %v)", tt.id, m.Window, m.WindowSource, m.WindowGuess, tt.window, tt.source, tt.guess)
		}
	}
	var b strings.Builder
	Render(&b, rep, ChartOptions{})
	if !strings.Contains(b.String(), "claude-mystery-1 · window 200k (a guess") {
		t.Errorf("the chart does not say the unknown model's window is a guess:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "claude-opus-5-5 · window 1M (the model's default") {
		t.Errorf("the chart does not give Opus 5.5 its 1M default:\n%s", b.String())
	}
}

// TestSVGLabels: the threshold labels sit above the plot, never over a bar, and one session is
// "1 session".
func TestSVGLabels(t *testing.T) {
	dir := t.TempDir()
	var evs []gen.Event
	for i := int64(1); i <= 20; i++ {
		evs = append(evs, gturn(150_000+i*500)) // a tall bar right at the auto-compact point's left
	}
	evs = append(evs, compact("auto", 167_120, 10_000))
	writeSession(t, dir, "one", gen.Session{Model: sonnet, Events: evs, Seed: 3})
	var b strings.Builder
	if err := SVG(&b, run(t, dir)); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if !strings.Contains(svg, "· 1 session ·") || strings.Contains(svg, "1 sessions") {
		t.Errorf("the header does not say \"1 session\":\n%s", svg)
	}
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("bad number %q", s)
		}
		return f
	}
	barTop := 1e9
	for _, m := range regexp.MustCompile(`<rect x="[^"]+" y="([^"]+)" width`).FindAllStringSubmatch(svg, -1) {
		barTop = min(barTop, num(m[1]))
	}
	labels := regexp.MustCompile(`<text x="[^"]+" y="([^"]+)"[^>]*font-weight="bold"[^>]*>((?:warn|dumb|prep|auto-compact) [^<]+)</text>`).FindAllStringSubmatch(svg, -1)
	if len(labels) < 3 || barTop == 1e9 {
		t.Fatalf("found %d labels and bar top %v in:\n%s", len(labels), barTop, svg)
	}
	for _, l := range labels {
		if y := num(l[1]); y > barTop {
			t.Errorf("label %q (baseline %v) is drawn over the bars (top %v)", l[2], y, barTop)
		}
	}
}

// TestUnknownPostTokens: a boundary without postTokens (1.0.x to early 2.1.x; hand-written
// fixture in that shape) is reported as unknown: JSON null, text "155k → ?", never "→ 0".
func TestUnknownPostTokens(t *testing.T) {
	rep := run(t, "testdata/no-post-tokens.jsonl")
	m := model(t, rep, "claude-opus-4-1-20250805")
	if len(m.Compactions) != 1 || m.Compactions[0].PostTokens != nil || m.Compactions[0].PreTokens != 155_055 {
		t.Fatalf("compactions %+v: want one, pre 155055, post unknown (nil)", m.Compactions)
	}
	js, err := json.Marshal(m.Compactions[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"post_tokens":null`) {
		t.Errorf("JSON %s: want post_tokens null", js)
	}
	var text strings.Builder
	Render(&text, rep, ChartOptions{Profile: termcolor.Ascii, ASCII: true})
	if !strings.Contains(text.String(), "155k -> ?") || strings.Contains(text.String(), "-> 0") {
		t.Errorf("text lacks %q (or says -> 0):\n%s", "155k -> ?", text.String())
	}
}
