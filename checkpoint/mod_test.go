package checkpoint

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# zoneline checkpoint\nsession: x\n", "# zoneline checkpoint\nsession: x\n"},
		{"Here it is:\n\n```\n# zoneline checkpoint\nsession: x\n```\n", "# zoneline checkpoint\nsession: x\n"},
		{"Here it is:\n\n```markdown\n# zoneline checkpoint\n## Goal\ng\n```  \n\n", "# zoneline checkpoint\n## Goal\ng\n"},
	} {
		got, ok := Extract(c.in)
		if !ok || got != c.want {
			t.Errorf("Extract(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"", "no checkpoint here", "see # zoneline checkpoint inline"} {
		if _, ok := Extract(in); ok {
			t.Errorf("Extract(%q) found a checkpoint", in)
		}
	}
}

func TestCompactInstructions(t *testing.T) {
	if got := CompactInstructions("/s/checkpoint.md", false); got != KeepList {
		t.Errorf("unverified: %q, want the keep-list alone", got)
	}
	if got := CompactInstructions("", true); got != KeepList {
		t.Errorf("no path: %q", got)
	}
	got := CompactInstructions("/s/checkpoint.md", true)
	if !strings.HasPrefix(got, KeepList) || !strings.Contains(got, "/s/checkpoint.md") || !strings.Contains(got, "Next, Rules and External state") {
		t.Errorf("verified: %q", got)
	}
}
