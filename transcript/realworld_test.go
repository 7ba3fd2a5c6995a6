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
	if f.Mode == "plan" || f.Mode != "" || !f.PlanSeen || f.PlanExited.IsZero() {
		t.Errorf("mode %q plan seen %v exited %v, want plan mode ended at the approval, mode unknown", f.Mode, f.PlanSeen, f.PlanExited)
	}
	if got := f.PlanExited.UTC().Format("15:04:05"); got != "10:02:30" {
		t.Errorf("plan exited at %s, want the approval's record time 10:02:30", got)
	}
}
