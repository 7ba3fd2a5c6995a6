package transcript

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
)

// Bounds of a Flight: the most recent items are kept, the rest counted as dropped.
const (
	MaxFlightBackground = 40  // background commands
	MaxFlightAgents     = 40  // subagents
	MaxFlightTasks      = 100 // task list items
	MaxFlightText       = 300 // runes of one command, description or subject
	MaxFlightPath       = 400 // runes of one path
)

// Flight is the work in flight that the part of a transcript read records, mechanically: the
// background commands started, the subagents dispatched, the latest task list, the permission
// mode and the plan file. Every string is redacted, then sanitized (clip) and bounded. Lists are
// oldest first.
type Flight struct {
	Background        []Background `json:"background,omitempty"`
	BackgroundDropped int          `json:"background_dropped,omitzero"`
	Agents            []Agent      `json:"agents,omitempty"`
	AgentsDropped     int          `json:"agents_dropped,omitzero"`
	// Todos is the list of the last TodoWrite call (each call replaces the whole list).
	Todos        []Task `json:"todos,omitempty"`
	TodosDropped int    `json:"todos_dropped,omitzero"`
	// Tasks is the list TaskCreate and TaskUpdate built, by task id; deleted tasks are gone.
	Tasks        []Task    `json:"tasks,omitempty"`
	TasksDropped int       `json:"tasks_dropped,omitzero"`
	Mode         string    `json:"permission_mode,omitempty"` // the latest permission mode; "" when none was recorded
	ModeTime     time.Time `json:"permission_mode_time,omitzero"`
	PlanSeen     bool      `json:"plan_seen,omitzero"` // plan mode was on at some point in the part read
	PlanFile     string    `json:"plan_file,omitempty"`
	// PlanExited is when plan mode was last left (ExitPlanMode's plan approved, or a
	// plan_mode_exit attachment) with no permission mode recorded since: Mode is then "" (which
	// of the modes the user picked on approval is not written down).
	PlanExited   time.Time `json:"plan_exited,omitzero"`
	PlanApproved bool      `json:"plan_approved,omitzero"` // it was left through an approved plan (not the user's own switch)
}

// Empty reports whether f records nothing.
func (f *Flight) Empty() bool {
	return f == nil || len(f.Background) == 0 && len(f.Agents) == 0 && len(f.Todos) == 0 && len(f.Tasks) == 0 &&
		f.Mode == "" && !f.PlanSeen && f.PlanFile == ""
}

// Background is one run_in_background Bash call.
type Background struct {
	ToolUseID   string    `json:"tool_use_id"`
	ID          string    `json:"id,omitempty"`     // from the tool result; "" until it arrived
	Output      string    `json:"output,omitempty"` // the output file the tool result names
	Command     string    `json:"command"`
	Description string    `json:"description,omitempty"`
	Started     time.Time `json:"started,omitzero"`
	Stopped     bool      `json:"stopped,omitzero"` // it ended: a task notification said so, or a KillShell or TaskStop call named it
	Status      string    `json:"status,omitempty"` // the last status a task notification gave
}

// Agent is one Agent (or Task) tool call: a subagent.
type Agent struct {
	ToolUseID   string    `json:"tool_use_id"`
	ID          string    `json:"id,omitempty"` // agentId from the tool result, when it names one
	Type        string    `json:"type,omitempty"`
	Description string    `json:"description,omitempty"`
	Background  bool      `json:"background,omitzero"` // run_in_background: the tool result is only the launch
	Started     time.Time `json:"started,omitzero"`
	Finished    bool      `json:"finished"`        // its tool result came back (for a background agent: never set)
	Failed      bool      `json:"failed,omitzero"` // the tool result was an error: it did not run, or failed
	Output      string    `json:"output,omitempty"`
}

// Task is one item of a task list.
type Task struct {
	ID      string `json:"id,omitempty"` // TaskCreate's number; "" for TodoWrite items
	Subject string `json:"subject"`
	Status  string `json:"status"` // pending, in_progress, completed (as the tool call said)
}

// Unfinished reports whether the task is not completed.
func (t Task) Unfinished() bool { return t.Status != "completed" }

// maxCollectTasks bounds the task list while it is collected: a task beyond it (a TaskCreate or
// a TaskUpdate naming an id not seen) is counted in TasksDropped, not kept. Lookups go through
// an id → index map, so a transcript of TaskUpdates with distinct ids costs linear time.
const maxCollectTasks = 4 * MaxFlightTasks

// flightCollector folds tool calls, tool results and mode records into a Flight.
type flightCollector struct {
	f       Flight
	bg      map[string]int    // tool_use id → index in f.Background
	bgByID  map[string][]int  // background task id (from its result) → indices in f.Background
	agents  map[string]int    // tool_use id → index in f.Agents
	agentID map[string][]int  // agentId → indices in f.Agents
	creates map[string]string // TaskCreate tool_use id → subject, until its result names the id
	tasks   []Task            // with deleted ones left as holes (taskDeleted) until done
	taskIdx map[string]int    // task id → index in tasks, for live tasks
	live    int               // tasks not deleted
	// tasksDropped are the task ids beyond maxCollectTasks (each counted once).
	tasksDropped map[string]struct{}
	todos        map[string][]Task // TodoWrite tool_use id → its list, until its result says it was applied
	todosID      string            // the last TodoWrite whose result has not come: applied at the end
	// updates are TaskUpdate calls by tool_use id, applied when their result is not an error
	// (or, with no result in the part read, at the end, in call order).
	updates     map[string]taskUpdate
	updateOrder []string
	outputs     map[string]string // TaskOutput/BashOutput tool_use id → the task id it asked about
	exits       map[string]bool   // ExitPlanMode tool_use ids, until their result
	// hidden are the stand-in ids of calls whose id a recording tool replaced with REDACTED,
	// oldest first, until a result (REDACTED too) takes the first: Claude Code writes results
	// in the order of the calls.
	hidden  []string
	nHidden int
	// launch is the toolUseResult of the user record being read when it is an async agent's
	// launch (2.1.2xx: {isAsync, status: "async_launched", agentId, outputFile}); nil otherwise.
	launch *asyncLaunch
}

type asyncLaunch struct {
	IsAsync    bool   `json:"isAsync"`
	Status     string `json:"status"`
	AgentID    string `json:"agentId"`
	OutputFile string `json:"outputFile"`
}

// launchOf reads a user record's toolUseResult when it reports an async agent's launch.
func launchOf(line []byte) *asyncLaunch {
	if !bytes.Contains(line, []byte(`async_launched`)) {
		return nil
	}
	var l asyncLaunch
	if !toolUseResult(line, &l) || l.Status != "async_launched" {
		return nil
	}
	return &l
}

// toolUseResult decodes a user record's toolUseResult into v when it is an object; false when
// it is not one, or it or the line does not decode (v may then be filled in part).
func toolUseResult(line []byte, v any) bool {
	var r struct {
		Result json.RawMessage `json:"toolUseResult"`
	}
	return json.Unmarshal(line, &r) == nil && len(r.Result) > 0 && r.Result[0] == '{' && json.Unmarshal(r.Result, v) == nil
}

// redactedID reports whether a tool-use id was blanked by a tool that recorded the transcript
// ("REDACTED", "[REDACTED]", …): it names no call, and two such ids are not the same call.
func redactedID(id string) bool {
	return len(id) <= 40 && strings.Contains(strings.ToUpper(id), "REDACTED")
}

// callID gives a call whose id is REDACTED a stand-in of its own, so that it neither merges
// with another such call nor vanishes; every tool_use block of the main chain passes here.
func (c *flightCollector) callID(b *contentBlock) {
	if !redactedID(b.ID) {
		return
	}
	c.nHidden++
	b.ID = "REDACTED#" + strconv.Itoa(c.nHidden)
	c.hidden = append(c.hidden, b.ID)
}

// resultID returns the call a tool result answers: its tool_use_id, or for a REDACTED one the
// oldest REDACTED call not yet answered.
func (c *flightCollector) resultID(id string) string {
	if !redactedID(id) {
		return id
	}
	if len(c.hidden) == 0 {
		return ""
	}
	id = c.hidden[0]
	c.hidden = c.hidden[1:]
	return id
}

type flightInput struct {
	Command         string          `json:"command"`
	Description     string          `json:"description"`
	RunInBackground json.RawMessage `json:"run_in_background"`
	SubagentType    string          `json:"subagent_type"`
	Todos           []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	} `json:"todos"`
	Subject  string          `json:"subject"`
	TaskID   json.RawMessage `json:"taskId"`
	Status   string          `json:"status"`
	ShellID  string          `json:"shell_id"`
	BashID   string          `json:"bash_id"`
	TaskID2  string          `json:"task_id"`
	PlanFile string          `json:"planFilePath"`
}

// planApproved starts ExitPlanMode's tool result when the user approved the plan (Claude Code
// 1.0 to 2.1); a refusal ("The user doesn't want to proceed …") leaves plan mode on.
const planApproved = "User has approved your plan"

// tool records one main-chain tool_use block started at t.
func (c *flightCollector) tool(b contentBlock, t time.Time) {
	switch b.Name {
	case "Bash", "Agent", "Task", "TodoWrite", "TaskCreate", "TaskUpdate", "KillShell", "KillBash", "TaskStop",
		"TaskOutput", "BashOutput", "EnterPlanMode", "ExitPlanMode":
	default:
		return
	}
	var in flightInput
	if len(b.Input) > 0 && json.Unmarshal(b.Input, &in) != nil {
		return
	}
	switch b.Name {
	case "Bash":
		if !truthy(in.RunInBackground) || in.Command == "" {
			return
		}
		put(&c.bg, b.ID, len(c.f.Background))
		c.f.Background = append(c.f.Background, Background{ToolUseID: safetext.Field(b.ID, 80),
			Command: safetext.Field(in.Command, MaxFlightText), Description: safetext.Field(in.Description, MaxFlightText), Started: t})
	case "Agent", "Task":
		put(&c.agents, b.ID, len(c.f.Agents))
		c.f.Agents = append(c.f.Agents, Agent{ToolUseID: safetext.Field(b.ID, 80), Type: safetext.Field(in.SubagentType, 80),
			Description: safetext.Field(in.Description, MaxFlightText), Background: truthy(in.RunInBackground), Started: t})
	case "TodoWrite":
		list := []Task{}
		for _, td := range in.Todos {
			list = append(list, Task{Subject: safetext.Field(td.Content, MaxFlightText), Status: safetext.Field(td.Status, 20)})
		}
		put(&c.todos, b.ID, list)
		c.todosID = b.ID
	case "TaskCreate":
		put(&c.creates, b.ID, safetext.Field(in.Subject, MaxFlightText))
	case "TaskUpdate":
		if id := rawID(in.TaskID); id != "" {
			put(&c.updates, b.ID, taskUpdate{id: id, status: safetext.Field(in.Status, 20), subject: safetext.Field(in.Subject, MaxFlightText)})
			c.updateOrder = append(c.updateOrder, b.ID)
		}
	case "KillShell", "KillBash", "TaskStop":
		id := safetext.Field(cmp.Or(in.ShellID, in.BashID, in.TaskID2, rawID(in.TaskID)), 80)
		for _, i := range c.bgByID[id] {
			c.f.Background[i].Stopped = true
		}
	case "TaskOutput", "BashOutput":
		// Their result reports the task's status: the one way a 2.1.20 session learnt that a
		// background command had ended (TaskOutput replaced BashOutput and KillShell there).
		if id := safetext.Field(cmp.Or(in.TaskID2, in.BashID, in.ShellID, rawID(in.TaskID)), 80); id != "" {
			put(&c.outputs, b.ID, id)
		}
	case "EnterPlanMode":
		c.mode("plan", t)
	case "ExitPlanMode":
		c.f.PlanSeen = true
		if in.PlanFile != "" {
			c.f.PlanFile = safetext.Field(in.PlanFile, MaxFlightPath)
		}
		put(&c.exits, b.ID, true)
	}
}

// done caps the lists and returns the Flight.
func (c *flightCollector) done() Flight {
	if list, ok := c.todos[c.todosID]; ok && c.todosID != "" {
		c.f.Todos = list // the last call, its result not in the part read (compacted mid-call)
	}
	for _, id := range c.updateOrder {
		if u, ok := c.updates[id]; ok {
			c.update(u)
		}
	}
	f := c.f
	f.Background, f.BackgroundDropped = capLast(f.Background, MaxFlightBackground)
	f.Agents, f.AgentsDropped = capLast(f.Agents, MaxFlightAgents)
	f.Todos, f.TodosDropped = capFirst(slices.Clone(f.Todos), MaxFlightTasks)
	var tasks []Task
	for _, t := range c.tasks {
		if t.Status != taskDeleted {
			tasks = append(tasks, t)
		}
	}
	f.Tasks, f.TasksDropped = capFirst(tasks, MaxFlightTasks)
	f.TasksDropped += len(c.tasksDropped)
	return f
}

// put sets (*m)[k] to v, making the map first: the collectors' maps start nil.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// capLast keeps the last n elements (the most recent), counting the rest.
func capLast[T any](s []T, n int) ([]T, int) {
	if len(s) > n {
		return slices.Clone(s[len(s)-n:]), len(s) - n
	}
	return s, 0
}

// capFirst keeps the first n elements (a list's order is the agent's), counting the rest.
func capFirst[T any](s []T, n int) ([]T, int) {
	if len(s) > n {
		return s[:n], len(s) - n
	}
	return s, 0
}
