//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// answerStdinWait is cli's bound on `mod save-checkpoint`'s read of the fork's answer.
const answerStdinWait = 3 * time.Second

// TestModStdinLeftOpen: the commands the mod runs read stdin under the statusline's bounds
// (issue 22 item 6: `mod status` with stdin left open never answered). `mod status` answers one
// JSON line and exits 0 within the statusline's deadline whether its payload arrived whole,
// half or not at all; `mod save-checkpoint` given an answer on a stdin never closed fails
// loudly at its bound and writes nothing; `mod fork-prompt`, which reads no stdin, answers at
// once.
func TestModStdinLeftOpen(t *testing.T) {
	bin := zoneline(t)
	w := newWorld(t)
	for _, tc := range []struct {
		name      string
		args      []string
		stdin     []byte
		limit     time.Duration
		code      int
		wantOut   string // in stdout
		wantErr   string // in stderr
		jsonReply bool
	}{
		{"status", []string{"mod", "status"}, statuslinePayload(w, sessionID, 150_000), wholePayloadWait, 0, `"tokens":150000`, "", true},
		{"status-nothing", []string{"mod", "status"}, nil, statuslineDeadline, 0, `"zone":"unknown"`, "", true},
		{"status-half", []string{"mod", "status"}, statuslinePayload(w, sessionID, 150_000)[:40], statuslineDeadline, 0, `"zone":"unknown"`, "", true},
		{"save-checkpoint", []string{"mod", "save-checkpoint", "-session", sessionID}, []byte("# zoneline checkpoint\nsession: " + sessionID + "\n"),
			answerStdinWait, 1, "", "still open after 3s, the payload incomplete: nothing written", false},
		{"fork-prompt", []string{"mod", "fork-prompt", "-session", sessionID}, nil, wholePayloadWait, 0, "# zoneline checkpoint", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runOpenStdin(t, w, bin, tc.stdin, tc.args...)
			if tc.code == 0 {
				checkCommon(t, tc.name, r) // (exit 0, no panic)
			}
			if r.code != tc.code {
				t.Errorf("%s: exit %d, want %d; stderr %q", tc.name, r.code, tc.code, r.stderr)
			}
			if r.took > tc.limit+deadlineMargin {
				t.Errorf("%s with stdin left open took %v, bound %v", tc.name, r.took.Round(time.Millisecond), tc.limit)
			}
			if !strings.Contains(string(r.stdout), tc.wantOut) || !strings.Contains(string(r.stderr), tc.wantErr) {
				t.Errorf("%s: stdout %q, stderr %q; want %q and %q in them", tc.name, r.stdout, r.stderr, tc.wantOut, tc.wantErr)
			}
			if tc.jsonReply {
				dec := json.NewDecoder(bytes.NewReader(r.stdout))
				var v map[string]any
				if err := dec.Decode(&v); err != nil || dec.More() || bytes.Count(r.stdout, []byte("\n")) != 1 {
					t.Errorf("%s: not one JSON line: %q (%v)", tc.name, r.stdout, err)
				}
			}
		})
	}
}
