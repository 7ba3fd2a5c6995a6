package hookevent

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/snapshot"
)

// TestRedactSnapshotRestoreLog is issue 12 item 3: a prompt and a Bash command carrying
// credentials, and a checkpoint quoting one, reach neither the snapshot on disk, nor the restore
// put into the context, nor the log: each holds "[REDACTED: kind]" instead.
func TestRedactSnapshotRestoreLog(t *testing.T) {
	const (
		ghToken  = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
		awsKey   = "AKIAIOSFODNN7EXAMPLE"
		password = "hunter2-Zx9"
		antKey   = "sk-ant-api03-Xq7vR2mK9pL4nT8wZ1cF6hJ3bD5gS0aE-yU2iO9kM4nB7vC1"
	)
	f := newFixture(t, "manual-compact-opus-1m")
	f.payload("hook-manual-PreCompact-*.json")
	// The prompt and a Bash call with secrets, appended to the recorded transcript.
	prompt := map[string]any{"type": "user", "sessionId": f.session, "timestamp": "2026-11-29T21:40:00.000Z",
		"message": map[string]any{"role": "user", "content": "deploy with GH_TOKEN=" + ghToken + " and mysql -u root -p" + password + " shop"}}
	call := map[string]any{"type": "assistant", "sessionId": f.session, "timestamp": "2026-11-29T21:40:01.000Z",
		"message": map[string]any{"id": "msg_redact", "role": "assistant", "model": "claude-opus-5-5", "content": []any{map[string]any{
			"type": "tool_use", "id": "toolu_redact", "name": "Bash",
			"input": map[string]any{"command": "curl -H 'Authorization: Bearer " + antKey + "' https://ann:" + password + "@api.example.com", "description": "call with " + awsKey}}}}}
	tf, err := os.OpenFile(f.tpath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []any{prompt, call} {
		b, _ := json.Marshal(rec)
		tf.Write(append(b, '\n'))
	}
	tf.Close()
	ck := goodCheckpoint(t, f.session)
	ck = strings.Replace(ck, "## Rules\n", "## Rules\n- the deploy key is "+awsKey+"; never print it\n", 1)
	f.writeCheckpoint(ck)
	secrets := []string{ghToken, awsKey, password, antKey}

	f.run("hook-manual-PreCompact-*.json")
	path, snap, err := snapshot.Latest(f.c.State, f.session)
	if err != nil {
		t.Fatal(err)
	}
	disk, _ := os.ReadFile(path)
	for _, s := range secrets {
		if strings.Contains(string(disk), s) {
			t.Errorf("the snapshot on disk holds %q", s)
		}
	}
	if len(snap.Commands) == 0 || !strings.Contains(snap.Commands[len(snap.Commands)-1].Command, "[REDACTED: authorization]") ||
		!strings.Contains(snap.Commands[len(snap.Commands)-1].Description, "[REDACTED: aws access key]") {
		t.Errorf("snapshot commands = %+v", snap.Commands)
	}
	if last := snap.Prompts[len(snap.Prompts)-1].Text; last != "deploy with GH_TOKEN=[REDACTED: github token] and mysql -u root -p[REDACTED: password] shop" {
		t.Errorf("snapshot prompt = %q", last)
	}

	restore := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	if !strings.Contains(restore, "the deploy key is [REDACTED: aws access key]; never print it") || !strings.Contains(restore, "[REDACTED: github token]") {
		t.Errorf("restore lacks the redactions:\n%s", restore)
	}
	f.c.State.Log("hook", "test: token %s password=%s", ghToken, password)
	log, _ := os.ReadFile(f.c.State.LogPath())
	if !strings.Contains(string(log), "test: token [REDACTED: github token] password=[REDACTED: password]") {
		t.Errorf("log line not redacted:\n%s", log)
	}
	for _, s := range secrets {
		if strings.Contains(restore, s) {
			t.Errorf("the restore holds %q", s)
		}
		if strings.Contains(string(log), s) {
			t.Errorf("the log holds %q", s)
		}
	}
}

// TestRedactWorkInFlightShapes is issue 22 item 4: the secrets found reaching the restore and
// the snapshot raw (SECRET_KEY=…, DJANGO_SECRET_KEY=…, MINIO_SECRET_KEY=…, az … --account-key
// …, vault login hvs.…, doctl … -t dop_v1_…) are redacted in the snapshot on disk and in the
// restore, when a background command or a Bash call carries them.
func TestRedactWorkInFlightShapes(t *testing.T) {
	secrets := []string{"9f8e7d6c5b4a39281706f5e4d3c2b1a0", "django-insecure-q8v2xz7kw1mp0r", "minioadmin123",
		"Zm9vYmFyYmF6cXV4cXV1eA==", "hvs.CAESIJlUgWq3mN8vR2kT7pL4xZ9cF6hJ3bD5gS0aEyU2iO9k",
		"dop_v1_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e3b6d9f2a5c0e7b1d4f8a3c6e9b2d5f7a"}
	cmd := "SECRET_KEY=" + secrets[0] + " DJANGO_SECRET_KEY='" + secrets[1] + "' MINIO_SECRET_KEY=" + secrets[2] + " ./deploy.sh && " +
		"az storage blob upload --account-name acct --account-key " + secrets[3] + " -f x && vault login " + secrets[4] + " && doctl auth init -t " + secrets[5]
	f := inflightFixture(t)
	appendLines(t, f.tpath, toolUseLine("toolu_sec", "Bash", map[string]any{"command": cmd, "description": "deploy", "run_in_background": true}))
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-manual-PreCompact-*.json")
	path, _, err := snapshot.Latest(f.c.State, f.session)
	if err != nil {
		t.Fatal(err)
	}
	disk, _ := os.ReadFile(path)
	if !strings.Contains(string(disk), "vault login [REDACTED: vault token]") {
		t.Errorf("the snapshot lacks the command, redacted:\n%s", disk)
	}
	restore := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	if !strings.Contains(restore, "doctl auth init -t [REDACTED: digitalocean token]") {
		t.Errorf("the restore lacks the command in flight, redacted:\n%s", restore)
	}
	for _, s := range secrets {
		if strings.Contains(string(disk), s) {
			t.Errorf("the snapshot on disk holds %q", s)
		}
		if strings.Contains(restore, s) {
			t.Errorf("the restore holds %q", s)
		}
	}
}
