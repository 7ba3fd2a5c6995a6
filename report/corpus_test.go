package report

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// corpusDir holds third-party transcripts (../shared/realworld-transcripts): read in place,
// never copied into the repository.
const corpusDir = "../../shared/realworld-transcripts/transcripts"

// unpackCorpus writes the corpus's transcripts, uncompressed, into a temporary folder.
func unpackCorpus(t *testing.T) (dir string, files []string) {
	t.Helper()
	dir, files = unpackCorpusTo(t, t.TempDir())
	if len(files) == 0 {
		t.Skipf("no real-world transcripts in %s (../shared is absent here)", corpusDir)
	}
	return dir, files
}

func unpackCorpusTo(t testing.TB, dir string) (string, []string) {
	t.Helper()
	var files []string
	gz, _ := filepath.Glob(filepath.Join(corpusDir, "*.jsonl.gz"))
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
	turns, calls, errors, interrupts                  int64
	perModelTurns                                     map[string]int64
	// what the summaries lost
	skillLoads, skillsNamed, noPhraseKept, phrases, phrasesKept, noText int
	pushes, pushesKept                                                  int
}

type rawRecord struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsSidechain      bool            `json:"isSidechain"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	IsMeta           bool            `json:"isMeta"`
	SourceToolUseID  string          `json:"sourceToolUseID"`
	ToolUseResult    json.RawMessage `json:"toolUseResult"`
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
	Type  string `json:"type"`
	Name  string `json:"name"`
	Input struct {
		Skill string `json:"skill"`
	} `json:"input"`
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
	var (
		loads    []corpusSkill // loaded since the last compaction
		branches []string      // pushed since the last compaction (gitOperation)
		want     string        // a skill whose body the next record may hold: "tool:" or "slash:" and its name
		// what the stretch before the last boundary loaded and pushed, for its summary
		stretch         []corpusSkill
		stretchBranches []string
	)
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
			stretch, stretchBranches = loads, branches
			loads, branches = nil, nil
			continue
		case r.Type == "user" && r.IsCompactSummary:
			in.summaries++
			if !afterBoundary {
				in.compactions++
				in.summaryOnly++
			}
			if afterBoundary {
				in.judge(stretch, stretchBranches, contentString(r.Message.Content))
			} else {
				in.judge(loads, branches, contentString(r.Message.Content))
				loads, branches = nil, nil
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
					if b.Name == "Skill" {
						loads = append(loads, corpusSkill{name: b.Input.Skill})
						want = "tool:" + b.Input.Skill
					}
				}
			}
		case r.Type == "user" && r.IsMeta:
			text := contentString(r.Message.Content)
			head, body, _ := strings.Cut(text, "\n")
			switch {
			case !strings.HasPrefix(head, "Base directory for this skill:"):
				if r.SourceToolUseID != "" && strings.HasPrefix(want, "tool:") && len(loads) > 0 {
					loads[len(loads)-1].body = text // 2.1.185: a plugin skill's body without the line
				}
			case strings.HasPrefix(want, "tool:") && len(loads) > 0:
				loads[len(loads)-1].body = body
			case strings.HasPrefix(want, "slash:"):
				loads = append(loads, corpusSkill{strings.TrimPrefix(want, "slash:"), body})
			}
			want = ""
			continue
		case r.Type == "user" && slashSkill(contentString(r.Message.Content)) != "":
			want = slashSkill(contentString(r.Message.Content))
			continue
		case r.Type == "user" && !turned:
			continue
		case r.Type == "user" && turned:
			if strings.HasPrefix(want, "slash:") {
				want = ""
			}
			var op struct {
				GitOperation struct {
					Push *struct {
						Branch string `json:"branch"`
					} `json:"push"`
				} `json:"gitOperation"`
			}
			if json.Unmarshal(r.ToolUseResult, &op) == nil && op.GitOperation.Push != nil && op.GitOperation.Push.Branch != "" {
				branches = append(branches, op.GitOperation.Push.Branch)
			}
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

type corpusSkill struct{ name, body string }

// slashSkill is "slash:<name>" for a user record that runs a slash command (its skill body,
// if it is a skill, is the isMeta record after it), else "".
func slashSkill(text string) string {
	_, rest, ok := strings.Cut(text, "<command-name>")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "</command-name>")
	return "slash:" + strings.TrimPrefix(name, "/")
}

func contentString(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text
	}
	var blocks []rawBlock
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// judge counts, for a compaction with its summary, the skills' distinct 5-word phrases (words
// lower-cased, anything but letters and digits dropped) found in the summary, and the pushed
// branches it names.
func (in *independent) judge(loads []corpusSkill, branches []string, summary string) {
	gram := func(text string) map[string]bool {
		var ws []string
		for _, f := range strings.Fields(strings.ToLower(text)) {
			w := strings.Map(func(r rune) rune {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					return r
				}
				return -1
			}, f)
			if w != "" {
				ws = append(ws, w)
			}
		}
		set := map[string]bool{}
		for i := 0; i+5 <= len(ws); i++ {
			set[strings.Join(ws[i:i+5], " ")] = true
		}
		return set
	}
	sum := gram(summary)
	lower := strings.ToLower(summary)
	for _, l := range loads {
		in.skillLoads++
		if strings.TrimSpace(l.body) == "" {
			in.noText++
		}
		kept := 0
		for p := range gram(l.body) {
			in.phrases++
			if sum[p] {
				kept++
			}
		}
		in.phrasesKept += kept
		if kept == 0 && strings.TrimSpace(l.body) != "" {
			in.noPhraseKept++
		}
		name := strings.ToLower(l.name)
		if _, short, ok := strings.Cut(name, ":"); ok {
			name = short
		}
		if strings.Contains(lower, name) {
			in.skillsNamed++
		}
	}
	for _, b := range branches {
		in.pushes++
		if strings.Contains(lower, strings.ToLower(b)) {
			in.pushesKept++
		}
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
	l := rep.Lost
	if l.SkillLoads != want.skillLoads || l.Phrases != want.phrases || l.PhrasesKept != want.phrasesKept || l.NoPhraseKept != want.noPhraseKept || l.SkillsNamed != want.skillsNamed || l.NoText != want.noText {
		t.Errorf("lost: %s; independent count: phrases kept %d of %d; skill loads with no phrase kept %d of %d; skill named %d of %d; %d without text",
			l.Line, want.phrasesKept, want.phrases, want.noPhraseKept, want.skillLoads, want.skillsNamed, want.skillLoads, want.noText)
	}
	var pushes, pushesKept int
	for _, k := range l.Actions {
		if k.Kind == "push" {
			pushes, pushesKept = k.Of, k.Kept
		}
	}
	if pushes < want.pushes || pushesKept < want.pushesKept {
		t.Errorf("pushed branches kept %d of %d; the CLI's gitOperation records alone show %d of %d", pushesKept, pushes, want.pushesKept, want.pushes)
	}
	if rep.Totals.Files != len(files) || rep.Totals.Unreadable != 0 {
		t.Errorf("files %d (unreadable %d), want %d", rep.Totals.Files, rep.Totals.Unreadable, len(files))
	}
	t.Logf("%d transcripts: %d compactions (%d auto, %d manual, %d by summary only), %d turns, %d tool calls, %d errors, %d interruptions; %s",
		len(files), c.Total, c.Auto, c.Manual, c.Unknown, want.turns, want.calls, errs, intr, rep.Lost.Line)
}
