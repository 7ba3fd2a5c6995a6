package checkpoint

import (
	"strings"
	"testing"
)

// TestVerifyFlagsControls: a control, bidi or invisible rune in the checkpoint is a problem at
// its line; a tab is not.
func TestVerifyFlagsControls(t *testing.T) {
	for _, bad := range []string{"\x1b[2K", "\r", "\u202e", "\u0085", "\x07"} {
		ps := Verify(Parse("# zoneline checkpoint\n## Goal\nship it"+bad+"\n"), VerifyOptions{})
		found := false
		for _, p := range ps {
			if p.Line == 3 && strings.Contains(p.Msg, "control or invisible character") {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: not flagged: %v", bad, ps)
		}
	}
	for _, p := range Verify(Parse("# zoneline checkpoint\n## Goal\nship\tit\n"), VerifyOptions{}) {
		if strings.Contains(p.Msg, "control") {
			t.Errorf("a tab flagged: %v", p)
		}
	}
}
