package hookevent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/transcript"
)

// inflightFixture is the manual-compaction capture with the transcript replaced by one that
// holds each kind of work in flight (transcript/testdata/inflight.jsonl, written from the real
// CLI's record shapes).
func inflightFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, "manual-compact-opus-1m")
	f.payload("hook-manual-PreCompact-*.json") // learn the session id
	data, err := os.ReadFile("../transcript/testdata/inflight.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.tpath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// stopPayload is a Stop payload of the fixture's session with background_tasks and
// session_crons as given (raw JSON arrays).
func (f *fixture) stopPayload(tasks, crons string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"permission_mode":"acceptEdits","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"ok","background_tasks":%s,"session_crons":%s}`,
		f.session, f.tpath, f.cwd, tasks, crons))
}

// TestRestoreListsWorkInFlight: Stop records what is in flight, PreCompact's snapshot holds it
// with the transcript's items, and the restore after the compaction lists each unfinished item
// with its id and output, the task lists with their statuses, plan mode, and the check rule.
func TestRestoreListsWorkInFlight(t *testing.T) {
	f := inflightFixture(t)
	if out := f.runData(f.stopPayload(
		`[{"id":"bzk3p9","type":"shell","status":"running","description":"Long build","command":"make build-all > /dev/null"}]`,
		`[{"id":"cron-7","schedule":"*/10 * * * *","recurring":true,"prompt":"check the build"}]`)); out != "" {
		t.Errorf("Stop printed %q", out)
	}
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-manual-PreCompact-*.json")
	_, snap, err := snapshot.Latest(f.c.State, f.session)
	if err != nil {
		t.Fatal(err)
	}
	if snap.InFlight == nil || len(snap.InFlight.Flight.Background) != 3 || snap.InFlight.Stop == nil || len(snap.InFlight.Stop.Crons) != 1 {
		t.Fatalf("snapshot in flight = %+v", snap.InFlight)
	}
	ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	for _, want := range []string{
		InFlightHeading, "check each unfinished item",
		"1 background command(s) not known to have finished (2 more stopped or no longer listed by Claude Code)",
		"  - bzk3p9: `make build-all > /dev/null` \"Long build\", output /tmp/claude-0/-home-user-project/tasks/bzk3p9.output",
		", listed by Claude Code's last Stop as running. Read its output",
		"2 subagent(s) with no result before the compaction, most recent first", "do not dispatch one again",
		"  - a4f00d (general-purpose) \"Watch the deploy\", started 22:00:24Z, launched in the background: its report comes as a notification, output /tmp/claude-0/",
		"subagents that returned their result (in the transcript or their output file, not in this summary): toolu_ag1 (tool call id) (Explore) \"Survey the schema\"",
		"  - toolu_ag2 (tool call id) (general-purpose) \"Draft the migration\"",
		"task list (last TodoWrite), 3 item(s), 2 not completed:",
		"[completed] Write the migration", "[in_progress] Run the migration on staging", "[pending] Update the docs",
		"[in_progress] #2 Tag the release", "[completed] #1 Review PR 42",
		"Plan mode was on earlier in this session (plan file /home/user/.claude/plans/quiet-migration.md); the permission mode at PreCompact was acceptEdits",
		"Claude Code's last Stop (", "listed as in flight (besides the 1 listed above):", "scheduled wake-up cron-7 `*/10 * * * *` (recurring): \"check the build\"",
		"the whole transcript",
	} {
		if !strings.Contains(ctx, want) {
			t.Errorf("restore lacks %q", want)
		}
	}
	if n := strings.Count(ctx, "bzk3p9 "); n != 0 || strings.Count(ctx, "bzk3p9:") != 1 {
		t.Errorf("the background command the transcript and the Stop both list is listed %d+%d times, want once", n, strings.Count(ctx, "bzk3p9:"))
	}
	if !strings.Contains(ctx, "(1 subagent call(s) were refused or failed: they did not run.)") {
		t.Error("the refused subagent is not counted")
	}
	for _, gone := range []string{"w7:", "Throwaway", "old item", "a list that never took", "Refused helper"} {
		if strings.Contains(ctx, gone) {
			t.Errorf("restore lists %q (stopped, finished, deleted or replaced)", gone)
		}
	}
	if strings.Index(ctx, InFlightHeading) < strings.Index(ctx, "</checkpoint>") {
		t.Error("the work in flight comes after the checkpoint")
	}
	if n := utf8Len(ctx); n > maxRestore {
		t.Errorf("restore is %d characters", n)
	}
}

// TestInFlightPlanModeAndPartial: plan mode on at PreCompact is said loudly; a snapshot of the
// transcript's tail says that absence is not proof.
func TestInFlightPlanModeAndPartial(t *testing.T) {
	snap := &snapshot.Snapshot{Partial: true, InFlight: &snapshot.InFlight{Flight: transcript.Flight{Mode: "plan", PlanSeen: true, PlanFile: "/p/plan.md"},
		Pane: "%3", Peers: []snapshot.Peer{{SessionID: "11111111-2222-4333-8444-555555555555", Pane: "%5", Zone: "warn"}}}}
	text := strings.Join(inFlightLines(snap), "\n")
	for _, want := range []string{"PLAN MODE WAS ON at PreCompact (plan file /p/plan.md)", "absent here is not proof it never existed",
		"this session is tmux pane %3", "session 11111111-2222-4333-8444-555555555555 (%5, zone warn"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
	if got := inFlightLines(&snapshot.Snapshot{InFlight: &snapshot.InFlight{}}); got != nil {
		t.Errorf("nothing in flight: %q", got)
	}
}

// TestInFlightPlanApproved: a plan approved through ExitPlanMode (2.1.42, no later record of
// the mode) is not restored as plan mode still on.
func TestInFlightPlanApproved(t *testing.T) {
	fs, err := transcript.Facts("../transcript/testdata/realworld/plan-approved.jsonl", 0, transcript.FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(inFlightLines(&snapshot.Snapshot{InFlight: &snapshot.InFlight{Flight: fs.Flight}}), "\n")
	if strings.Contains(text, "PLAN MODE WAS ON") || strings.Contains(text, "stay in plan mode") {
		t.Errorf("an approved plan restored as plan mode on:\n%s", text)
	}
	if !strings.Contains(text, "Plan mode ended at 10:02:30Z: the plan was approved") {
		t.Errorf("lacks the approval:\n%s", text)
	}
	// Left without an approval (a plan_mode_exit attachment): said so, not as an approval.
	left := fs.Flight
	left.PlanApproved = false
	text = strings.Join(inFlightLines(&snapshot.Snapshot{InFlight: &snapshot.InFlight{Flight: left}}), "\n")
	if !strings.Contains(text, "Plan mode was left at 10:02:30Z") || strings.Contains(text, "approved") || strings.Contains(text, "PLAN MODE WAS ON") {
		t.Errorf("plan mode left, restored as:\n%s", text)
	}
}

// TestRestoreInFlightBudget: a full checkpoint (the budget) and a huge, hostile record keep the
// restore under 10,000 characters, the checkpoint whole, and no escape byte.
func TestRestoreInFlightBudget(t *testing.T) {
	f := inflightFixture(t)
	ck := goodCheckpoint(t, f.session)
	ck += "\n" + strings.Repeat("- padding line for the budget, kept whole\n", (checkpoint.DefaultBudget-len(ck)-50)/42)
	f.writeCheckpoint(ck)
	fl := transcript.Flight{Mode: "plan"}
	for i := range transcript.MaxFlightBackground {
		fl.Background = append(fl.Background, transcript.Background{ID: fmt.Sprintf("../../x%d", i), ToolUseID: "t", Command: strings.Repeat("c", 300), Output: "/tmp/" + strings.Repeat("o", 300)})
	}
	fl.BackgroundDropped = 9960
	for i := range transcript.MaxFlightTasks {
		fl.Todos = append(fl.Todos, transcript.Task{Subject: fmt.Sprintf("%d %s", i, strings.Repeat("t", 300)), Status: "pending"})
	}
	stopRec := &snapshot.StopRecord{Time: time.Now()}
	for range 100 {
		stopRec.Background = append(stopRec.Background, payload.BackgroundTask{ID: "\x1b[2Jid", Type: "shell", Status: "running"})
	}
	snap := &snapshot.Snapshot{Version: snapshot.Version, SessionID: f.session, Time: time.Now().UTC(), InFlight: &snapshot.InFlight{Flight: fl, Stop: stopRec}}
	if _, err := snapshot.Write(f.c.State, snap, 0); err != nil {
		t.Fatal(err)
	}
	text := buildRestore(f.c, f.session, 1, "manual", time.Now(), nil)
	if n := utf8Len(text); n >= 10000 || n > maxRestore {
		t.Errorf("restore is %d characters", n)
	}
	if !strings.Contains(text, ck[:len(ck)-1]) {
		t.Error("the checkpoint is not whole")
	}
	if !strings.Contains(text, "PLAN MODE WAS ON") || !strings.Contains(text, "more line(s) of work in flight in") {
		t.Errorf("restore:\n%s", text[strings.Index(text, "</checkpoint>"):])
	}
	if strings.ContainsRune(text, 0x1b) {
		t.Error("an escape byte reached the restore")
	}
}

// TestStopRecord: nothing in flight writes nothing; work in flight is kept; nothing again is
// recorded once, as an empty record.
func TestStopRecord(t *testing.T) {
	f := inflightFixture(t)
	path, _ := snapshot.StopPath(f.c.State, f.session)
	f.runData(f.stopPayload(`[]`, `[]`))
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("nothing in flight wrote %s (%v)", path, err)
	}
	f.runData(f.stopPayload(`[{"id":"a\u001b]0;x\u0007","type":"shell","status":"running","description":"../../etc/passwd"}]`, `[]`))
	r, err := snapshot.LoadStop(f.c.State, f.session)
	if err != nil || len(r.Background) != 1 || strings.ContainsAny(r.Background[0].ID, "\x1b\x07") || r.Background[0].Description != "../../etc/passwd" {
		t.Fatalf("record %+v %v", r, err)
	}
	f.runData(f.stopPayload(`[]`, `[]`))
	r, err = snapshot.LoadStop(f.c.State, f.session)
	if err != nil || !r.Empty() {
		t.Fatalf("after nothing in flight: %+v %v", r, err)
	}
	fi1, _ := os.Lstat(path)
	f.runData(f.stopPayload(`[]`, `[]`))
	if fi2, _ := os.Lstat(path); !os.SameFile(fi1, fi2) {
		t.Error("an empty record was rewritten")
	}
	// The same work in flight again: not rewritten (no write, no fsync), its time moves on.
	running := `[{"id":"b1","type":"shell","status":"running","description":"build"}]`
	f.runData(f.stopPayload(running, `[]`))
	r1, _ := snapshot.LoadStop(f.c.State, f.session)
	fi1, _ = os.Lstat(path)
	time.Sleep(20 * time.Millisecond)
	f.runData(f.stopPayload(running, `[]`))
	fi2, _ := os.Lstat(path)
	r2, err := snapshot.LoadStop(f.c.State, f.session)
	if !os.SameFile(fi1, fi2) {
		t.Error("a Stop that lists the same work in flight rewrote the record")
	}
	if err != nil || r1 == nil || !r2.Time.After(r1.Time) || len(r2.Background) != 1 {
		t.Errorf("the unchanged record's time did not move on: %+v → %+v (%v)", r1, r2, err)
	}
	// 10,000 background tasks: capped, counted.
	var b strings.Builder
	b.WriteString("[")
	for i := range 10000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"t%d","type":"shell","status":"running","description":"d"}`, i)
	}
	b.WriteString("]")
	f.runData(f.stopPayload(b.String(), `[]`))
	r, _ = snapshot.LoadStop(f.c.State, f.session)
	if len(r.Background) != payload.MaxInFlight || r.BackgroundDropped != 10000-payload.MaxInFlight {
		t.Errorf("10,000 tasks: %d kept, %d dropped", len(r.Background), r.BackgroundDropped)
	}
}

// TestStopListedNothing: a background command started before the last Stop, which listed
// nothing in flight, has finished: the restore does not list it as unfinished.
func TestStopListedNothing(t *testing.T) {
	f := inflightFixture(t)
	f.runData(f.stopPayload(`[{"id":"bzk3p9","type":"shell","status":"running","description":"Long build"}]`, `[]`))
	f.runData(f.stopPayload(`[]`, `[]`)) // it finished: the next Stop lists nothing
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-manual-PreCompact-*.json")
	ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	if strings.Contains(ctx, "bzk3p9") || strings.Contains(ctx, "not known to have finished") {
		t.Errorf("a background command the last Stop no longer listed is listed as unfinished:\n%s", ctx)
	}
	if !strings.Contains(ctx, InFlightHeading) {
		t.Errorf("no work in flight at all:\n%s", ctx)
	}
}

func TestQuoteID(t *testing.T) {
	for in, want := range map[string]string{
		"bzk3p9": "bzk3p9", "toolu_01AbC": "toolu_01AbC", "../../etc/passwd": `"../../etc/passwd"`,
		"..": `".."`, "a\x1b[2Jb": `"a[2Jb"`, `q"uote`: `"q'uote"`, "": `""`,
	} {
		if got := quoteID(in); got != want {
			t.Errorf("quoteID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJudge: the first call that decides decides; reads, searches, bookkeeping, read-only git
// and the recovery steps (outputs of background commands and subagents, the plan file) decide
// nothing; files match by absolute path; a command is on plan only when it is Next's command;
// with plan mode on at PreCompact nothing before ExitPlanMode decides.
func TestJudge(t *testing.T) {
	p := &resumePending{Checkpoint: "/state/sessions/x/checkpoint.md", Cwd: "/home/u/p",
		Next: checkpoint.Targets{Commands: []string{"go test ./auth"}, Files: []string{"auth/session.go"}},
		Recovery: checkpoint.Targets{Commands: []string{"git ls-remote --exit-code origin fix/login"},
			Files: []string{"docs/auth.md", "/tmp/b1.output", "/tmp/claude/tasks/agent-a1.output", "/home/u/.claude/plans/p.md"}}}
	plan := *p
	plan.Plan = true
	bash := func(c string) transcript.Call { return transcript.Call{Name: "Bash", Command: c} }
	file := func(tool, f string) transcript.Call { return transcript.Call{Name: tool, File: f} }
	tool := func(name string) transcript.Call { return transcript.Call{Name: name} }
	tests := []struct {
		name  string
		p     *resumePending
		calls []transcript.Call
		want  string
	}{
		{"none", p, nil, ""},
		{"recovery only", p, []transcript.Call{file("Read", p.Checkpoint), bash("zoneline checkpoint reconcile"), {Name: "Skill"}, bash("git ls-remote  --exit-code origin fix/login"), file("Read", "/home/u/p/docs/auth.md"), bash("tail /tmp/b1.output")}, ""},
		{"next command", p, []transcript.Call{file("Read", p.Checkpoint), bash("go test ./auth")}, OnPlan},
		{"next command beside a cd", p, []transcript.Call{bash("cd /p && go test ./auth")}, OnPlan},
		{"next with more arguments is not next (its whole argument list, never a prefix)", p, []transcript.Call{bash("cd /p && go test ./auth -count=1")}, OffPlan},
		{"next file", p, []transcript.Call{file("Edit", "/home/u/p/auth/session.go")}, OnPlan},
		{"next file read", p, []transcript.Call{file("Read", "/home/u/p/auth/session.go")}, OnPlan},
		{"other command", p, []transcript.Call{file("Read", p.Checkpoint), bash("git push origin main")}, OffPlan},
		{"other file", p, []transcript.Call{file("Write", "/home/u/p/README.md"), bash("go test ./auth")}, OffPlan},
		{"a short part of next is not next", p, []transcript.Call{bash("go")}, OffPlan},
		{"another tool", p, []transcript.Call{{Name: "Agent"}}, OffPlan},

		// Neutral: reads, searches, bookkeeping, read-only git, then Next.
		{"ExitPlanMode is neutral", p, []transcript.Call{tool("ExitPlanMode"), bash("go test ./auth")}, OnPlan},
		{"TodoWrite is neutral", p, []transcript.Call{tool("TodoWrite"), bash("go test ./auth")}, OnPlan},
		{"TaskUpdate is neutral", p, []transcript.Call{tool("TaskUpdate"), tool("TaskCreate"), bash("go test ./auth")}, OnPlan},
		{"git status is neutral", p, []transcript.Call{bash("git status"), bash("git log --oneline -5 | head"), bash("git diff HEAD~1 2>&1"), bash("git show HEAD"), bash("git branch --list"), bash("git rev-parse HEAD"), bash("go test ./auth")}, OnPlan},
		{"Grep and Glob are neutral", p, []transcript.Call{file("Grep", ""), file("Glob", ""), file("Read", "/home/u/p/main.go"), bash("go test ./auth")}, OnPlan},
		{"subagent output is recovery", p, []transcript.Call{file("Read", "/tmp/claude/tasks/agent-a1.output"), bash("cat /tmp/claude/tasks/agent-a1.output"), bash("go test ./auth")}, OnPlan},
		{"plan file is recovery", p, []transcript.Call{file("Edit", "/home/u/.claude/plans/p.md"), bash("go test ./auth")}, OnPlan},
		{"only neutral calls", p, []transcript.Call{bash("git status"), tool("TodoWrite"), tool("ExitPlanMode"), file("Grep", "")}, ""},

		// Not loose: what touches Next's file is not Next, another tree's file is another file.
		{"reverting next's file is off plan", p, []transcript.Call{bash("git checkout -- auth/session.go")}, OffPlan},
		{"removing next's file beside next is off plan", p, []transcript.Call{bash("rm auth/session.go && go test ./auth")}, OffPlan},
		{"next beside a write is off plan", p, []transcript.Call{bash("go test ./auth && cat x > auth/session.go")}, OffPlan},
		{"next piped into a viewer", p, []transcript.Call{bash("cd /home/u/p && go test ./auth 2>&1 | tail -20")}, OnPlan},
		{"git branch -D is not read-only", p, []transcript.Call{bash("git branch -D fix/login")}, OffPlan},
		{"git diff --output writes", p, []transcript.Call{bash("git diff --output=/tmp/x")}, OffPlan},
		{"a redirect writes", p, []transcript.Call{bash("cat x > auth/session.go")}, OffPlan},
		{"sed -i writes", p, []transcript.Call{bash("sed -n -i s/a/b/ auth/session.go")}, OffPlan},
		{"same name in another tree", p, []transcript.Call{file("Edit", "/home/u/other/auth/session.go")}, OffPlan},
		{"same name in another tree, read", p, []transcript.Call{file("Read", "/home/u/other/auth/session.go"), file("Write", "/home/u/other/auth/session.go")}, OffPlan},
		{"no cwd: a relative Next file matches nothing", &resumePending{Next: p.Next}, []transcript.Call{file("Edit", "/x/auth/session.go")}, OffPlan},

		// Plan mode on at PreCompact: nothing decides before ExitPlanMode.
		{"plan mode: before ExitPlanMode nothing decides", &plan, []transcript.Call{bash("rm -rf build"), file("Write", "/home/u/p/README.md")}, ""},
		{"plan mode: after ExitPlanMode, Next", &plan, []transcript.Call{file("Read", "/home/u/p/x.go"), tool("ExitPlanMode"), bash("go test ./auth")}, OnPlan},
		{"plan mode: after ExitPlanMode, other", &plan, []transcript.Call{tool("ExitPlanMode"), bash("rm -rf build")}, OffPlan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, call := judge(tt.calls, tt.p, "/state"); got != tt.want {
				t.Errorf("judge = %q (%s), want %q", got, call, tt.want)
			}
		})
	}
}

// appendLines appends transcript records.
func appendLines(t *testing.T, path string, lines ...string) {
	t.Helper()
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	for _, l := range lines {
		fh.WriteString(l + "\n")
	}
}

func toolUseLine(id, name string, input any) string {
	in, _ := json.Marshal(input)
	return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"uuid":"u-%s","message":{"id":"m-%s","role":"assistant","content":[{"type":"tool_use","id":%q,"name":%q,"input":%s}]}}`, id, id, id, name, in)
}

const boundaryLine = `{"parentUuid":null,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":140120}}`

// TestResumeCheck: after a restore the Stop of the next turn compares the first calls with Next;
// the verdict shows until the next prompt; off plan is claimed for one notification.
func TestResumeCheck(t *testing.T) {
	for _, tt := range []struct {
		name    string
		first   string
		verdict string
	}{
		{"on plan", "go test ./auth", OnPlan},
		{"off plan", "rm -rf build", OffPlan},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := inflightFixture(t)
			f.c.Config.Notify.Enabled = true
			ckPath := f.writeCheckpoint(goodCheckpoint(t, f.session))
			f.run("hook-manual-PreCompact-*.json")
			f.run("hook-manual-SessionStart-compact-01.json")
			f.run("hook-manual-PostCompact-*.json")
			pending, _ := f.c.State.SessionFile(f.session, ResumePendingFile)
			if _, err := os.Lstat(pending); err != nil {
				t.Fatalf("the restore did not arm the check: %v", err)
			}
			appendLines(t, f.tpath, boundaryLine, toolUseLine("r1", "Read", map[string]string{"file_path": ckPath}))
			f.runData(f.stopPayload(`[]`, `[]`)) // only a recovery step: still pending
			verdictPath, _ := f.c.State.SessionFile(f.session, ResumeFile)
			if _, err := os.Lstat(verdictPath); !os.IsNotExist(err) {
				t.Fatalf("a verdict after recovery steps only (%v)", err)
			}
			appendLines(t, f.tpath, toolUseLine("b1", "Bash", map[string]string{"command": tt.first}), toolUseLine("b2", "Bash", map[string]string{"command": "go test ./auth"}))
			f.runData(f.stopPayload(`[]`, `[]`))
			data, err := os.ReadFile(verdictPath)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				N                   int
				Verdict, Call, Next string
			}
			if err := json.Unmarshal(data, &v); err != nil || v.Verdict != tt.verdict || v.N != 1 || !strings.Contains(v.Call, tt.first) || !strings.Contains(v.Next, "go test ./auth") {
				t.Errorf("verdict %s (%v)", data, err)
			}
			if _, err := os.Lstat(pending); !os.IsNotExist(err) {
				t.Error("the check is still pending after its verdict")
			}
			claim, _ := f.c.State.SessionFile(f.session, resumeNotified+"1")
			_, err = os.Lstat(claim)
			if notified := err == nil; notified != (tt.verdict == OffPlan) {
				t.Errorf("notification claimed %v for %s", notified, tt.verdict)
			}
			f.run("hook-manual-UserPromptSubmit-05.json")
			if _, err := os.Lstat(verdictPath); !os.IsNotExist(err) {
				t.Error("the next prompt left the verdict")
			}
			// The compaction's record keeps it, for zoneline report.
			if got := Verdicts(f.c.State, f.session); got[1] != tt.verdict {
				t.Errorf("verdicts after the next prompt = %v, want compaction 1 %s", got, tt.verdict)
			}
			if cs, err := loadCompactions(f.c.State, f.session); err != nil || cs.Record(1) == nil || cs.Record(1).Resume != tt.verdict {
				t.Errorf("compaction 1's record does not keep the verdict %s (%v)", tt.verdict, err)
			}
		})
	}
}

// TestResumeCheckGuards: the check judges the right compaction and the right first call, or
// gives no verdict: a later compaction, a boundary beyond the part read, calls made before the
// restore's prompt, a check that nothing decided in three turns, a newer restore.
func TestResumeCheckGuards(t *testing.T) {
	arm := func(t *testing.T, viaPrompt bool) (*fixture, string, string) {
		f := inflightFixture(t)
		f.c.Config.Notify.Enabled = true
		f.writeCheckpoint(goodCheckpoint(t, f.session))
		f.run("hook-manual-PreCompact-*.json")
		if !viaPrompt {
			f.run("hook-manual-SessionStart-compact-01.json")
		}
		f.run("hook-manual-PostCompact-*.json")
		pending, _ := f.c.State.SessionFile(f.session, ResumePendingFile)
		verdict, _ := f.c.State.SessionFile(f.session, ResumeFile)
		return f, pending, verdict
	}
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	readVerdict := func(t *testing.T, path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		var v struct{ Verdict string }
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		return v.Verdict
	}
	off := toolUseLine("b1", "Bash", map[string]string{"command": "rm -rf build"})

	t.Run("a later compaction", func(t *testing.T) {
		f, pending, verdict := arm(t, false)
		if !exists(pending) {
			t.Fatal("not armed")
		}
		if _, err := updateCompactions(f.c.State, f.session, func(cs *compactions) bool { cs.Count = 2; return true }); err != nil {
			t.Fatal(err)
		}
		appendLines(t, f.tpath, boundaryLine, off)
		f.runData(f.stopPayload(`[]`, `[]`))
		if exists(verdict) || exists(pending) {
			t.Errorf("verdict %v, pending %v: a check of compaction 1 judged after compaction 2", exists(verdict), exists(pending))
		}
	})
	t.Run("boundary beyond the part read", func(t *testing.T) {
		f, pending, verdict := arm(t, false)
		filler := `{"type":"assistant","isSidechain":false,"message":{"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("x", 4000) + `"}]}}`
		lines := []string{boundaryLine}
		for range int(transcript.DefaultCallBytes/4000) + 10 {
			lines = append(lines, filler)
		}
		appendLines(t, f.tpath, append(lines, off)...)
		f.runData(f.stopPayload(`[]`, `[]`))
		if exists(verdict) || exists(pending) {
			t.Errorf("verdict %q, pending %v: an arbitrary call was judged the first", readVerdict(t, verdict), exists(pending))
		}
	})
	t.Run("restore by prompt skips the calls before it", func(t *testing.T) {
		f, pending, verdict := arm(t, true)
		appendLines(t, f.tpath, boundaryLine, off) // the agent went on after an auto-compaction, without the restore
		if out := f.run("hook-manual-UserPromptSubmit-05.json"); !strings.Contains(out, RestoreHeading) {
			t.Fatalf("the prompt did not deliver the restore: %q", out)
		}
		if !exists(pending) {
			t.Fatal("not armed")
		}
		appendLines(t, f.tpath, toolUseLine("b2", "Bash", map[string]string{"command": "go test ./auth"}))
		f.runData(f.stopPayload(`[]`, `[]`))
		if got := readVerdict(t, verdict); got != OnPlan {
			t.Errorf("verdict %q, want %q: a call made before the restore was judged", got, OnPlan)
		}
	})
	t.Run("expires after three turns", func(t *testing.T) {
		f, pending, verdict := arm(t, false)
		appendLines(t, f.tpath, boundaryLine, toolUseLine("g1", "Bash", map[string]string{"command": "git status"}))
		for i := 1; i <= resumeMaxStops; i++ {
			f.runData(f.stopPayload(`[]`, `[]`))
			if exists(pending) != (i < resumeMaxStops) {
				t.Fatalf("after Stop %d: pending %v", i, exists(pending))
			}
		}
		appendLines(t, f.tpath, off)
		f.runData(f.stopPayload(`[]`, `[]`))
		if exists(verdict) {
			t.Errorf("a verdict %q after the check expired", readVerdict(t, verdict))
		}
	})
	t.Run("a newer restore removes the older check", func(t *testing.T) {
		f, pending, _ := arm(t, false)
		if !exists(pending) {
			t.Fatal("not armed")
		}
		ck, _ := checkpoint.Path(f.c.State, f.session)
		os.Remove(ck) // the next restore carries no checkpoint: nothing to check
		f.run("hook-manual-SessionStart-compact-02.json")
		if exists(pending) {
			t.Error("the check of compaction 1 survived the restore of compaction 2")
		}
	})
}

// TestResumeCheckOff: [resume] check = false arms nothing.
func TestResumeCheckOff(t *testing.T) {
	f := inflightFixture(t)
	f.c.Config.Resume.Check = false
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-manual-PreCompact-*.json")
	f.run("hook-manual-SessionStart-compact-01.json")
	pending, _ := f.c.State.SessionFile(f.session, ResumePendingFile)
	if _, err := os.Lstat(pending); !os.IsNotExist(err) {
		t.Errorf("armed with the check off (%v)", err)
	}
}

// TestRestoreHostileTranscript: 10,000 background commands with escape sequences and ../ in
// their ids and output paths, and a 5,000-item task list: the restore stays under its limit,
// carries no control character but newlines, and no id became a file.
func TestRestoreHostileTranscript(t *testing.T) {
	f := inflightFixture(t)
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a%d","message":{"id":"m%d","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"sleep %d \u001b[2J","run_in_background":true}}]}}`+"\n", i, i, i, i)
		fmt.Fprintf(&b, `{"type":"user","uuid":"r%d","message":{"content":[{"type":"tool_result","tool_use_id":"t%d","content":"Command running in background with ID: ../../../tmp/zl-pwn-%d\u001b]0;x\u0007. Output is being written to: ../../\u009b31m%d.output."}]}}`+"\n", i, i, i, i)
	}
	b.WriteString(`{"type":"assistant","uuid":"todo","message":{"id":"mt","content":[{"type":"tool_use","id":"tt","name":"TodoWrite","input":{"todos":[`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"content":"item %d \u202e\u2066","status":"pending\u001b"}`, i)
	}
	b.WriteString("]}}]}}\n")
	if err := os.WriteFile(f.tpath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	f.writeCheckpoint(goodCheckpoint(t, f.session))
	f.run("hook-manual-PreCompact-*.json")
	ctx := additionalContext(t, f.run("hook-manual-SessionStart-compact-01.json"))
	if n := utf8Len(ctx); n > maxRestore {
		t.Errorf("restore is %d characters", n)
	}
	for _, r := range ctx {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e || r == 0x2066 {
			i := strings.IndexRune(ctx, r)
			t.Fatalf("control or bidi character %U in the restore: %q", r, ctx[max(0, i-200):i+20])
		}
	}
	if !strings.Contains(ctx, "sleep 9999") || !strings.Contains(ctx, "9960 older beyond the record's cap") {
		t.Errorf("the most recent commands and the drop count are not in the restore")
	}
	if m, _ := filepath.Glob("/tmp/zl-pwn-*"); len(m) > 0 {
		t.Errorf("an id became a file: %v", m)
	}
}
