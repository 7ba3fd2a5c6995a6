package report

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds third-party transcripts (../shared/realworld-transcripts): read in place,
// never copied into the repository.
const corpusDir = "../../shared/realworld-transcripts/transcripts"

// unpackCorpus writes the corpus's transcripts, uncompressed, into a temporary folder.
func unpackCorpus(t *testing.T) (dir string, files []string) {
	t.Helper()
	gz, _ := filepath.Glob(filepath.Join(corpusDir, "*.jsonl.gz"))
	if len(gz) == 0 {
		t.Skipf("no real-world transcripts in %s (../shared is absent here)", corpusDir)
	}
	dir = t.TempDir()
	for _, p := range gz {
		in, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(in)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(p), ".gz"))
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, zr); err != nil {
			t.Fatal(err)
		}
		f.Close()
		in.Close()
		files = append(files, out)
	}
	return dir, files
}

// independent is what the test reads from the records itself, with encoding/json.
type independent struct {
	compactions, auto, manual, summaryOnly, summaries int
	turns, calls, errors, interrupts                int64
	perModelTurns                                   map[string]int64
}

type rawRecord struct {
	Type             string `json:"type"`
	Subtype          string `json:"subtype"`
	IsSidechain      bool   `json:"isSidechain"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	CompactMetadata  *struct {
		Trigger string `json:"trigger"`
	} `json:"compactMetadata"`
	Message struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Usage   json.RawMessage `json:"usage"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type rawBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	IsError bool            `json:"is_error"`
	Content json.RawMessage `json:"content"`
}

// count reads one transcript as plain JSON: compactions (boundaries, and summaries with no
// boundary before them), main-chain turns (distinct message ids), their tool_use blocks, and
// after the first turn the tool_result blocks marked is_error and the user records that say
// the user interrupted.
func (in *independent) count(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	afterBoundary, turned := false, false
	for _, line := range strings.Split(string(data), "\n") {
		var r rawRecord
		if strings.TrimSpace(line) == "" || json.Unmarshal([]byte(line), &r) != nil || r.IsSidechain {
			continue
		}
		switch {
		case r.Type == "system" && r.Subtype == "compact_boundary":
			in.compactions++
			if r.CompactMetadata != nil {
				switch r.CompactMetadata.Trigger {
				case "auto":
					in.auto++
				case "manual":
					in.manual++
				}
			}
			afterBoundary = true
			continue
		case r.Type == "user" && r.IsCompactSummary:
			in.summaries++
			if !afterBoundary {
				in.compactions++
				in.summaryOnly++
			}
		case r.Type == "assistant" && len(r.Message.Usage) > 0 && string(r.Message.Usage) != "null" && r.Message.Model != "" && r.Message.Model != "<synthetic>":
			if !ids[r.Message.ID] || r.Message.ID == "" {
				ids[r.Message.ID] = true
				in.turns++
				in.perModelTurns[r.Message.Model]++
			}
			turned = true
			var blocks []rawBlock
			json.Unmarshal(r.Message.Content, &blocks)
			for _, b := range blocks {
				if b.Type == "tool_use" {
					in.calls++
				}
			}
		case r.Type == "user" && turned:
			var blocks []rawBlock
			var text string
			if json.Unmarshal(r.Message.Content, &text) != nil {
				json.Unmarshal(r.Message.Content, &blocks)
			}
			for _, b := range blocks {
				text += b.Text + string(b.Content)
				if b.Type == "tool_result" && b.IsError {
					in.errors++
				}
			}
			if strings.Contains(text, "[Request interrupted by user") {
				in.interrupts++
			}
		}
		afterBoundary = false
	}
}

func TestCorpus(t *testing.T) {
	dir, files := unpackCorpus(t)
	want := independent{perModelTurns: map[string]int64{}}
	for _, f := range files {
		want.count(t, f)
	}
	rep := run(t, Options{Paths: []string{dir}})
	c := rep.Compactions
	if c.Total != want.compactions || c.Auto != want.auto || c.Manual != want.manual || c.Unknown != want.summaryOnly {
		t.Errorf("compactions %d (%d auto, %d manual, %d by summary only), independent count %d (%d, %d, %d)",
			c.Total, c.Auto, c.Manual, c.Unknown, want.compactions, want.auto, want.manual, want.summaryOnly)
	}
	if rep.Lost.Summaries != want.summaries {
		t.Errorf("summaries %d, independent count %d", rep.Lost.Summaries, want.summaries)
	}
	var errs, intr int64
	for _, m := range rep.Zones {
		for _, z := range m.Zones {
			errs += z.Errors
			intr += z.Interrupts
		}
		if m.Turns != want.perModelTurns[m.Model] {
			t.Errorf("%s: %d turns, independent count %d", m.Model, m.Turns, want.perModelTurns[m.Model])
		}
	}
	if rep.Totals.Turns != want.turns || rep.Totals.ToolCalls != want.calls || errs != want.errors || intr != want.interrupts {
		t.Errorf("turns %d, tool calls %d, errors %d, interruptions %d; independent count %d, %d, %d, %d",
			rep.Totals.Turns, rep.Totals.ToolCalls, errs, intr, want.turns, want.calls, want.errors, want.interrupts)
	}
	if rep.Totals.Files != len(files) || rep.Totals.Unreadable != 0 {
		t.Errorf("files %d (unreadable %d), want %d", rep.Totals.Files, rep.Totals.Unreadable, len(files))
	}
	t.Logf("%d transcripts: %d compactions (%d auto, %d manual, %d by summary only), %d turns, %d tool calls, %d errors, %d interruptions; %s",
		len(files), c.Total, c.Auto, c.Manual, c.Unknown, want.turns, want.calls, errs, intr, rep.Lost.Line)
}
