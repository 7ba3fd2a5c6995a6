package hookevent

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
)

const fixtures = "../testdata/claude-code"

// fixture is one recorded capture dir with the transcript copied into a temp dir and the
// payloads rewritten to point at it.
type fixture struct {
	t       *testing.T
	dir     string // the capture dir
	c       *Context
	session string
	tpath   string
	cwd     string
}

func newFixture(t *testing.T, capture string) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: filepath.Join(fixtures, capture)}
	tmp := t.TempDir()
	f.cwd = filepath.Join(tmp, "project")
	os.MkdirAll(f.cwd, 0o755)
	matches, _ := filepath.Glob(filepath.Join(f.dir, "transcript-*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("no transcript in %s", f.dir)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	f.tpath = filepath.Join(tmp, "transcript.jsonl")
	os.WriteFile(f.tpath, data, 0o600)
	cfg := config.Default()
	f.c = &Context{State: state.Dir{Root: filepath.Join(tmp, "state")}, Config: cfg, Getenv: func(string) string { return "" }, Now: time.Now}
	return f
}

// payload loads a recorded hook payload by file name pattern and points it at the copies.
func (f *fixture) payload(pattern string) []byte {
	f.t.Helper()
	m, _ := filepath.Glob(filepath.Join(f.dir, pattern))
	if len(m) == 0 {
		f.t.Fatalf("no %s in %s", pattern, f.dir)
	}
	data, err := os.ReadFile(m[0])
	if err != nil {
		f.t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		f.t.Fatal(err)
	}
	f.session = v["session_id"].(string)
	v["transcript_path"] = f.tpath
	v["cwd"] = f.cwd
	out, _ := json.Marshal(v)
	return out
}

// run runs the hook on a recorded payload and returns stdout.
func (f *fixture) run(pattern string) string {
	f.t.Helper()
	var out bytes.Buffer
	if code := Run(f.c, f.payload(pattern), nil, &out); code != 0 {
		f.t.Fatalf("%s: exit %d", pattern, code)
	}
	return out.String()
}

func (f *fixture) writeCheckpoint(text string) string {
	f.t.Helper()
	p, err := checkpoint.Path(f.c.State, f.session)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := state.WriteFile(p, []byte(text)); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) compactions() *compactions {
	f.t.Helper()
	cs, err := loadCompactions(f.c.State, f.session)
	if err != nil {
		f.t.Fatal(err)
	}
	return cs
}

func goodCheckpoint(t *testing.T, session string) string {
	b, err := os.ReadFile("../checkpoint/testdata/good.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "730c8849-a6f0-454b-a922-063e0b765bf2", session)
}

// additionalContext decodes a SessionStart/UserPromptSubmit answer.
func additionalContext(t *testing.T, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var v struct {
		H struct {
			Event string `json:"hookEventName"`
			Ctx   string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not one JSON object: %q: %v", out, err)
	}
	return v.H.Ctx
}

// TestManualCompaction replays the recorded manual /compact: PreCompact → SessionStart(compact)
// → PostCompact, then a prompt. The restore arrives once, from SessionStart, verbatim.
func TestManualCompaction(t *testing.T) {
	f := newFixture(t, "manual-compact-opus-1m")
	f.payload("hook-manual-PreCompact-*.json") // learn the session id
	ck := goodCheckpoint(t, f.session)
	ckPath := f.writeCheckpoint(ck)

	out := f.run("hook-manual-PreCompact-*.json")
	// PreCompact's stdout is what the summariser is told (and what the user sees under
	// /compact): the instructions, with the fresh checkpoint's path and Next; no status text.
	if !strings.HasPrefix(out, InstructionsHead+"\n") || !strings.Contains(out, ckPath) ||
		!strings.Contains(out, "Keep verbatim the checkpoint's Next as the next step: - Action: edit auth/session.go") {
		t.Errorf("PreCompact printed %q, want the instructions with the checkpoint's path and Next", out)
	}
	if strings.Contains(out, "snapshot saved") || utf8.RuneCountInString(out) > MaxInstructions {
		t.Errorf("PreCompact printed a status line or more than %d characters: %q", MaxInstructions, out)
	}
	snapPath, snap, err := snapshot.Latest(f.c.State, f.session)
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, p := range snap.Prompts {
		prompts = append(prompts, p.Text)
	}
	for _, want := range []string{"first prompt hello", "second prompt MOCK_TOOL please", "third prompt", "fourth prompt"} {
		if !strings.Contains(strings.Join(prompts, "\n"), want) {
			t.Errorf("snapshot prompts %q lack %q", prompts, want)
		}
	}
	if snap.Trigger != "manual" || snap.SessionID != f.session {
		t.Errorf("snapshot = %+v", snap)
	}

	ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	if !strings.Contains(ctx, ck) {
		t.Errorf("SessionStart restore does not carry the checkpoint verbatim:\n%s", ctx)
	}
	for _, want := range []string{RestoreHeading + " #1", RecoveryInstructions, snapPath} {
		if !strings.Contains(ctx, want) {
			t.Errorf("SessionStart restore lacks %q", want)
		}
	}
	if n := utf8Len(ctx); n > maxRestore {
		t.Errorf("restore is %d characters, over %d", n, maxRestore)
	}

	if out := f.run("hook-manual-PostCompact-*.json"); out != "" {
		t.Errorf("PostCompact printed %q", out)
	}
	cs := f.compactions()
	if cs.Count != 1 || cs.Pending != 0 || cs.Delivered != 1 || len(cs.Records) != 1 || cs.Records[0].Restore != "session_start" ||
		cs.Records[0].Trigger != "manual" || cs.Records[0].SummaryChars == 0 {
		t.Errorf("compactions = %+v", cs)
	}
	h, _ := payload.DecodeHook(f.payload("hook-manual-UserPromptSubmit-05.json"))
	if got := pendingRestore(f.c, h); got != "" {
		t.Errorf("UserPromptSubmit delivered the restore again:\n%s", got)
	}
}

func utf8Len(s string) int { return len([]rune(s)) }

// TestRestoreByUserPrompt: with no SessionStart(compact) hook, PostCompact leaves the restore
// pending and the next prompt (only that one) delivers it.
func TestRestoreByUserPrompt(t *testing.T) {
	f := newFixture(t, "auto-compact-sonnet-200k")
	f.payload("hook-auto-PreCompact-*.json")
	ck := goodCheckpoint(t, f.session)
	f.writeCheckpoint(ck)
	f.run("hook-auto-PreCompact-*.json")
	f.run("hook-auto-PostCompact-*.json")
	if cs := f.compactions(); cs.Pending != 1 || cs.Delivered != 0 {
		t.Fatalf("after PostCompact: %+v", cs)
	}
	h, _ := payload.DecodeHook(f.payload("hook-auto-UserPromptSubmit-04.json"))
	got := additionalContext(t, f.run("hook-auto-UserPromptSubmit-04.json")) // through the real handler
	if !strings.Contains(got, ck) || !strings.Contains(got, RecoveryInstructions) || !strings.Contains(got, "(auto)") {
		t.Errorf("UserPromptSubmit restore:\n%s", got)
	}
	if again := additionalContext(t, f.run("hook-auto-UserPromptSubmit-04.json")); strings.Contains(again, RestoreHeading) {
		t.Errorf("delivered twice")
	}
	cs := f.compactions()
	if cs.Pending != 0 || cs.Delivered != 1 || cs.Records[0].Restore != "user_prompt" {
		t.Errorf("compactions = %+v", cs)
	}
	// a second compaction, this time with SessionStart: delivered once more, by SessionStart
	f.run("hook-auto-PreCompact-*.json")
	if ctx := additionalContext(t, f.run("hook-auto-SessionStart-compact-01.json")); !strings.Contains(ctx, RestoreHeading+" #2") {
		t.Errorf("second compaction's restore: %q", ctx)
	}
	second := map[string]any{}
	json.Unmarshal(f.payload("hook-auto-PostCompact-*.json"), &second)
	second["compact_summary"] = "a different summary for the second compaction"
	data, _ := json.Marshal(second)
	Run(f.c, data, nil, io.Discard)
	if got := pendingRestore(f.c, h); got != "" {
		t.Error("second compaction delivered twice")
	}
	if cs := f.compactions(); cs.Count != 2 || cs.Delivered != 2 || cs.Pending != 0 {
		t.Errorf("compactions = %+v", cs)
	}
}

// TestRestoreGuards: stale, foreign and missing checkpoints, and the budget cut.
func TestRestoreGuards(t *testing.T) {
	t.Run("stale checkpoint", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.payload("hook-manual-PreCompact-*.json")
		ck := goodCheckpoint(t, f.session)
		p := f.writeCheckpoint(ck)
		old := time.Now().Add(-2 * time.Hour)
		os.Chtimes(p, old, old)
		f.run("hook-manual-PreCompact-*.json")
		ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
		if !strings.Contains(ctx, "STALE CHECKPOINT") || strings.Contains(ctx, "## Goal") || strings.Contains(ctx, RecoveryInstructions) {
			t.Errorf("stale checkpoint restored as truth:\n%s", ctx)
		}
		if !strings.Contains(ctx, "SNAPSHOT SUMMARY") {
			t.Errorf("no snapshot fallback beside a stale checkpoint:\n%s", ctx)
		}
	})
	t.Run("stale snapshot", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.payload("hook-manual-PreCompact-*.json")
		f.c.Now = func() time.Time { return time.Now().Add(-time.Hour) }
		f.run("hook-manual-PreCompact-*.json") // a snapshot an hour old
		f.c.Now = time.Now
		f.writeCheckpoint(goodCheckpoint(t, f.session))
		ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
		if !strings.Contains(ctx, "STALE SNAPSHOT") || !strings.Contains(ctx, "## Goal") {
			t.Errorf("stale snapshot:\n%s", ctx)
		}
	})
	t.Run("other session's checkpoint", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.payload("hook-manual-PreCompact-*.json")
		f.writeCheckpoint(goodCheckpoint(t, "00000000-0000-0000-0000-000000000000"))
		ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
		if !strings.Contains(ctx, "names another session") || strings.Contains(ctx, "## Goal") {
			t.Errorf("foreign checkpoint:\n%s", ctx)
		}
	})
	t.Run("no checkpoint", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.run("hook-manual-PreCompact-*.json")
		ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
		for _, want := range []string{"No /compact-prep checkpoint", "SNAPSHOT SUMMARY", "first prompt hello", "hypotheses"} {
			if !strings.Contains(ctx, want) {
				t.Errorf("fallback lacks %q:\n%s", want, ctx)
			}
		}
	})
	t.Run("nothing at all", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		if out := f.run("hook-manual-SessionStart-compact-01.json"); out != "" {
			t.Errorf("restore with nothing to restore: %q", out)
		}
	})
	t.Run("budget cut", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.payload("hook-manual-PreCompact-*.json")
		f.c.Config.Checkpoint.Budget = 600
		ck := goodCheckpoint(t, f.session)
		f.writeCheckpoint(ck)
		ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
		body, _ := fitLines(ck, 600)
		if !strings.Contains(ctx, body) || strings.Contains(ctx, ck) || !strings.Contains(ctx, "checkpoint cut on a line boundary") {
			t.Errorf("budget cut:\n%s", ctx)
		}
		if !strings.HasSuffix(body, "\n") || utf8Len(body) > 600 {
			t.Errorf("cut not on a line boundary within the budget: %q", body)
		}
	})
	t.Run("other source", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.payload("hook-manual-PreCompact-*.json")
		f.writeCheckpoint(goodCheckpoint(t, f.session))
		if out := f.run("hook-manual-SessionStart-startup-01.json"); out != "" {
			t.Errorf("SessionStart(startup) printed %q", out)
		}
	})
}

// TestHoldOnce: an auto compaction with no fresh checkpoint is blocked once; the next passes.
func TestHoldOnce(t *testing.T) {
	block := func(out string) bool {
		var v map[string]string
		return json.Unmarshal([]byte(out), &v) == nil && v["decision"] == "block" && strings.Contains(v["reason"], "/compact-prep")
	}
	marker := func(f *fixture, at time.Time) {
		dir, _ := f.c.State.Session(f.session)
		p := filepath.Join(dir, "marker-0-dumb.json")
		state.WriteFile(p, []byte("{}\n"))
		os.Chtimes(p, at, at)
	}
	t.Run("off by default", func(t *testing.T) {
		f := newFixture(t, "auto-compact-sonnet-200k")
		if out := f.run("hook-auto-PreCompact-*.json"); block(out) {
			t.Errorf("held with hold_once off: %q", out)
		}
	})
	t.Run("no checkpoint", func(t *testing.T) {
		f := newFixture(t, "auto-compact-sonnet-200k")
		f.c.Config.PreCompact.HoldOnce = true
		if out := f.run("hook-auto-PreCompact-*.json"); !block(out) {
			t.Fatalf("not held: %q", out)
		}
		if out := f.run("hook-auto-PreCompact-*.json"); block(out) {
			t.Fatalf("held twice: %q", out)
		}
		// after the compaction, the next one may be held again
		f.run("hook-auto-PostCompact-*.json")
		if out := f.run("hook-auto-PreCompact-*.json"); !block(out) {
			t.Errorf("the next compaction was not held: %q", out)
		}
	})
	t.Run("checkpoint older than the marker", func(t *testing.T) {
		f := newFixture(t, "auto-compact-sonnet-200k")
		f.payload("hook-auto-PreCompact-*.json")
		f.c.Config.PreCompact.HoldOnce = true
		p := f.writeCheckpoint(goodCheckpoint(t, f.session))
		old := time.Now().Add(-10 * time.Minute)
		os.Chtimes(p, old, old)
		marker(f, time.Now().Add(-time.Minute))
		if out := f.run("hook-auto-PreCompact-*.json"); !block(out) {
			t.Errorf("not held: %q", out)
		}
	})
	t.Run("checkpoint newer than the marker", func(t *testing.T) {
		f := newFixture(t, "auto-compact-sonnet-200k")
		f.payload("hook-auto-PreCompact-*.json")
		f.c.Config.PreCompact.HoldOnce = true
		f.writeCheckpoint(goodCheckpoint(t, f.session))
		marker(f, time.Now().Add(-time.Minute))
		if out := f.run("hook-auto-PreCompact-*.json"); block(out) {
			t.Errorf("held: %q", out)
		}
	})
	t.Run("manual never held", func(t *testing.T) {
		f := newFixture(t, "manual-compact-opus-1m")
		f.c.Config.PreCompact.HoldOnce = true
		if out := f.run("hook-manual-PreCompact-*.json"); block(out) {
			t.Errorf("manual held: %q", out)
		}
	})
}

// TestSnapshotRetention: PreCompact keeps the last cfg.PreCompact.Snapshots snapshots.
func TestSnapshotRetention(t *testing.T) {
	f := newFixture(t, "manual-compact-opus-1m")
	f.c.Config.PreCompact.Snapshots = 3
	base := time.Now()
	for i := range 5 {
		f.c.Now = func() time.Time { return base.Add(time.Duration(i) * time.Second) }
		f.run("hook-manual-PreCompact-*.json")
	}
	files, err := snapshot.List(f.c.State)
	if err != nil || len(files) != 3 {
		t.Fatalf("snapshots = %v, %v", files, err)
	}
	if !strings.Contains(files[2], base.Add(4*time.Second).UTC().Format("20060102T150405")) {
		t.Errorf("newest snapshot %s is not the last one written", files[2])
	}
}

// TestTwinEntries: with the plugin's hooks and settings.json's both registered, every event runs
// twice: the restore is delivered once and the compaction counted once.
func TestTwinEntries(t *testing.T) {
	f := newFixture(t, "manual-compact-opus-1m")
	f.payload("hook-manual-PreCompact-*.json")
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-manual-PreCompact-*.json")
	f.run("hook-manual-PreCompact-*.json")
	restores := 0
	for range 2 {
		if strings.Contains(additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json")), RestoreHeading) {
			restores++
		}
	}
	f.run("hook-manual-PostCompact-*.json")
	f.run("hook-manual-PostCompact-*.json")
	if restores != 1 {
		t.Errorf("restore delivered %d times, want once", restores)
	}
	if cs := f.compactions(); cs.Count != 1 || cs.Delivered != 1 || cs.Pending != 0 {
		t.Errorf("compactions = %+v, want one compaction, delivered", cs)
	}
}

// TestRestoreUnderPreviewLimit: with the largest budget the config allows and a checkpoint that
// fills it, the whole restore stays under Claude Code's 10,000-character preview limit.
func TestRestoreUnderPreviewLimit(t *testing.T) {
	f := newFixture(t, "manual-compact-opus-1m")
	f.payload("hook-manual-PreCompact-*.json")
	f.c.Config.Checkpoint.Budget = 9000
	ck := goodCheckpoint(t, f.session)
	ck += "\n## Pointers\n" + strings.Repeat("- docs/notes.md line of pointers that goes on\n", (8990-len(ck))/47)
	f.writeCheckpoint(ck)
	f.run("hook-manual-PreCompact-*.json")
	got := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	t.Logf("checkpoint %d, restore %d characters", len(ck), utf8.RuneCountInString(got))
	if n := utf8.RuneCountInString(got); n >= 10_000 || !strings.Contains(got, RestoreHeading) {
		t.Fatalf("restore of %d characters (want < 10,000)", n)
	}
}

// TestRestoreByUserPromptFailsClosed: when UserPromptSubmit cannot record the delivery (a
// symlink planted at the compactions lock after PostCompact set the restore pending), the
// restore still goes out, with the checkpoint named stale and why, never as ground truth.
func TestRestoreByUserPromptFailsClosed(t *testing.T) {
	f := newFixture(t, "auto-compact-sonnet-200k")
	f.payload("hook-auto-PreCompact-*.json")
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-auto-PreCompact-*.json")
	f.run("hook-auto-PostCompact-*.json")
	if cs := f.compactions(); cs.Pending != 1 {
		t.Fatalf("after PostCompact: %+v", cs)
	}
	sdir, _ := f.c.State.Session(f.session)
	os.Remove(filepath.Join(sdir, compactionsLock))
	if err := os.Symlink(filepath.Join(t.TempDir(), "victim"), filepath.Join(sdir, compactionsLock)); err != nil {
		t.Fatal(err)
	}
	got := additionalContext(t, f.run("hook-auto-UserPromptSubmit-04.json"))
	if !strings.Contains(got, RestoreHeading) || strings.Contains(got, RecoveryInstructions) || !strings.Contains(got, "STALE CHECKPOINT") ||
		!strings.Contains(got, "could not be read or recorded") {
		t.Errorf("UserPromptSubmit restore with the state not recordable:\n%s", got)
	}
	if b, err := os.ReadFile(filepath.Join(sdir, state.CompactionsProblemFile)); err != nil || !strings.Contains(string(b), "planted") {
		t.Errorf("no problem recorded for the statusline: %q, %v", b, err)
	}
}
