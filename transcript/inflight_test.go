package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

// TestFlightEachKind reads a transcript written from the real CLI's record shapes that holds
// each kind of work in flight.
func TestFlightEachKind(t *testing.T) {
	fs, err := Facts("testdata/inflight.jsonl", 0, FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	f := fs.Flight
	if len(f.Background) != 3 {
		t.Fatalf("background = %+v, want 2", f.Background)
	}
	b := f.Background[0]
	if b.ID != "bzk3p9" || b.Output != "/tmp/claude-0/-home-user-project/tasks/bzk3p9.output" ||
		b.Command != "make build-all > /dev/null" || b.Description != "Long build" || b.Stopped || b.Started.IsZero() {
		t.Errorf("background[0] = %+v", b)
	}
	if w := f.Background[1]; w.ID != "w7" || !w.Stopped {
		t.Errorf("background[1] = %+v, want w7 stopped (KillShell)", w)
	}
	if d := f.Background[2]; d.ID != "bdone1" || !d.Stopped || d.Status != "completed" {
		t.Errorf("background[2] = %+v, want bdone1 completed (task notification)", d)
	}
	if len(f.Agents) != 4 {
		t.Fatalf("agents = %+v", f.Agents)
	}
	if a := f.Agents[3]; a.ID != "a4f00d" || !a.Background || a.Finished || a.Output == "" {
		t.Errorf("agents[3] = %+v, want the async agent a4f00d running with its output file", a)
	}
	if a := f.Agents[2]; !a.Failed || !a.Finished || a.Description != "Refused helper" {
		t.Errorf("agents[2] = %+v, want failed (the user refused it)", a)
	}
	if a := f.Agents[0]; a.Type != "Explore" || a.Description != "Survey the schema" || !a.Finished {
		t.Errorf("agents[0] = %+v, want finished Explore", a)
	}
	if a := f.Agents[1]; a.Type != "general-purpose" || a.Finished || a.ToolUseID != "toolu_ag2" {
		t.Errorf("agents[1] = %+v, want unfinished general-purpose", a)
	}
	wantTodos := []Task{{Subject: "Write the migration", Status: "completed"}, {Subject: "Run the migration on staging", Status: "in_progress"}, {Subject: "Update the docs", Status: "pending"}}
	if fmt.Sprint(f.Todos) != fmt.Sprint(wantTodos) {
		t.Errorf("todos = %+v, want %+v (the last TodoWrite that took: the one after failed)", f.Todos, wantTodos)
	}
	wantTasks := []Task{{ID: "1", Subject: "Review PR 42", Status: "completed"}, {ID: "2", Subject: "Tag the release", Status: "in_progress"}}
	if fmt.Sprint(f.Tasks) != fmt.Sprint(wantTasks) {
		t.Errorf("tasks = %+v, want %+v", f.Tasks, wantTasks)
	}
	if f.Mode != "acceptEdits" || !f.PlanSeen || f.PlanFile != "/home/user/.claude/plans/quiet-migration.md" {
		t.Errorf("mode %q plan seen %v file %q", f.Mode, f.PlanSeen, f.PlanFile)
	}
	if fs.Partial {
		t.Error("partial on a whole read")
	}
}

// TestFlightHostile: 10,000 background commands and a 5,000-item task list are capped with a
// count of what was dropped; ids with escape sequences and ../ are sanitized text.
func TestFlightHostile(t *testing.T) {
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"u%d","message":{"id":"m%d","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"sleep %d","run_in_background":true}}]}}`+"\n", i, i, i, i)
		fmt.Fprintf(&b, `{"type":"user","uuid":"r%d","message":{"content":[{"type":"tool_result","tool_use_id":"t%d","content":"Command running in background with ID: ../../etc/\u001b[31mx%d. Output is being written to: /tmp/\u001b]0;pwn\u0007%d.output."}]}}`+"\n", i, i, i, i)
	}
	todos := make([]string, 5000)
	for i := range todos {
		todos[i] = fmt.Sprintf(`{"content":"item %d \u202e","status":"pending"}`, i)
	}
	fmt.Fprintf(&b, `{"type":"assistant","uuid":"todo","message":{"id":"mt","content":[{"type":"tool_use","id":"tt","name":"TodoWrite","input":{"todos":[%s]}}]}}`+"\n", strings.Join(todos, ","))
	path := filepath.Join(testtmp.Dir(t), "t.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	fs, err := Facts(path, 64<<20, FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	f := fs.Flight
	if len(f.Background) != MaxFlightBackground || f.BackgroundDropped != 10000-MaxFlightBackground {
		t.Errorf("background %d kept, %d dropped", len(f.Background), f.BackgroundDropped)
	}
	if len(f.Todos) != MaxFlightTasks || f.TodosDropped != 5000-MaxFlightTasks {
		t.Errorf("todos %d kept, %d dropped", len(f.Todos), f.TodosDropped)
	}
	last := f.Background[len(f.Background)-1]
	if last.Command != "sleep 9999" {
		t.Errorf("the most recent are kept: last = %+v", last)
	}
	for _, s := range []string{last.ID, last.Output, f.Todos[0].Subject} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("unsanitized: %q", s)
		}
	}
	if !strings.Contains(last.ID, "../../etc/") {
		t.Errorf("the id is kept as text: %q", last.ID)
	}
}

// TestFlightTaskUpdates: TaskUpdates by id keep the order the tasks came in, a deleted one is
// gone, and distinct ids beyond the collection cap are counted, each once, not kept.
func TestFlightTaskUpdates(t *testing.T) {
	var b strings.Builder
	n := 0
	call := func(name, input string) {
		n++
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"u%d","message":{"id":"m%d","content":[{"type":"tool_use","id":"t%d","name":%q,"input":%s}]}}`+"\n", n, n, n, name, input)
	}
	result := func(content string) {
		fmt.Fprintf(&b, `{"type":"user","uuid":"r%d","message":{"content":[{"type":"tool_result","tool_use_id":"t%d","content":%q}]}}`+"\n", n, n, content)
	}
	for i := 1; i <= 3; i++ {
		call("TaskCreate", fmt.Sprintf(`{"subject":"task %d","description":"d"}`, i))
		result(fmt.Sprintf("Task #%d created successfully: task %d", i, i))
	}
	call("TaskUpdate", `{"taskId":"2","status":"deleted"}`)
	result("Updated task #2 deleted")
	call("TaskUpdate", `{"taskId":"3","status":"in_progress"}`)
	result("Updated task #3 status")
	const extra = 5000
	for i := range extra { // distinct ids never created
		call("TaskUpdate", fmt.Sprintf(`{"taskId":"x%d","status":"completed"}`, i))
		result("Updated task")
		call("TaskUpdate", fmt.Sprintf(`{"taskId":"x%d","subject":"again"}`, i)) // the same id: counted once
		result("Updated task")
	}
	path := filepath.Join(testtmp.Dir(t), "t.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	fs, err := Facts(path, 64<<20, FactLimits{})
	if err != nil {
		t.Fatal(err)
	}
	f := fs.Flight
	if len(f.Tasks) != MaxFlightTasks || f.Tasks[0].ID != "1" || f.Tasks[1].ID != "3" || f.Tasks[1].Status != "in_progress" || f.Tasks[2].ID != "x0" {
		t.Errorf("tasks = %+v…", f.Tasks[:3])
	}
	if want := 2 + extra - MaxFlightTasks; f.TasksDropped != want {
		t.Errorf("dropped %d, want %d", f.TasksDropped, want)
	}
}

// TestFlightRedactsBeforeCut: a token that straddles MaxFlightText is redacted, not cut into a
// head no redaction recognises.
func TestFlightRedactsBeforeCut(t *testing.T) {
	pad := strings.Repeat("a", MaxFlightText-12) + " "
	tokens := []string{"ghp_16C7e42F292c6912E7710c838347Ae178B4a", "sk-ant-api03-Xq7vR2mK9pL4nT8wZ1cF6hJ3bD5gS0aE"}
	for _, tok := range tokens {
		text := pad + tok
		in := func(v any) string { b, _ := json.Marshal(v); return string(b) }
		var b strings.Builder
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a1","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":%s}]}}`+"\n",
			in(map[string]any{"command": text, "description": text, "run_in_background": true}))
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a2","message":{"id":"m2","content":[{"type":"tool_use","id":"t2","name":"Agent","input":%s}]}}`+"\n",
			in(map[string]any{"description": text, "subagent_type": "x", "prompt": "p"}))
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a3","message":{"id":"m3","content":[{"type":"tool_use","id":"t3","name":"TodoWrite","input":%s}]}}`+"\n",
			in(map[string]any{"todos": []map[string]string{{"content": text, "status": "pending"}}}))
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a4","message":{"id":"m4","content":[{"type":"tool_use","id":"t4","name":"TaskCreate","input":%s}]}}`+"\n",
			in(map[string]any{"subject": text}))
		b.WriteString(`{"type":"user","uuid":"r4","message":{"content":[{"type":"tool_result","tool_use_id":"t4","content":"Task #1 created successfully"}]}}` + "\n")
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a5","message":{"id":"m5","content":[{"type":"tool_use","id":"t5","name":"TaskUpdate","input":%s}]}}`+"\n",
			in(map[string]any{"taskId": "1", "subject": text}))
		path := filepath.Join(testtmp.Dir(t), "t.jsonl")
		if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		fs, err := Facts(path, 0, FactLimits{})
		if err != nil {
			t.Fatal(err)
		}
		f := fs.Flight
		if len(f.Background) != 1 || len(f.Agents) != 1 || len(f.Todos) != 1 || len(f.Tasks) != 1 {
			t.Fatalf("flight = %+v", f)
		}
		head := tok[:8]
		for what, s := range map[string]string{"command": f.Background[0].Command, "description": f.Background[0].Description,
			"agent": f.Agents[0].Description, "todo": f.Todos[0].Subject, "task": f.Tasks[0].Subject} {
			if strings.Contains(s, head) || !strings.Contains(s, "[REDACTED") {
				t.Errorf("%s: %q: the token's head survived the cut", what, s)
			}
		}
	}
}
