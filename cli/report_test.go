package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestReportExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"report", "-since", "yesterday"}, exitUsage},
		{[]string{"report", "-since", "-3d"}, exitUsage},
		{[]string{"report", "extra"}, exitUsage},
		{[]string{"report", "-since", "all"}, exitFail}, // no transcripts
		{[]string{"report", "-h"}, exitOK},
	} {
		e, _, errb := testEnv(t, nil, nil)
		if got := e.Run(tc.args); got != tc.want {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, got, tc.want, errb.String())
		}
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"all", time.Time{}},
		{"30d", now.AddDate(0, 0, -30)},
		{"2w", now.AddDate(0, 0, -14)},
		{"12h", now.Add(-12 * time.Hour)},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local)},
	} {
		got, err := parseSince(tc.in, now)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "d", "-1d", "-5h", "2026-13-01"} {
		if _, err := parseSince(bad, now); err == nil {
			t.Errorf("parseSince(%q) accepted", bad)
		}
	}
}

func TestProjectFolder(t *testing.T) {
	got, err := projectFolder("/c", "/home/me/my.repo_x")
	if want := filepath.Join("/c", "projects", "-home-me-my-repo-x"); err != nil || got != want {
		t.Errorf("projectFolder = %q, %v; want %q", got, err, want)
	}
}

// The report reads zoneline's state per session: compactions.json's records (with the verdicts
// they keep), the checkpoint's time, the last verdict (resume.json) and the off-plan
// notifications claimed.
func TestReportState(t *testing.T) {
	e, _, _ := testEnv(t, nil, nil)
	id := "55555555-5555-4555-8555-555555555555"
	dir := filepath.Join(e.State.Root, "sessions", id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"compactions.json": `{"count":3,"delivered":2,"pending":3,"records":[` +
			`{"n":1,"time":"2026-11-21T09:00:11Z","trigger":"manual","summary_chars":10,"restore":"user_prompt"},` +
			`{"n":2,"time":"2026-11-21T09:00:17Z","trigger":"auto","summary_chars":10},` +
			`{"n":3,"time":"2026-11-21T10:00:00Z","trigger":"auto","summary_chars":10,"resume":"on"}]}`,
		"resume.json":        `{"n":1,"verdict":"on","call":"Bash: make","next":"make","time":"2026-11-21T09:01:00Z"}`,
		"resume-notified-2":  "",
		"checkpoint.md":      "# checkpoint\n",
		"unrelated-file.txt": "",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ck := time.Date(2026, 11, 21, 9, 0, 5, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "checkpoint.md"), ck, ck)
	get := e.reportState(30 * time.Minute)
	st, ok := get(id)
	if !ok {
		t.Fatal("no state read")
	}
	if len(st.Records) != 3 || st.Records[0].Restore != "user_prompt" || st.Records[1].Restore != "session_start" || st.Records[2].Restore != "" {
		t.Errorf("records = %+v (2 was delivered at SessionStart, 3 is pending)", st.Records)
	}
	if st.Verdicts[1] != "on" || st.Verdicts[2] != "off" || st.Verdicts[3] != "on" || len(st.Verdicts) != 3 {
		t.Errorf("verdicts = %v", st.Verdicts)
	}
	if !st.Checkpoint.Equal(ck) || st.Limit != 30*time.Minute {
		t.Errorf("checkpoint %v limit %v", st.Checkpoint, st.Limit)
	}
	if _, ok := get("66666666-6666-4666-8666-666666666666"); ok {
		t.Error("a session with no state read as known")
	}
	if _, ok := get("../../etc"); ok {
		t.Error("an invalid session id read as known")
	}
}
