package report

import (
	"slices"
	"testing"

	"github.com/zoneline/zoneline/transcript"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Run `make test` -- then PUSH!", []string{"run", "make", "test", "then", "push"}},
		{"**Step 1:** don't skip it.", []string{"step", "1", "dont", "skip", "it"}},
		{"a\tb\nc  d", []string{"a", "b", "c", "d"}},
		{"— … ---", nil},
		{"Ünïcode Wörds", []string{"ünïcode", "wörds"}},
	} {
		if got := words(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestKept(t *testing.T) {
	body := "Always run the linter before you commit. Never push to main without a review. Keep the changelog current."
	for _, tc := range []struct {
		name     string
		summary  string
		kept, of int
	}{
		// 18 words: 14 phrases, all distinct.
		{"none kept", "We fixed the parser and wrote tests.", 0, 14},
		{"two kept, other case and punctuation", "Rule: ALWAYS run the linter, before... you know.", 2, 14},
		{"all kept", body, 14, 14},
		{"four words are no phrase", "run the linter before", 0, 14},
	} {
		kept, of := Kept(body, Phrases(tc.summary))
		if kept != tc.kept || of != tc.of {
			t.Errorf("%s: kept %d of %d, want %d of %d", tc.name, kept, of, tc.kept, tc.of)
		}
	}
	if _, of := Kept("one two three four five one two three four five", nil); of != 5 {
		t.Errorf("repeated phrases: %d distinct, want 5", of)
	}
}

func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		name, summary string
		want          bool
	}{
		{"code-changes", "we followed the code-changes skill", true},
		{"/Release", "the release steps were done", true},
		{"jx-kb:insights", "filed the insights to the wiki", true},
		{"jx-kb:insights", "filed to the wiki", false},
		{"", "anything", false},
	} {
		if got := Named(tc.name, tc.summary); got != tc.want {
			t.Errorf("Named(%q, %q) = %v", tc.name, tc.summary, got)
		}
	}
}

func TestKeptID(t *testing.T) {
	for _, tc := range []struct {
		a       transcript.Action
		summary string
		want    bool
	}{
		{transcript.Action{Kind: "push", ID: "feat/x"}, "pushed feat/x to origin", true},
		{transcript.Action{Kind: "push", ID: "feat/x"}, "pushed the branch", false},
		{transcript.Action{Kind: "pr", ID: "https://github.com/o/r/pull/42"}, "opened https://github.com/o/r/pull/42", true},
		{transcript.Action{Kind: "pr", ID: "https://github.com/o/r/pull/42"}, "opened pr #42 for review", true},
		{transcript.Action{Kind: "pr", ID: "https://github.com/o/r/pull/42"}, "opened pr #421 for review", false},
		{transcript.Action{Kind: "pr", ID: "42"}, "PR 42 is open", true},
		{transcript.Action{Kind: "pr", ID: "42"}, "see #142", false},
		{transcript.Action{Kind: "tag", ID: "v1.2.0"}, "tagged v1.2.0", true},
		{transcript.Action{Kind: "push", ID: "main"}, "we maintain the mainline", false},
		{transcript.Action{Kind: "push", ID: "main"}, "pushed to origin/main.", true},
		{transcript.Action{Kind: "push", ID: "feat/x"}, "pushed feat/x-2", false},
		{transcript.Action{Kind: "tag", ID: ""}, "tagged", false},
	} {
		if got := KeptID(tc.a, tc.summary); got != tc.want {
			t.Errorf("KeptID(%+v, %q) = %v, want %v", tc.a, tc.summary, got, tc.want)
		}
	}
}

func TestJudge(t *testing.T) {
	ev := transcript.Evidence{
		Skills: []transcript.SkillLoad{
			{Name: "release", UUID: "u1", Body: "Bump the version in go.mod first. Tag the release and push the tag."},
			{Name: "review", UUID: "u2", Body: "Read every changed file twice before you approve anything."},
		},
		Actions: []transcript.Action{{Kind: "push", ID: "feat/x", UUID: "u3"}, {Kind: "pr", ID: "https://github.com/o/r/pull/7", UUID: "u4"}},
	}
	var c Compaction
	judge(&c, ev, "We ran the release skill: tag the release and push the branch. Branch feat/x is pushed.")
	if len(c.Skills) != 2 || len(c.Actions) != 2 {
		t.Fatalf("judged %+v", c)
	}
	if s := c.Skills[0]; s.Kept != 2 || s.Phrases != 9 || !s.Named || s.UUID != "u1" {
		t.Errorf("release = %+v, want 2 of 9 kept, named", s)
	}
	if s := c.Skills[1]; s.Kept != 0 || s.Named {
		t.Errorf("review = %+v, want nothing kept, not named", s)
	}
	if !c.Actions[0].Kept || c.Actions[1].Kept {
		t.Errorf("actions = %+v, want the push kept and the PR lost", c.Actions)
	}
	p := lost([]Compaction{{Summary: true, Skills: c.Skills, Actions: c.Actions}, {Skills: c.Skills}})
	want := "phrases kept 2 of 14 (14.29 %); skill loads with no phrase kept 1 of 2; skill named 1 of 2; PR numbers kept 0 of 1; pushed branches kept 1 of 1"
	if p.Line != want {
		t.Errorf("line =\n%s\nwant\n%s (a compaction without its summary is not counted)", p.Line, want)
	}
}
