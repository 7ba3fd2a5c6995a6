package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/statusline"
)

// modPayload is the status line JSON the mod sends: tokens of a 200k window.
func modPayload(tokens string) []byte {
	return []byte(`{"session_id":"` + modID + `","cwd":"/tmp","model":{"id":"claude-sonnet-4-5-20250929"},"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":` + tokens + `}}}`)
}

// TestModStatusRowFitted (issue 25: the mod's row was not fitted to the width, and right after
// /compact still said "● DUMB 170k/200k compact due" under a status line saying "● SMART
// 3.4k/200k"): `mod status -width N` answers the row fitted to N cells by the status line's
// fitting, the ⚠ shortened before the tokens or the distance go; given the numbers after a
// compaction, it says what the status line says.
func TestModStatusRowFitted(t *testing.T) {
	type answer struct {
		Width int
		Row   []struct{ Text, Color string }
	}
	status := func(tokens, config string, args ...string) (string, answer) {
		t.Helper()
		e, out, _ := testEnv(t, modPayload(tokens), nil)
		if config != "" {
			os.WriteFile(e.Paths.Config, []byte(config), 0o600)
		}
		e.Run(append([]string{"mod", "status"}, args...))
		var a answer
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		var b strings.Builder
		for _, p := range a.Row {
			b.WriteString(p.Text)
		}
		return b.String(), a
	}
	for _, c := range []struct {
		width  string
		config string
		want   []string
	}{
		{"40", "", []string{"● DUMB 170k/200k", "⚑ /compact-prep"}},
		{"80", "", []string{"● DUMB 170k/200k", "compact due", "⚑ /compact-prep"}},
		{"80", "colour = \"auto\"\n", []string{"● DUMB 170k/200k", "compact due", "⚑ /compact-prep", "⚠ zoneline config check"}},
		{"120", "colour = \"auto\"\n", []string{"● DUMB 170k/200k", "compact due", "⚠"}},
	} {
		row, a := status("170000", c.config, "-width", c.width)
		if w := statusline.Width(row, false); a.Width == 0 || w > a.Width {
			t.Errorf("-width %s: row %q is %d cells, answer width %d", c.width, row, w, a.Width)
		}
		for _, s := range c.want {
			if !strings.Contains(row, s) {
				t.Errorf("-width %s, config %q: row %q lacks %q", c.width, c.config, row, s)
			}
		}
	}
	// After a compaction the mod sends the tokens it left: the row says what the status line says.
	if row, _ := status("3400", "", "-width", "80"); !strings.HasPrefix(row, "● SMART 3.4k/200k") {
		t.Errorf("after the compaction: %q", row)
	}
	// A bad width is a problem in the answer, never a failure.
	e, out, _ := testEnv(t, modPayload("1000"), nil)
	if code := e.Run([]string{"mod", "status", "-width", "x"}); code != exitOK || !strings.Contains(out.String(), "usage: zoneline mod status [-width N]") {
		t.Errorf("bad -width: exit %d, %q", code, out)
	}
}
