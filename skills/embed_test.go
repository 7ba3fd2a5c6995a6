package skills

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/checkpoint"
)

// TestCompactPrep checks the skill's front matter and that it names every fixed section and
// the commands it relies on.
func TestCompactPrep(t *testing.T) {
	data, err := FS.ReadFile("compact-prep/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	front, body, ok := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---\n")
	if !strings.HasPrefix(text, "---\n") || !ok {
		t.Fatalf("no YAML front matter")
	}
	for _, want := range []string{"name: compact-prep\n", "description: "} {
		if !strings.Contains(front+"\n", want) {
			t.Errorf("front matter lacks %q", want)
		}
	}
	for _, s := range checkpoint.Sections {
		if !strings.Contains(body, "`## "+s+"`") {
			t.Errorf("body does not name section %q", s)
		}
	}
	for _, s := range checkpoint.OptionalSections {
		if !strings.Contains(body, "`## "+s+"`") {
			t.Errorf("body does not name optional section %q", s)
		}
	}
	for _, cmd := range []string{"zoneline checkpoint path", "zoneline checkpoint verify", "zoneline checkpoint compact-line", "/compact"} {
		if !strings.Contains(body, cmd) {
			t.Errorf("body does not mention %q", cmd)
		}
	}
	// The last step tells the agent to read nothing more.
	steps := body[strings.LastIndex(body, "\n6. "):]
	if !strings.Contains(steps, "read nothing more") {
		t.Errorf("the skill does not end telling the agent to read nothing more: %q", steps)
	}
}

// TestCompactLineKeeps: the /compact line is bare by default (zoneline's PreCompact hook gives
// the summariser its instructions, once; inline instructions survive the boundary and could be
// acted on again); the user's own words follow it on one line.
func TestCompactLineKeeps(t *testing.T) {
	if line := checkpoint.CompactLine(" \n "); line != "/compact" {
		t.Fatalf("compact line %q, want /compact", line)
	}
	if got := checkpoint.CompactLine("  keep   the ids \n and paths "); got != "/compact keep the ids and paths" {
		t.Errorf("CompactLine folds blanks onto one line: %q", got)
	}
}

// TestPostcompact checks the /postcompact skill's front matter and that it names the commands
// and sections the recovery relies on.
func TestPostcompact(t *testing.T) {
	data, err := FS.ReadFile("postcompact/SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	front, body, ok := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---\n")
	if !strings.HasPrefix(text, "---\n") || !ok {
		t.Fatalf("no YAML front matter")
	}
	for _, want := range []string{"name: postcompact\n", "description: ", "allowed-tools: "} {
		if !strings.Contains(front+"\n", want) {
			t.Errorf("front matter lacks %q", want)
		}
	}
	for _, want := range []string{"zoneline checkpoint show", "zoneline checkpoint reconcile", "`## Pointers`", "`## Next`", "`## Skills`", "Then do Next"} {
		if !strings.Contains(body, want) {
			t.Errorf("body does not mention %q", want)
		}
	}
}
