package checkpoint

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestNextTargets(t *testing.T) {
	tests := []struct {
		name, next string
		cmds       []string
		files      []string
	}{
		{"good", "- Action: edit auth/session.go so the cookie path is \"/\", then run `go test ./auth`\n- Expected: TestRedirect passes",
			[]string{"go test ./auth"}, []string{"auth/session.go"}},
		{"expected line left out", "- Action: run `make e2e`\n- Expected: `ok` in e2e/out.log", []string{"make e2e"}, nil},
		{"path in code", "Open `cmd/zoneline/main.go` and add the flag. Expected: it builds", nil, []string{"cmd/zoneline/main.go"}},
		{"url is no file", "Read https://example.com/x then run `go vet ./...`. Expected: clean", []string{"go vet ./..."}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse("# zoneline checkpoint\n\n## Next\n" + tt.next + "\n")
			got := c.NextTargets()
			if fmt.Sprint(got.Commands) != fmt.Sprint(tt.cmds) || fmt.Sprint(got.Files) != fmt.Sprint(tt.files) {
				t.Errorf("targets = %q %q, want %q %q", got.Commands, got.Files, tt.cmds, tt.files)
			}
		})
	}
	good, _ := os.ReadFile("testdata/good.md")
	rec := Parse(string(good)).RecoveryTargets()
	if len(rec.Commands) != 2 || fmt.Sprint(rec.Files) != "[auth/session.go docs/auth.md]" {
		t.Errorf("recovery targets %q %q", rec.Commands, rec.Files)
	}
}

// TestOptionalSections: Plan, Workers and Traps are known to verify, anywhere, once each, and
// not as placeholders.
func TestOptionalSections(t *testing.T) {
	good, err := os.ReadFile("testdata/good.md")
	if err != nil {
		t.Fatal(err)
	}
	base := string(good)
	with := strings.Replace(base, "## Decisions", "## Plan\nplan file ~/.claude/plans/x.md, phase 2 of 3\n\n## Decisions", 1) +
		"\n## Workers\n- %3: reviewer, reading PR 42\n\n## Traps\n- `go test ./e2e` hangs without ZONELINE_E2E\n"
	if ps := Verify(Parse(with), VerifyOptions{}); len(ps) != 0 {
		t.Errorf("optional sections: %v", ps)
	}
	twice := base + "\n## Traps\n- one\n\n## Traps\n- two\n"
	if ps := Verify(Parse(twice), VerifyOptions{}); len(ps) != 1 || !strings.Contains(ps[0].Msg, "appears twice") {
		t.Errorf("twice: %v", ps)
	}
	empty := base + "\n## Workers\n<panes and roles>\n"
	if ps := Verify(Parse(empty), VerifyOptions{}); len(ps) != 1 || !strings.Contains(ps[0].Msg, "optional section \"Workers\"") {
		t.Errorf("placeholder: %v", ps)
	}
	unknown := base + "\n## Misc\nx\n"
	if ps := Verify(Parse(unknown), VerifyOptions{}); len(ps) != 1 || !strings.Contains(ps[0].Msg, "Plan, Workers, Traps") {
		t.Errorf("unknown: %v", ps)
	}
}
