package transcript

import (
	"bytes"
	"encoding/json"
	"slices"
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
// mode and the plan file. Every string is sanitized (safetext.Clip) and bounded. Lists are
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

// flightCollector folds tool calls, tool results and mode records into a Flight.
type flightCollector struct {
	f       Flight
	bg      map[string]int    // tool_use id → index in f.Background
	agents  map[string]int    // tool_use id → index in f.Agents
	creates map[string]string // TaskCreate tool_use id → subject, until its result names the id
	tasks   []Task
	todos   map[string][]Task // TodoWrite tool_use id → its list, until its result says it was applied
	todosID string            // the last TodoWrite whose result has not come: applied at the end
	// updates are TaskUpdate calls by tool_use id, applied when their result is not an error
	// (or, with no result in the part read, at the end, in call order).
	updates     map[string]taskUpdate
	updateOrder []string
}

type taskUpdate struct{ id, status, subject string }

// update applies one TaskUpdate.
func (c *flightCollector) update(u taskUpdate) {
	i := slices.IndexFunc(c.tasks, func(t Task) bool { return t.ID == u.id })
	if i < 0 {
		c.tasks = append(c.tasks, Task{ID: u.id, Status: "pending"})
		i = len(c.tasks) - 1
	}
	if u.status == "deleted" {
		c.tasks = slices.Delete(c.tasks, i, i+1)
		return
	}
	if u.status != "" {
		c.tasks[i].Status = u.status
	}
	if u.subject != "" {
		c.tasks[i].Subject = u.subject
	}
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

// tool records one main-chain tool_use block started at t.
func (c *flightCollector) tool(b contentBlock, t time.Time) {
	switch b.Name {
	case "Bash", "Agent", "Task", "TodoWrite", "TaskCreate", "TaskUpdate", "KillShell", "KillBash", "TaskStop", "EnterPlanMode", "ExitPlanMode":
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
		if c.bg == nil {
			c.bg = map[string]int{}
		}
		c.bg[b.ID] = len(c.f.Background)
		c.f.Background = append(c.f.Background, Background{ToolUseID: safetext.Clip(b.ID, 80),
			Command: safetext.Clip(in.Command, MaxFlightText), Description: safetext.Clip(in.Description, MaxFlightText), Started: t})
	case "Agent", "Task":
		if c.agents == nil {
			c.agents = map[string]int{}
		}
		c.agents[b.ID] = len(c.f.Agents)
		c.f.Agents = append(c.f.Agents, Agent{ToolUseID: safetext.Clip(b.ID, 80), Type: safetext.Clip(in.SubagentType, 80),
			Description: safetext.Clip(in.Description, MaxFlightText), Background: truthy(in.RunInBackground), Started: t})
	case "TodoWrite":
		list := []Task{}
		for _, td := range in.Todos {
			list = append(list, Task{Subject: safetext.Clip(td.Content, MaxFlightText), Status: safetext.Clip(td.Status, 20)})
		}
		if c.todos == nil {
			c.todos = map[string][]Task{}
		}
		c.todos[b.ID], c.todosID = list, b.ID
	case "TaskCreate":
		if c.creates == nil {
			c.creates = map[string]string{}
		}
		c.creates[b.ID] = safetext.Clip(in.Subject, MaxFlightText)
	case "TaskUpdate":
		if id := rawID(in.TaskID); id != "" {
			if c.updates == nil {
				c.updates = map[string]taskUpdate{}
			}
			c.updates[b.ID] = taskUpdate{id: id, status: safetext.Clip(in.Status, 20), subject: safetext.Clip(in.Subject, MaxFlightText)}
			c.updateOrder = append(c.updateOrder, b.ID)
		}
	case "KillShell", "KillBash", "TaskStop":
		id := safetext.Clip(firstNonEmpty(in.ShellID, in.BashID, in.TaskID2, rawID(in.TaskID)), 80)
		for i := range c.f.Background {
			if id != "" && c.f.Background[i].ID == id {
				c.f.Background[i].Stopped = true
			}
		}
	case "EnterPlanMode":
		c.mode("plan", t)
	case "ExitPlanMode":
		c.f.PlanSeen = true
		if in.PlanFile != "" {
			c.f.PlanFile = safetext.Clip(in.PlanFile, MaxFlightPath)
		}
	}
}

// results records the tool_result blocks of a main-chain user record.
func (c *flightCollector) results(content []byte) {
	if len(c.bg) == 0 && len(c.agents) == 0 && len(c.creates) == 0 && len(c.todos) == 0 && len(c.updates) == 0 {
		return
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   bool            `json:"is_error"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		if i, ok := c.bg[b.ToolUseID]; ok {
			text := resultText(b.Content)
			bg := &c.f.Background[i]
			bg.ID = safetext.Clip(after(text, "with ID: ", ". "), 80)
			bg.Output = safetext.Clip(after(text, "Output is being written to: ", ". "), MaxFlightPath)
			bg.Output = strings.TrimSuffix(bg.Output, ".")
			if b.IsError {
				bg.Stopped = true
			}
		}
		if i, ok := c.agents[b.ToolUseID]; ok {
			a := &c.f.Agents[i]
			text := resultText(b.Content)
			if id := after(text, "agentId: ", " "); id != "" {
				a.ID = safetext.Clip(strings.TrimRight(id, ".,;)"), 80)
			}
			if strings.Contains(text, "Async agent launched") {
				a.Background = true // 2.1.332 runs agents in the background: a task notification ends them
			}
			if out := after(text, "output_file: ", "\n"); out != "" {
				a.Output = safetext.Clip(out, MaxFlightPath)
			}
			a.Finished = !a.Background || b.IsError
			a.Failed = b.IsError
		}
		if u, ok := c.updates[b.ToolUseID]; ok {
			delete(c.updates, b.ToolUseID)
			if !b.IsError {
				c.update(u)
			}
		}
		if todos, ok := c.todos[b.ToolUseID]; ok {
			delete(c.todos, b.ToolUseID)
			if !b.IsError { // a TodoWrite that failed (the tool is disabled, say) changed nothing
				c.f.Todos = todos
				c.todosID = ""
			}
		}
		if subject, ok := c.creates[b.ToolUseID]; ok {
			delete(c.creates, b.ToolUseID)
			text := resultText(b.Content)
			id := ""
			if rest, ok := strings.CutPrefix(strings.TrimSpace(text), "Task #"); ok {
				id, _, _ = strings.Cut(rest, " ")
			}
			if id == "" || b.IsError {
				continue
			}
			c.tasks = append(c.tasks, Task{ID: safetext.Clip(id, 40), Subject: subject, Status: "pending"})
		}
	}
}

// notification reads a main-chain user record's text that is a <task-notification> (Claude
// Code's message when background work ends): the task's id, tool call id, output file and
// status.
func (c *flightCollector) notification(text string) {
	if !strings.HasPrefix(strings.TrimSpace(text), "<task-notification>") {
		return
	}
	c.taskStatus(between(text, "<task-id>", "</task-id>"), between(text, "<tool-use-id>", "</tool-use-id>"),
		between(text, "<status>", "</status>"), between(text, "<output-file>", "</output-file>"))
}

// taskStatus applies a background task's status (a notification or a task_status attachment)
// to the background command or subagent it names.
func (c *flightCollector) taskStatus(id, toolUseID, status, output string) {
	id, status = safetext.Clip(id, 80), safetext.Clip(status, 20)
	if status == "" || (id == "" && toolUseID == "") {
		return
	}
	ended := status != "running" && status != "pending"
	for i := range c.f.Background {
		b := &c.f.Background[i]
		if (id != "" && b.ID == id) || (toolUseID != "" && b.ToolUseID == toolUseID) {
			b.Status, b.Stopped = status, b.Stopped || ended
		}
	}
	for i := range c.f.Agents {
		a := &c.f.Agents[i]
		if (id != "" && a.ID == id) || (toolUseID != "" && a.ToolUseID == toolUseID) {
			if ended {
				a.Finished = true
				a.Failed = a.Failed || status != "completed"
			}
			if a.Output == "" && output != "" {
				a.Output = safetext.Clip(output, MaxFlightPath)
			}
		}
	}
}

// mode records a permission mode in force at t.
func (c *flightCollector) mode(m string, t time.Time) {
	m = safetext.Clip(m, 40)
	if m == "" {
		return
	}
	if m == "plan" {
		c.f.PlanSeen = true
	}
	c.f.Mode, c.f.ModeTime = m, t
}

// userRecord reads what a main-chain user record says beyond its tool results: the permission
// mode it was sent in, and a task notification.
func (c *flightCollector) userRecord(line, content []byte, t time.Time) {
	if bytes.Contains(line, []byte(`"permissionMode"`)) {
		var r struct {
			Mode string `json:"permissionMode"`
		}
		if json.Unmarshal(line, &r) == nil && r.Mode != "" {
			c.mode(r.Mode, t)
		}
	}
	if bytes.Contains(content, []byte(`<task-notification>`)) {
		var text string
		if json.Unmarshal(content, &text) != nil {
			text = resultText(content)
		}
		c.notification(text)
	}
}

// record reads the records that are not user or assistant: permission-mode and the plan_mode
// attachments.
func (c *flightCollector) record(typ string, line []byte) {
	switch typ {
	case "permission-mode":
		var r struct {
			Mode string `json:"permissionMode"`
		}
		if json.Unmarshal(line, &r) == nil {
			c.mode(r.Mode, time.Time{})
		}
	case "attachment":
		if !bytes.Contains(line, []byte(`plan_mode`)) && !bytes.Contains(line, []byte(`task_status`)) {
			return
		}
		var r struct {
			Sidechain  bool `json:"isSidechain"`
			Attachment struct {
				Type     string `json:"type"`
				PlanFile string `json:"planFilePath"`
				Sub      bool   `json:"isSubAgent"`
				TaskID   string `json:"taskId"`
				Status   string `json:"status"`
				Output   string `json:"outputFilePath"`
			} `json:"attachment"`
		}
		if json.Unmarshal(line, &r) != nil || r.Sidechain || r.Attachment.Sub {
			return
		}
		switch r.Attachment.Type {
		case "task_status":
			c.taskStatus(r.Attachment.TaskID, "", r.Attachment.Status, r.Attachment.Output)
		case "plan_mode", "plan_mode_reentry":
			c.f.PlanSeen = true
			if r.Attachment.PlanFile != "" {
				c.f.PlanFile = safetext.Clip(r.Attachment.PlanFile, MaxFlightPath)
			}
		}
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
	f.Tasks, f.TasksDropped = capFirst(c.tasks, MaxFlightTasks)
	return f
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

// truthy reports whether a JSON value is true (or the string "true").
func truthy(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	return s == "true" || s == `"true"`
}

// rawID returns a JSON string or number as text.
func rawID(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return safetext.Clip(s, 40)
	}
	return safetext.Clip(string(raw), 40)
}

// resultText returns a tool_result's content as text: a string, or its text blocks joined.
func resultText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// after returns the text after the first marker up to end (or the end of the line), trimmed;
// "" without the marker.
func after(text, marker, end string) string {
	_, rest, ok := strings.Cut(text, marker)
	if !ok {
		return ""
	}
	if i := strings.Index(rest, end); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(rest)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
