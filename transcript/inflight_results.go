package transcript

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
)

// outputStatus reads a TaskOutput or BashOutput result: "<status>…</status>" (and TaskOutput's
// "<task_id>…</task_id>") before the task's own output, which may hold any text.
func (c *flightCollector) outputStatus(id, text string) {
	head := text
	for _, mark := range []string{"<output>", "<stdout>", "<stderr>"} {
		if i := strings.Index(head, mark); i >= 0 {
			head = head[:i]
		}
	}
	if tid := between(head, "<task_id>", "</task_id>"); tid != "" {
		id = tid
	}
	c.taskStatus(id, "", between(head, "<status>", "</status>"), "")
}

// resultBlock is a block of a user record's content: a tool_result, when Type says so.
type resultBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// results records the tool_result blocks of a main-chain user record written at t.
func (c *flightCollector) results(content []byte, t time.Time) {
	if len(c.bg) == 0 && len(c.agents) == 0 && len(c.creates) == 0 && len(c.todos) == 0 && len(c.updates) == 0 &&
		len(c.outputs) == 0 && len(c.exits) == 0 && len(c.hidden) == 0 {
		return
	}
	var blocks []resultBlock
	if json.Unmarshal(content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		if b.ToolUseID = c.resultID(b.ToolUseID); b.ToolUseID == "" {
			continue
		}
		if i, ok := c.bg[b.ToolUseID]; ok {
			text := ContentText(b.Content)
			bg := &c.f.Background[i]
			bg.ID = safetext.Field(after(text, "with ID: ", ". "), 80)
			if bg.ID != "" {
				put(&c.bgByID, bg.ID, append(c.bgByID[bg.ID], i))
			}
			bg.Output = safetext.Field(after(text, "Output is being written to: ", ". "), MaxFlightPath)
			bg.Output = strings.TrimSuffix(bg.Output, ".")
			if b.IsError {
				bg.Stopped = true
			}
		}
		if i, ok := c.agents[b.ToolUseID]; ok {
			a := &c.f.Agents[i]
			text := ContentText(b.Content)
			if id := after(text, "agentId: ", " "); id != "" {
				a.ID = safetext.Field(strings.TrimRight(id, ".,;)"), 80)
				put(&c.agentID, a.ID, append(c.agentID[a.ID], i))
			}
			if strings.Contains(text, "Async agent launched") {
				a.Background = true // 2.1.332 runs agents in the background: a task notification ends them
			}
			if out := after(text, "output_file: ", "\n"); out != "" {
				a.Output = safetext.Field(out, MaxFlightPath)
			}
			if l := c.launch; l != nil && !b.IsError {
				// The record's own account of the launch, whatever its text says.
				a.Background = true
				if a.ID == "" && l.AgentID != "" {
					a.ID = safetext.Field(l.AgentID, 80)
					put(&c.agentID, a.ID, append(c.agentID[a.ID], i))
				}
				if a.Output == "" && l.OutputFile != "" {
					a.Output = safetext.Field(l.OutputFile, MaxFlightPath)
				}
			}
			a.Finished = !a.Background || b.IsError
			a.Failed = b.IsError
		}
		if id, ok := c.outputs[b.ToolUseID]; ok {
			delete(c.outputs, b.ToolUseID)
			if !b.IsError {
				c.outputStatus(id, ContentText(b.Content))
			}
		}
		if c.exits[b.ToolUseID] {
			delete(c.exits, b.ToolUseID)
			if !b.IsError && strings.HasPrefix(strings.TrimSpace(ContentText(b.Content)), planApproved) {
				c.planExit(t, true)
			}
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
			text := ContentText(b.Content)
			id := ""
			if rest, ok := strings.CutPrefix(strings.TrimSpace(text), "Task #"); ok {
				id, _, _ = strings.Cut(rest, " ")
			}
			if id == "" || b.IsError {
				continue
			}
			c.addTask(Task{ID: safetext.Field(id, 40), Subject: subject, Status: "pending"})
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
	id, status = safetext.Field(id, 80), safetext.Field(status, 20)
	if redactedID(toolUseID) {
		toolUseID = "" // names no call
	}
	if status == "" || (id == "" && toolUseID == "") {
		return
	}
	ended := status != "running" && status != "pending"
	seen := map[int]bool{}
	mark := func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		b := &c.f.Background[i]
		b.Status, b.Stopped = status, b.Stopped || ended
	}
	for _, i := range c.bgByID[id] {
		mark(i)
	}
	if i, ok := c.bg[toolUseID]; ok && toolUseID != "" {
		mark(i)
	}
	clear(seen)
	markAgent := func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		a := &c.f.Agents[i]
		if ended {
			a.Finished = true
			a.Failed = a.Failed || status != "completed"
		}
		if a.Output == "" && output != "" {
			a.Output = safetext.Field(output, MaxFlightPath)
		}
	}
	for _, i := range c.agentID[id] {
		markAgent(i)
	}
	if i, ok := c.agents[toolUseID]; ok && toolUseID != "" {
		markAgent(i)
	}
}
