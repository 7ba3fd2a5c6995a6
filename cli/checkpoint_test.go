package cli

import (
	"strings"
	"testing"

	"github.com/zoneline/zoneline/checkpoint"
)

// TestCheckpointTemplate: the skeleton prints outside Claude Code without -session (the
// session a placeholder, said on stderr); with a session it fills the header; a bad session is
// an error.
func TestCheckpointTemplate(t *testing.T) {
	e, out, errb := testEnv(t, nil, nil)
	if code := e.Run([]string{"checkpoint", "template"}); code != 0 {
		t.Fatalf("outside Claude Code: exit %d: %s", code, errb)
	}
	for _, s := range checkpoint.Sections {
		if !strings.Contains(out.String(), "## "+s+"\n") {
			t.Errorf("the skeleton lacks ## %s:\n%s", s, out)
		}
	}
	if !strings.Contains(out.String(), "session: "+templateNoSession) || !strings.Contains(errb.String(), "placeholder") {
		t.Errorf("the placeholder session is not shown or not said:\n%s\n%s", out, errb)
	}

	const id = "11111111-2222-4333-8444-555555555555"
	e, out, _ = testEnv(t, nil, map[string]string{"CLAUDE_CODE_SESSION_ID": id})
	if code := e.Run([]string{"checkpoint", "template"}); code != 0 || !strings.Contains(out.String(), "session: "+id+"\n") {
		t.Errorf("in a session: exit %d:\n%s", code, out)
	}
	e, _, errb = testEnv(t, nil, nil)
	if code := e.Run([]string{"checkpoint", "template", "-session", "../etc"}); code != exitFail || !strings.Contains(errb.String(), "not a session id") {
		t.Errorf("bad -session: exit %d: %s", code, errb)
	}
}
