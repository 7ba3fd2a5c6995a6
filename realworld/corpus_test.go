// Package realworld tests zoneline against the public transcripts in
// ../shared/realworld-transcripts/ (46 sessions that other people published, Claude Code 1.0.48
// to 2.1.219): the status line's tokens, window and compaction count, the PreCompact snapshot's
// work in flight and tune's figures, each compared with the test's own reading of the records
// (reader_test.go: encoding/json, no zoneline code). It has no code of its own: only tests.
package realworld

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/pipeline"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/tune"
	"github.com/zoneline/zoneline/zones"
)

const corpusDir = "../../shared/realworld-transcripts"

type manifest struct {
	Transcripts []struct {
		Name string `json:"name"`
		File string `json:"file"`
	} `json:"transcripts"`
}

// corpus returns the transcripts, decompressed into a temporary folder, or skips.
func corpus(t *testing.T) (names, paths []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, "manifest.json"))
	if err != nil {
		t.Skipf("no corpus of public transcripts at %s (%v): skipped", corpusDir, err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tr := range m.Transcripts {
		f, err := os.Open(filepath.Join(corpusDir, tr.File))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatal(tr.File, err)
		}
		p := filepath.Join(dir, tr.Name+".jsonl")
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		names, paths = append(names, tr.Name), append(paths, p)
	}
	return names, paths
}

// Sampling keeps the run time modest (the CI runs it under -race on 2 cores): of the moments
// where a compaction could happen (every main-chain tool call answered), the status line is
// checked at the first one past each sixth of the file (each half under -race), at the first
// after each compaction, and at the end; the work in flight (a whole read of the transcript) at
// the same moments, or under -race only after each compaction and at the end.
func sampleParts() int {
	if raceOn {
		return 2
	}
	return 6
}

type tally struct {
	tokens, tokensOK     int // moments
	files, filesOK       int // transcripts whose every moment's tokens agree
	comps, compsOK       int // transcripts with compactions whose count agrees at every moment
	flight, flightOK     int // moments whose work in flight agrees
	items                int // background commands and subagents the transcripts start
	tuneFiles, tuneOK    int
	momentsAll, momentsN int
}

// TestCorpus runs the corpus (see sampleParts for the moments checked).
func TestCorpus(t *testing.T) {
	names, paths := corpus(t)
	var tl tally
	for i, path := range paths {
		t.Run(names[i], func(t *testing.T) { checkTranscript(t, path, &tl) })
	}
	tuneSays := "ok"
	if tl.tuneOK != tl.tuneFiles {
		tuneSays = fmt.Sprintf("%d/%d", tl.tuneOK, tl.tuneFiles)
	}
	line := fmt.Sprintf("realworld: %d/%d tokens, %d/%d compactions, %d/%d in-flight, tune %s (%d/%d moments agree; %d of %d sampled; %d background commands and subagents)",
		tl.filesOK, tl.files, tl.compsOK, tl.comps, tl.flightOK, tl.flight, tuneSays, tl.tokensOK, tl.tokens, tl.momentsN, tl.momentsAll, tl.items)
	t.Log(line)
	fmt.Println(line)
}

func checkTranscript(t *testing.T, path string, tl *tally) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Grow the file as Claude Code writes it, line by line, and check at the sampled moments.
	live := filepath.Join(t.TempDir(), "live.jsonl")
	out, err := os.Create(live)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	f := newFacts()
	ls := lines(data)
	parts, part, written, comps := sampleParts(), 1, 0, 0
	tokensOK, compsOK := true, true
	for i, ln := range ls {
		moment := f.fold(ln)
		out.Write(ln)
		out.Write([]byte{'\n'})
		written += len(ln) + 1
		last := i == len(ls)-1
		if moment {
			tl.momentsAll++
		}
		afterCompaction := moment && f.compactions > comps
		byPart := moment && written*parts >= part*len(data)
		if !afterCompaction && !byPart && !last {
			continue
		}
		for written*parts >= part*len(data) {
			part++
		}
		comps = f.compactions
		tl.momentsN++
		at := fmt.Sprintf("line %d", i+1)
		r := render(t, live, f.model)
		tl.tokens++
		known := r.View.Zone != zones.Unknown
		switch {
		case known != f.tokensKnown || known && r.View.Tokens != f.tokens:
			tokensOK = false
			t.Errorf("%s: status line tokens %d (known %v), want %d (known %v)", at, r.View.Tokens, known, f.tokens, f.tokensKnown)
		case known && f.tokens <= zones.OneMillionWindow && r.View.Window < f.tokens:
			tokensOK = false
			t.Errorf("%s: %d tokens shown against a %d window", at, f.tokens, r.View.Window)
		default:
			tl.tokensOK++
		}
		if r.View.Compactions != f.compactions {
			compsOK = false
			t.Errorf("%s: ↻%d, want %d", at, r.View.Compactions, f.compactions)
		}
		if raceOn && !afterCompaction && !last {
			continue
		}
		tl.flight++
		if checkFlight(t, at, live, f) {
			tl.flightOK++
		}
	}
	tl.items += len(f.bgOrder) + len(f.agentOrder)
	tl.files++
	if tokensOK {
		tl.filesOK++
	}
	if f.compactions > 0 {
		tl.comps++
		if compsOK {
			tl.compsOK++
		}
	}
	tl.tuneFiles++
	if checkTune(t, path, f) {
		tl.tuneOK++
	}
}

// render is the status line in-process: a payload without context_window or usage (as Claude
// Code before 2.1.x sent, and the one way the transcript decides), the transcript as written so
// far.
func render(t *testing.T, path, model string) pipeline.Rendered {
	payload := `{"session_id":"730c8849-a6f0-454b-a922-063e0b765bf2","transcript_path":` + strconv.Quote(path) +
		`,"model":{"id":` + strconv.Quote(model) + `}}`
	c := &pipeline.Context{State: state.Dir{Root: filepath.Join(t.TempDir(), "state")}, Getenv: func(string) string { return "" }, Now: time.Now}
	return c.Render([]byte(payload), nil, config.Default(), nil)
}

// checkFlight compares the PreCompact snapshot's work in flight (snapshot.Take without a state
// dir: what the transcript shows) with the test's reading: the background commands and
// subagents not known to have ended, and whether plan mode is on; and its compaction count.
func checkFlight(t *testing.T, at, path string, f *facts) bool {
	snap := snapshot.Take(context.Background(), snapshot.Input{SessionID: "730c8849-a6f0-454b-a922-063e0b765bf2", Transcript: path, Now: time.Now()})
	if len(snap.Problems) > 0 || snap.InFlight == nil {
		t.Errorf("%s: snapshot problems %q", at, snap.Problems)
		return false
	}
	fl := &snap.InFlight.Flight
	ok := snap.Compactions == f.compactions
	if !ok {
		t.Errorf("%s: snapshot counts %d compactions, want %d", at, snap.Compactions, f.compactions)
	}
	var bg, ag []string
	for _, b := range fl.Background {
		if !b.Stopped {
			bg = append(bg, b.ToolUseID)
		}
	}
	for _, a := range fl.Agents {
		if !a.Finished && !a.Failed {
			ag = append(ag, a.ToolUseID)
		}
	}
	wantBg, wantAg := f.openBackground(), f.openAgents()
	if !slices.Equal(bg, wantBg) {
		ok = false
		t.Errorf("%s: background commands in flight %v, want %v", at, bg, wantBg)
	}
	if !slices.Equal(ag, wantAg) {
		ok = false
		t.Errorf("%s: subagents in flight %v, want %v", at, ag, wantAg)
	}
	if plan := fl.Mode == "plan"; plan != (f.mode == "plan") {
		ok = false
		t.Errorf("%s: plan mode %v (mode %q), want %v (mode %q)", at, plan, fl.Mode, f.mode == "plan", f.mode)
	}
	return ok
}

// checkTune compares tune's figures for the one transcript with the test's reading: the
// responses counted (deduplicated by message id), the compact_boundary records with their
// tokens (an unrecorded postTokens unknown, never 0), each model's largest context, and a
// window that holds it.
func checkTune(t *testing.T, path string, f *facts) bool {
	rep, err := tune.Run(tune.Options{Paths: []string{path}, Workers: 1})
	if err != nil {
		t.Errorf("tune: %v", err)
		return false
	}
	ok := true
	if rep.Totals.Turns != len(f.turns) || rep.Totals.Compactions != len(f.boundaries) {
		ok = false
		t.Errorf("tune: %d turns, %d compactions; want %d, %d", rep.Totals.Turns, rep.Totals.Compactions, len(f.turns), len(f.boundaries))
	}
	var got []string
	maxByModel := map[string]int64{}
	for k, ctx := range f.turns {
		m := f.turnModel[k]
		maxByModel[m] = max(maxByModel[m], ctx)
	}
	for _, m := range rep.Models {
		for _, c := range m.Compactions {
			got = append(got, cmpString(c.PreTokens, c.PostTokens))
		}
		if m.Context.Max != maxByModel[m.Model] {
			ok = false
			t.Errorf("tune: %s max context %d, want %d", m.Model, m.Context.Max, maxByModel[m.Model])
		}
		if m.Context.Max <= zones.OneMillionWindow && m.Window < m.Context.Max {
			ok = false
			t.Errorf("tune: %s window %d below its largest context %d", m.Model, m.Window, m.Context.Max)
		}
	}
	var want []string
	for _, c := range f.boundaries {
		want = append(want, cmpString(c.pre, c.post))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		ok = false
		t.Errorf("tune: compactions %v, want %v", got, want)
	}
	var text bytes.Buffer
	tune.Render(&text, rep, tune.ChartOptions{ASCII: true})
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.Contains(l, "-> 0 ") {
			ok = false
			t.Errorf("tune's text reports a compaction to 0: %q", l) // (the line only: other people's data)
		}
	}
	return ok
}

func cmpString(pre int64, post *int64) string {
	if post == nil {
		return strconv.FormatInt(pre, 10) + "→?"
	}
	return strconv.FormatInt(pre, 10) + "→" + strconv.FormatInt(*post, 10)
}
