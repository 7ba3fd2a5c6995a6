package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestCallsSinceCompaction: the calls after the last main-chain boundary, found from the end
// whether it is near (the last 64 KB) or far; a boundary's name in a command or a sidechain's
// boundary is no boundary; with none in the part read, found is false.
func TestCallsSinceCompaction(t *testing.T) {
	call := func(id, cmd string) string {
		return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"uuid":"u%s","message":{"id":"m%s","role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":%q}}]}}`, id, id, id, cmd)
	}
	const boundary = `{"type":"system","subtype":"compact_boundary","isSidechain":false,"content":"Conversation compacted"}`
	const sideBoundary = `{"type":"system","subtype":"compact_boundary","isSidechain":true,"content":"Conversation compacted"}`
	pad := func(n int) []string {
		var out []string
		for i := range n / 1000 {
			out = append(out, fmt.Sprintf(`{"type":"user","uuid":"p%d","message":{"role":"user","content":%q}}`, i, strings.Repeat("x", 950)))
		}
		return out
	}
	cat := func(parts ...any) []string {
		var out []string
		for _, p := range parts {
			switch p := p.(type) {
			case string:
				out = append(out, p)
			case []string:
				out = append(out, p...)
			}
		}
		return out
	}
	tests := []struct {
		name  string
		lines []string
		max   int64
		want  []string
		found bool
	}{
		{"no boundary", cat(call("a", "ls"), call("b", "pwd")), 0, []string{"a", "b"}, false},
		{"after the boundary", cat(call("a", "ls"), boundary, call("b", "pwd")), 0, []string{"b"}, true},
		{"after the last of two", cat(call("a", "ls"), boundary, call("b", "pwd"), boundary, call("c", "go test")), 0, []string{"c"}, true},
		{"a decoy and a sidechain's boundary", cat(call("a", "ls"), boundary, call("b", "grep compact_boundary t.jsonl"), sideBoundary, call("c", "go test")), 0, []string{"b", "c"}, true},
		{"far back", cat(call("a", "ls"), boundary, call("b", "pwd"), pad(200_000), call("c", "go test")), 0, []string{"b", "c"}, true},
		{"beyond the part read", cat(call("a", "ls"), boundary, call("b", "pwd"), pad(200_000), call("c", "go test")), 100_000, []string{"c"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(testtmp.Dir(t), "t.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(tt.lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			calls, found, err := CallsSinceCompaction(path, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range calls {
				ids = append(ids, c.ID)
			}
			if !slices.Equal(ids, tt.want) || found != tt.found {
				t.Errorf("calls %v found %v, want %v %v", ids, found, tt.want, tt.found)
			}
		})
	}
}
