package checkpoint

import "testing"

func TestExtract(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# zoneline checkpoint\nsession: x\n", "# zoneline checkpoint\nsession: x\n"},
		{"Here it is:\n\n```\n# zoneline checkpoint\nsession: x\n```\n", "# zoneline checkpoint\nsession: x\n"},
		{"Here it is:\n\n```markdown\n# zoneline checkpoint\n## Goal\ng\n```  \n\n", "# zoneline checkpoint\n## Goal\ng\n"},
		// The title mid-line is not the title: the first line that starts with it is.
		{"Here is the # zoneline checkpoint you asked for\n\n# zoneline checkpoint\nsession: x\n", "# zoneline checkpoint\nsession: x\n"},
		// A fence open above the title ends at its closing line; the chatter after it is dropped.
		{"```\n# zoneline checkpoint\n## Next\nn\n```\nHope this helps! Run /compact next.\n", "# zoneline checkpoint\n## Next\nn\n"},
		{"````markdown\n# zoneline checkpoint\n## Next\n```\ngo test ./...\n```\n````\nDone.\n", "# zoneline checkpoint\n## Next\n```\ngo test ./...\n```\n"},
		// Code blocks inside the checkpoint (with an info string) do not close the outer fence.
		{"```md\n# zoneline checkpoint\n## Next\n```bash\ngo test ./...\n```\n## Rules\nr\n```\nchatter\n", "# zoneline checkpoint\n## Next\n```bash\ngo test ./...\n```\n## Rules\nr\n"},
		{"~~~\n# zoneline checkpoint\nx\n```\ny\n```\n~~~\nbye\n", "# zoneline checkpoint\nx\n```\ny\n```\n"},
		// No fence above: the checkpoint's own balanced fences stay; a stray closing fence and
		// what follows it go.
		{"# zoneline checkpoint\n## Next\n```\ngo test ./...\n```\n", "# zoneline checkpoint\n## Next\n```\ngo test ./...\n```\n"},
		{"# zoneline checkpoint\n## Next\nn\n```\nAnything else?\n", "# zoneline checkpoint\n## Next\nn\n"},
		// A fence opened and closed above the title is not open at the title.
		{"```\nls\n```\n# zoneline checkpoint\nx\n", "# zoneline checkpoint\nx\n"},
	} {
		got, ok := Extract(c.in)
		if !ok || got != c.want {
			t.Errorf("Extract(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, in := range []string{"", "no checkpoint here", "see # zoneline checkpoint inline", "Here is the # zoneline checkpoint\n", "# zoneline checkpoints\n"} {
		if _, ok := Extract(in); ok {
			t.Errorf("Extract(%q) found a checkpoint", in)
		}
	}
}
