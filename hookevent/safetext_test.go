package hookevent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/safetext"
)

// TestAgentTextSanitized: what a hook puts into the agent's context or on the user's screen
// holds no control, C1 or bidi rune, whatever the checkpoint or payload quoted (JSON escaping
// alone would deliver them intact).
func TestAgentTextSanitized(t *testing.T) {
	hostile := "checkpoint\x1b]0;PWNED\x07 \x1b[2J\u009b31m \u202eevil\u2066 \r overwrite\x00\nline two\tok"
	var out bytes.Buffer
	write(&Context{}, "SessionStart", AdditionalContext("SessionStart", hostile), &out)
	var v struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	got := v.HookSpecificOutput.AdditionalContext
	for _, r := range got {
		if safetext.Unsafe(r) && r != '\n' && r != '\t' {
			t.Errorf("additionalContext %q keeps %U", got, r)
		}
	}
	if !strings.Contains(got, "line two\tok") || !strings.Contains(got, "\n") {
		t.Errorf("additionalContext %q lost its layout", got)
	}
	out.Reset()
	write(&Context{}, "PreCompact", Output{Text: "zoneline: snapshot /s/\x1b[2J\u202e"}, &out)
	if s := strings.TrimSuffix(out.String(), "\n"); strings.ContainsAny(s, "\x1b\u202e\n") {
		t.Errorf("PreCompact line %q", s)
	}
}
