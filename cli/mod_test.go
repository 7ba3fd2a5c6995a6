package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/checkpoint"
)

const modID = "3f1c2d4e-1111-4222-8333-444455556666"

// goodCheckpoint is a checkpoint that passes verify for modID.
func goodCheckpoint(goal string) string { return goodCheckpointOf(modID, goal) }

func goodCheckpointOf(id, goal string) string {
	return "# zoneline checkpoint\nsession: " + id + "\nmodel: claude-sonnet-4-5\ncwd: /tmp\ntime: 2099-01-01T00:00:00Z\ncompactions: 0\n\n" +
		"## Goal\n\"" + goal + "\"\n\n## State\n- done: reproduced with `go test ./auth`\n\n" +
		"## Next\n- Action: edit auth/session.go, then run `go test ./auth`\n- Expected: TestRedirect passes\n\n" +
		"## Decisions\nnone\n\n## Abandoned\nnone\n\n## Rules\n- never push to main\n\n## External state\nnone\n\n## Skills\nnone\n\n## Pointers\nnone\n"
}

// TestModSaveCheckpointKeepsTheVerifiedOne: a fork answer is checked (verify with the budget and
// this session; the size a read accepts) before it replaces checkpoint.md; one that fails a check
// exits 1 and leaves the verified checkpoint there byte for byte.
func TestModSaveCheckpointKeepsTheVerifiedOne(t *testing.T) {
	e, out, errb := testEnv(t, []byte("Here it is:\n\n```\n"+goodCheckpoint("Fix the login redirect loop.")+"```\nAnything else?\n"), nil)
	if code := e.Run([]string{"mod", "save-checkpoint", "-session", modID}); code != exitOK {
		t.Fatalf("good answer: exit %d: %s", code, errb)
	}
	path := strings.TrimSpace(out.String())
	good, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(good), "Fix the login redirect loop.") || strings.Contains(string(good), "Anything else") {
		t.Fatalf("written: %q, %v", good, err)
	}
	big := strings.Replace(goodCheckpoint("x"), "## Pointers\nnone\n", "## Pointers\n- "+strings.Repeat("a", checkpoint.MaxSize)+"\n", 1)
	for _, c := range []struct{ name, answer, want string }{
		{"no Next", strings.Replace(goodCheckpoint("y"), "## Next\n", "## Later\n", 1), "nothing written"},
		{"another session", strings.Replace(goodCheckpoint("y"), modID, "99999999-1111-4222-8333-444455556666", 1), "nothing written"},
		{"placeholders", checkpoint.Template(checkpoint.Header{Session: modID, Model: "m", Cwd: "/tmp"}), "nothing written"},
		{"over the size limit", big, "over the 262144"},
	} {
		e.Stdin, e.Stdout, e.Stderr = strings.NewReader(c.answer), &bytes.Buffer{}, &bytes.Buffer{}
		code := e.Run([]string{"mod", "save-checkpoint", "-session", modID})
		stderr := e.Stderr.(*bytes.Buffer).String()
		if code != exitFail || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", c.name, code, stderr, c.want)
		}
		if now, _ := os.ReadFile(path); !bytes.Equal(now, good) {
			t.Errorf("%s: the verified checkpoint was replaced", c.name)
		}
	}
}
