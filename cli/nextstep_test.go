package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHintAndNudgeAgree is issue 12 item 1: in every checkpoint state the statusline's ⚑ hint
// and the UserPromptSubmit nudge name the same next step (notify.NextStep decides both).
func TestHintAndNudgeAgree(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12" // the session of the fixture
	now := time.Now()
	tests := []struct {
		name       string
		checkpoint time.Time // zero: none
		compacted  time.Time // the last recorded compaction; zero: none
		want       string    // "/compact-prep" or "/compact"
	}{
		{"no checkpoint", time.Time{}, time.Time{}, "/compact-prep"},
		{"fresh, no compaction", now.Add(-time.Minute), time.Time{}, "/compact"},
		{"fresh, after the last compaction", now.Add(-time.Minute), now.Add(-5 * time.Minute), "/compact"},
		{"written before the last compaction", now.Add(-5 * time.Minute), now.Add(-4 * time.Minute), "/compact-prep"},
		{"over stale_minutes", now.Add(-2 * time.Hour), time.Time{}, "/compact-prep"},
		{"over stale_minutes, written after #1", now.Add(-2 * time.Hour), now.Add(-3 * time.Hour), "/compact-prep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			payload := fixture(t, "statusline-edge-06-ctx-180k.json") // dumb zone
			e, out, _ := testEnv(t, payload, map[string]string{"NO_COLOR": "1", "DISABLE_AUTO_COMPACT": "1"})
			dir := filepath.Join(e.Paths.StateDir, "sessions", id)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if !tt.checkpoint.IsZero() {
				p := filepath.Join(dir, "checkpoint.md")
				os.WriteFile(p, []byte("# zoneline checkpoint\n"), 0o600)
				os.Chtimes(p, tt.checkpoint, tt.checkpoint)
			}
			if !tt.compacted.IsZero() {
				cs := `{"count":1,"delivered":1,"pending":0,"records":[{"n":1,"time":"` + tt.compacted.UTC().Format(time.RFC3339Nano) + `","trigger":"manual","summary_chars":9}]}`
				os.WriteFile(filepath.Join(dir, "compactions.json"), []byte(cs), 0o600)
			}
			e.Run([]string{"statusline"})
			line := out.String()
			hint := ""
			switch {
			case strings.Contains(line, "⚑ /compact-prep"):
				hint = "/compact-prep"
			case strings.Contains(line, "⚑ /compact"):
				hint = "/compact"
			}
			out.Reset()
			e.Stdin = bytes.NewReader([]byte(`{"session_id":"` + id + `","hook_event_name":"UserPromptSubmit","prompt":"go on","cwd":"/w"}`))
			e.Run([]string{"hook"})
			nudge := out.String()
			said := ""
			switch {
			case strings.Contains(nudge, "then run /compact-prep"):
				said = "/compact-prep"
			case strings.Contains(nudge, "ask the user to run /compact."):
				said = "/compact"
			}
			if hint != tt.want || said != tt.want {
				t.Errorf("hint %q, nudge %q, want both %q\nline:  %s\nnudge: %s", hint, said, tt.want, line, nudge)
			}
		})
	}
}

// TestCheckpointShowStale: /postcompact's `checkpoint show` judges by the same rule: the
// checkpoint of the last compaction is shown as it is; one written before an earlier compaction
// is shown under a STALE banner, as history, and the command exits 1.
func TestCheckpointShowStale(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	now := time.Now()
	record := func(n int, at time.Time) string {
		return `{"n":` + string(rune('0'+n)) + `,"time":"` + at.UTC().Format(time.RFC3339Nano) + `","trigger":"manual"}`
	}
	tests := []struct {
		name    string
		written time.Duration // before now
		records []string
		code    int
		why     string
	}{
		{"no compaction yet", 2 * time.Minute, nil, 0, ""},
		{"right after the compaction it was written for", 2 * time.Minute, []string{record(1, now.Add(-time.Minute))}, 0, ""},
		{"after a second compaction", 2 * time.Minute, []string{record(1, now.Add(-time.Minute)), record(2, now.Add(-30*time.Second))}, 1, "before compaction #2"},
		// #1 3 h ago, the checkpoint 2 h ago, stale_minutes 30: no compaction's checkpoint.
		{"past stale_minutes, written after #1", 2 * time.Hour, []string{record(1, now.Add(-3*time.Hour))}, 1, "over the 30-minute limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, _ := testEnv(t, nil, map[string]string{"CLAUDE_CODE_SESSION_ID": id})
			dir := filepath.Join(e.Paths.StateDir, "sessions", id)
			os.MkdirAll(dir, 0o700)
			p := filepath.Join(dir, "checkpoint.md")
			os.WriteFile(p, []byte("# zoneline checkpoint\n## Goal\nG-4411\n"), 0o600)
			written := now.Add(-tt.written)
			os.Chtimes(p, written, written)
			if tt.records != nil {
				os.WriteFile(filepath.Join(dir, "compactions.json"), []byte(`{"records":[`+strings.Join(tt.records, ",")+`]}`), 0o600)
			}
			code := e.Run([]string{"checkpoint", "show"})
			stale := strings.Contains(out.String(), "STALE CHECKPOINT")
			if code != tt.code || stale != (tt.code == 1) || !strings.Contains(out.String(), "G-4411") {
				t.Errorf("exit %d (want %d), output:\n%s", code, tt.code, out.String())
			}
			if stale && !strings.Contains(out.String(), tt.why) {
				t.Errorf("the banner does not say why:\n%s", out.String())
			}
		})
	}
}

// TestCheckpointShowRedacted: `checkpoint show`, which /postcompact reads into the context,
// prints the checkpoint redacted and made safe, as the restore does.
func TestCheckpointShowRedacted(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	e, out, _ := testEnv(t, nil, map[string]string{"CLAUDE_CODE_SESSION_ID": id})
	dir := filepath.Join(e.Paths.StateDir, "sessions", id)
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, "checkpoint.md"), []byte("# zoneline checkpoint\n## Goal\nG-4411 with DB_PASSWORD=hunter2secret and \x1b[2K ghp_16C7e42F292c6912E7710c838347Ae178B4a\n"), 0o600)
	e.Run([]string{"checkpoint", "show"})
	got := out.String()
	if strings.Contains(got, "hunter2secret") || strings.Contains(got, "ghp_16C7") || strings.Contains(got, "\x1b") || !strings.Contains(got, "[REDACTED: password]") || !strings.Contains(got, "G-4411") {
		t.Errorf("checkpoint show printed:\n%q", got)
	}
}

// TestCheckpointReconcileAndTemplateSafe: the reconcile report's system, identifier and reason
// and the template's model and cwd (from the registry) reach the terminal as safe lines.
func TestCheckpointReconcileAndTemplateSafe(t *testing.T) {
	const id = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"
	e, out, _ := testEnv(t, nil, map[string]string{"CLAUDE_CODE_SESSION_ID": id})
	dir := filepath.Join(e.Paths.StateDir, "sessions", id)
	os.MkdirAll(dir, 0o700)
	ck := "# zoneline checkpoint\n## External state\n| system | identifier | applied | idempotent | verify |\n|---|---|---|---|---|\n" +
		"| git\x1b]0;pwned\x07 | br\u202eanch\x1b[2K | yes | no | |\n"
	os.WriteFile(filepath.Join(dir, "checkpoint.md"), []byte(ck), 0o600)
	e.Run([]string{"checkpoint", "reconcile"})
	if got := out.String(); strings.ContainsAny(got, "\x1b\x07\u202e") || !strings.Contains(got, "UNVERIFIABLE") {
		t.Errorf("reconcile printed %q", got)
	}
	out.Reset()
	reg := `{"session_id":"` + id + `","model_id":"opus\u001b[31m\u202e","cwd":"/w\u001b]0;x\u0007"}`
	os.WriteFile(filepath.Join(dir, "session.json"), []byte(reg), 0o600)
	e.Run([]string{"checkpoint", "template"})
	if got := out.String(); strings.ContainsAny(got, "\x1b\x07\u202e") || !strings.Contains(got, "model: opus") {
		t.Errorf("template printed %q", got)
	}
}
