package transcript

import (
	"testing"
	"time"
)

var testTime = time.Date(2026, 7, 20, 10, 0, 0, 0, time.UTC)

// The fixtures in testdata/realworld/ are hand-written in the shapes that public transcripts
// (../shared/realworld-transcripts/, Claude Code 1.0.48 to 2.1.219) showed; none is a copy.

func realworldFacts(t *testing.T, name string) FactSet {
	t.Helper()
	fs, err := Facts("testdata/realworld/"+name, 0, FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestFlightQueuedNotifications: from 2.1.111 a background agent's end comes as a
// queued_command attachment (and in queue-operation records before delivery), not only as a
// user record; a finished agent is not listed as running, and a REDACTED tool-use id matches
// nothing (the task id does).
func TestFlightQueuedNotifications(t *testing.T) {
	f := realworldFacts(t, "queued-notification.jsonl").Flight
	if len(f.Agents) != 3 {
		t.Fatalf("agents = %+v, want 3", f.Agents)
	}
	want := []struct {
		id               string
		finished, failed bool
	}{{"a1111111111111111", true, false}, {"a2222222222222222", true, true}, {"a3333333333333333", false, false}}
	for i, w := range want {
		a := f.Agents[i]
		if a.ID != w.id || a.Finished != w.finished || a.Failed != w.failed || !a.Background {
			t.Errorf("agents[%d] = %+v, want id %s finished %v failed %v (background)", i, a, w.id, w.finished, w.failed)
		}
	}
}

// TestFlightQueueOperationAlone: a notification still only enqueued (not yet delivered) ends
// the task too.
func TestFlightQueueOperationAlone(t *testing.T) {
	c := flightCollector{}
	c.tool(contentBlock{Type: "tool_use", ID: "toolu_1", Name: "Bash", Input: []byte(`{"command":"make","run_in_background":true}`)}, testTime)
	c.results([]byte(`[{"type":"tool_result","tool_use_id":"toolu_1","content":"Command running in background with ID: b9. Output is being written to: /tmp/b9.output"}]`), testTime)
	c.record("queue-operation", []byte(`{"type":"queue-operation","operation":"enqueue","content":"<task-notification>\n<task-id>b9</task-id>\n<status>failed</status>\n<summary>Background command \"make\" failed with exit code 2</summary>\n</task-notification>"}`))
	f := c.done()
	if len(f.Background) != 1 || !f.Background[0].Stopped || f.Background[0].Status != "failed" {
		t.Errorf("background = %+v, want b9 stopped, failed", f.Background)
	}
}

// TestFlightTaskOutput: TaskOutput's result gives the task's status (failed: ended; running:
// still running), read before the task's own output, which may say anything.
func TestFlightTaskOutput(t *testing.T) {
	f := realworldFacts(t, "taskoutput.jsonl").Flight
	if len(f.Background) != 2 {
		t.Fatalf("background = %+v", f.Background)
	}
	if b := f.Background[0]; b.ID != "b111111" || !b.Stopped || b.Status != "failed" {
		t.Errorf("background[0] = %+v, want b111111 stopped, failed", b)
	}
	if b := f.Background[1]; b.ID != "b222222" || b.Stopped || b.Status != "running" {
		t.Errorf("background[1] = %+v, want b222222 running (its output's own <status> is not the task's)", b)
	}
}

// TestFlightPlanApproved: an ExitPlanMode whose plan was approved ends plan mode (a refused
// one does not); no later record gives the mode, so it is unknown, not "plan".
func TestFlightPlanApproved(t *testing.T) {
	f := realworldFacts(t, "plan-approved.jsonl").Flight
	if f.Mode == "plan" || f.Mode != "" || !f.PlanSeen || f.PlanExited.IsZero() || !f.PlanApproved {
		t.Errorf("mode %q plan seen %v exited %v, want plan mode ended at the approval, mode unknown", f.Mode, f.PlanSeen, f.PlanExited)
	}
	if got := f.PlanExited.UTC().Format("15:04:05"); got != "10:02:30" {
		t.Errorf("plan exited at %s, want the approval's record time 10:02:30", got)
	}
}

// TestFlightAsyncLaunchResult: an async agent's launch is read from the record's
// toolUseResult ({isAsync, status: "async_launched", agentId, outputFile}) when its text does
// not name the agent; its notification then finds it by that id.
func TestFlightAsyncLaunchResult(t *testing.T) {
	f := realworldFacts(t, "queued-notification.jsonl").Flight
	if len(f.Agents) != 3 {
		t.Fatalf("agents = %+v", f.Agents)
	}
	if a := f.Agents[2]; a.ID != "a3333333333333333" || a.Output != "/tmp/claude/tasks/a3333333333333333.output" || !a.Background || a.Finished {
		t.Errorf("agents[2] = %+v, want a3333333333333333 from toolUseResult, running, with its output file", a)
	}
}

// TestFlightRedactedIDs: tool-use ids a recording tool wrote as REDACTED: the calls neither
// merge nor vanish, results pair with them in order, a notification's REDACTED tool-use id
// names nothing (its task id does), and the calls since the compaction keep both.
func TestFlightRedactedIDs(t *testing.T) {
	path := "testdata/realworld/redacted.jsonl"
	f := realworldFacts(t, "redacted.jsonl").Flight
	if len(f.Background) != 2 || len(f.Agents) != 2 {
		t.Fatalf("background %+v agents %+v: want 2 and 2", f.Background, f.Agents)
	}
	if b := f.Background[0]; b.ID != "bw1" || b.Command != "npm run watch:css" || !b.Stopped {
		t.Errorf("background[0] = %+v, want bw1 stopped", b)
	}
	if b := f.Background[1]; b.ID != "bw2" || b.Command != "npm run watch:js" || b.Stopped {
		t.Errorf("background[1] = %+v, want bw2 running", b)
	}
	if a := f.Agents[0]; a.ID != "ab0000000000000a1" || a.Description != "Audit the themes" || a.Finished {
		t.Errorf("agents[0] = %+v, want a1 running", a)
	}
	if a := f.Agents[1]; a.ID != "ab0000000000000a2" || a.Description != "Audit the segments" || !a.Finished {
		t.Errorf("agents[1] = %+v, want a2 finished", a)
	}
	if f.Agents[0].ToolUseID == f.Agents[1].ToolUseID || f.Background[0].ToolUseID == f.Background[1].ToolUseID {
		t.Errorf("stand-in ids merge: %+v %+v", f.Background, f.Agents)
	}
	calls, _, err := CallsSinceCompaction(path, 0)
	if err != nil || len(calls) != 4 {
		t.Errorf("calls = %+v, %v: want all 4 (none merged by the shared id)", calls, err)
	}
}

// TestCompactStart: a transcript that starts with a compact_boundary (2.1.219; its metadata
// carries preCompactDiscoveredTools, not used) is a compacted session: one compaction, the
// boundary's postTokens until the first reply.
func TestCompactStart(t *testing.T) {
	for _, tt := range []struct {
		name        string
		tokens      int64
		fromBoundry bool
	}{{"compact-start-before-reply.jsonl", 18101, true}, {"compact-start.jsonl", 25000, false}} {
		path := "testdata/realworld/" + tt.name
		sc, err := ScanCompactions(path, 0, 0)
		if err != nil || sc.Compactions != 1 || sc.Last == nil || sc.Last.PreTokens != 998659 || sc.Last.PostTokens != 18101 || !sc.Last.PostKnown {
			t.Errorf("%s: scan %+v (last %+v), %v: want 1 compaction 998659 → 18101", tt.name, sc, sc.Last, err)
		}
		c, err := Tail(path, 0)
		if err != nil || !c.Found || c.Tokens != tt.tokens || c.FromBoundary != tt.fromBoundry {
			t.Errorf("%s: tail %+v, %v: want %d (from boundary %v)", tt.name, c, err, tt.tokens, tt.fromBoundry)
		}
		fs := realworldFacts(t, tt.name)
		if fs.Compactions != 1 || fs.Context.Tokens != tt.tokens {
			t.Errorf("%s: facts %d compactions, context %+v", tt.name, fs.Compactions, fs.Context)
		}
	}
	calls, found, err := CallsSinceCompaction("testdata/realworld/compact-start.jsonl", 0)
	if err != nil || !found || len(calls) != 1 || calls[0].Command != "go build ./..." {
		t.Errorf("calls since compaction = %+v, %v, %v", calls, found, err)
	}
}

// TestSummaryOnlyCompaction: Claude Code 1.0.6x wrote no compact_boundary; a compaction
// summary that starts a chain (parentUuid null) is counted, and until the next reply the
// context is unknown (the summary's own size is not recorded).
func TestSummaryOnlyCompaction(t *testing.T) {
	sc, err := ScanCompactions("testdata/realworld/summary-only.jsonl", 0, 0)
	if err != nil || sc.Compactions != 1 || sc.Last == nil || sc.Last.PostKnown || sc.Reclaimed != 0 {
		t.Errorf("scan %+v, %v: want 1 compaction, nothing known of its tokens", sc, err)
	}
	c, err := Tail("testdata/realworld/summary-only-before-reply.jsonl", 0)
	if err != nil || c.Found || !c.Boundary {
		t.Errorf("tail before the reply: %+v, %v: want the compaction, no count", c, err)
	}
	c, err = Tail("testdata/realworld/summary-only.jsonl", 0)
	if err != nil || !c.Found || c.Tokens != 30000 {
		t.Errorf("tail after the reply: %+v, %v: want 30000", c, err)
	}
	if fs := realworldFacts(t, "summary-only.jsonl"); fs.Compactions != 1 {
		t.Errorf("facts: %d compactions, want 1", fs.Compactions)
	}
	// From 1.0.7x on the summary's parent is its boundary: one compaction, not two.
	if sc, _ := ScanCompactions("testdata/realworld/compact-start.jsonl", 0, 0); sc.Compactions != 1 {
		t.Errorf("boundary and summary counted %d times", sc.Compactions)
	}
}

// TestIgnoredFormats: record types and attachments that carry nothing zoneline uses (progress,
// custom-title, agent-name, ai-title, last-prompt, agent-setting, bridge-session, pr-link;
// task_reminder, compact_file_reference) are read as their type only: a progress record's
// nested subagent reply is neither the context nor a call, nor a prompt.
func TestIgnoredFormats(t *testing.T) {
	path := "testdata/realworld/formats.jsonl"
	want := []string{"user", "assistant", "progress", "custom-title", "agent-name", "ai-title", "last-prompt", "agent-setting",
		"bridge-session", "pr-link", "attachment", "attachment"}
	for i, ln := range readLines(t, path) {
		r, ok := ParseRecord([]byte(ln))
		if !ok || r.Type != want[i] || (i > 1 && (r.Usage != nil || r.Compaction != nil)) {
			t.Errorf("line %d: %+v, %v: want type %s only", i+1, r, ok, want[i])
		}
	}
	c, err := Tail(path, 0)
	if err != nil || c.Tokens != 20000 {
		t.Errorf("tail %+v, %v: want the main reply's 20000, not the progress record's", c, err)
	}
	fs := realworldFacts(t, "formats.jsonl")
	if len(fs.Prompts) != 1 || len(fs.Flight.Background) != 0 || len(fs.Commands) != 0 || fs.Compactions != 0 {
		t.Errorf("facts %+v: want one prompt and nothing else", fs)
	}
}

// TestFlightPlanModeExitAttachment: a plan_mode_exit attachment (2.1.185) ends plan mode too,
// not as an approval.
func TestFlightPlanModeExitAttachment(t *testing.T) {
	c := flightCollector{}
	c.record("permission-mode", []byte(`{"type":"permission-mode","permissionMode":"plan"}`))
	c.record("attachment", []byte(`{"type":"attachment","isSidechain":false,"timestamp":"2026-06-22T01:09:39.750Z","attachment":{"type":"plan_mode_exit","planFilePath":"/home/user/.claude/plans/steady-deer.md","planExists":false}}`))
	f := c.done()
	if f.Mode != "" || f.PlanExited.IsZero() || f.PlanApproved || f.PlanFile != "/home/user/.claude/plans/steady-deer.md" {
		t.Errorf("flight %+v: want plan mode left at 01:09:39, not approved", f)
	}
}
