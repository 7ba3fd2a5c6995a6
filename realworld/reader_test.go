package realworld

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// The test's own reading of a transcript, from the record formats the corpus shows, with
// encoding/json and regexp: nothing of zoneline's transcript package. It folds records in order
// into facts (context tokens, compactions, work in flight), and says at which records a
// compaction could happen: every main-chain tool call answered.

type record struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsSidechain      bool            `json:"isSidechain"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	ParentUUID       *string         `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	PermissionMode   string          `json:"permissionMode"`
	Content          json.RawMessage `json:"content"` // queue-operation
	Message          struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *struct {
			Input         float64 `json:"input_tokens"`
			CacheCreation float64 `json:"cache_creation_input_tokens"`
			CacheRead     float64 `json:"cache_read_input_tokens"`
		} `json:"usage"`
	} `json:"message"`
	CompactMetadata *struct {
		Trigger    string   `json:"trigger"`
		PreTokens  float64  `json:"preTokens"`
		PostTokens *float64 `json:"postTokens"`
	} `json:"compactMetadata"`
	Attachment *struct {
		Type   string          `json:"type"`
		Prompt json.RawMessage `json:"prompt"`
		TaskID string          `json:"taskId"`
		Status string          `json:"status"`
	} `json:"attachment"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Text      string          `json:"text"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// bgItem and agentItem are one background command and one subagent, by tool_use id.
type bgItem struct {
	task  string
	ended bool
}

type agentItem struct {
	agent string
	ended bool
}

// facts is what the records read so far say.
type facts struct {
	tokens      int64
	tokensKnown bool
	model       string
	compactions int   // boundaries and 1.0.6x summaries
	boundaries  []cmp // compact_boundary records (what tune counts)
	bg          map[string]*bgItem
	agents      map[string]*agentItem
	bgOrder     []string
	agentOrder  []string
	mode        string
	pending     map[string]bool // main-chain tool calls not answered
	tools       map[string]string
	outputs     map[string]string // TaskOutput/BashOutput call → the task id asked about
	turns       map[string]int64  // tune: message id (or a line's own key) → context
	turnModel   map[string]string
}

type cmp struct {
	pre  int64
	post *int64
}

func newFacts() *facts {
	return &facts{bg: map[string]*bgItem{}, agents: map[string]*agentItem{}, pending: map[string]bool{}, tools: map[string]string{},
		outputs: map[string]string{}, turns: map[string]int64{}, turnModel: map[string]string{}}
}

// openBackground and openAgents are the tool_use ids of the items not known to have ended.
func (f *facts) openBackground() []string {
	var ids []string
	for _, id := range f.bgOrder {
		if !f.bg[id].ended {
			ids = append(ids, id)
		}
	}
	return ids
}

func (f *facts) openAgents() []string {
	var ids []string
	for _, id := range f.agentOrder {
		if !f.agents[id].ended {
			ids = append(ids, id)
		}
	}
	return ids
}

var (
	reTaskID   = regexp.MustCompile(`<task-id>([^<]*)</task-id>`)
	reToolUse  = regexp.MustCompile(`<tool-use-id>([^<]*)</tool-use-id>`)
	reStatus   = regexp.MustCompile(`<status>([^<]*)</status>`)
	reBgID     = regexp.MustCompile(`with ID: ([A-Za-z0-9_-]+)`)
	reAgentID  = regexp.MustCompile(`agentId: ([A-Za-z0-9_-]+)`)
	reOutputID = regexp.MustCompile(`<task_id>([^<]*)</task_id>`)
)

func ended(status string) bool { return status != "" && status != "running" && status != "pending" }

func clampTok(v float64) int64 {
	if !(v > 0) {
		return 0
	}
	return int64(v)
}

// text returns a content value as text: a string, or its text blocks joined.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []block
	json.Unmarshal(raw, &bs)
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// notification applies a <task-notification>'s status.
func (f *facts) notification(s string) {
	if !strings.Contains(s, "<task-notification>") {
		return
	}
	var task, use, status string
	if m := reTaskID.FindStringSubmatch(s); m != nil {
		task = m[1]
	}
	if m := reToolUse.FindStringSubmatch(s); m != nil && m[1] != "REDACTED" {
		use = m[1]
	}
	if m := reStatus.FindStringSubmatch(s); m != nil {
		status = m[1]
	}
	f.taskEnded(task, use, status)
}

func (f *facts) taskEnded(task, use, status string) {
	if !ended(status) {
		return
	}
	for id, b := range f.bg {
		if (task != "" && b.task == task) || id == use {
			b.ended = true
		}
	}
	for id, a := range f.agents {
		if (task != "" && a.agent == task) || id == use {
			a.ended = true
		}
	}
}

// fold reads one line. moment reports whether a compaction could happen after it: a main-chain
// user record that answered the last pending tool call.
func (f *facts) fold(line []byte) (moment bool) {
	var r record
	if json.Unmarshal(line, &r) != nil {
		return false
	}
	main := !r.IsSidechain
	switch r.Type {
	case "assistant":
		if !main {
			return false
		}
		if u := r.Message.Usage; u != nil && r.Message.Model != "<synthetic>" {
			f.tokens, f.tokensKnown = clampTok(u.Input)+clampTok(u.CacheCreation)+clampTok(u.CacheRead), true
			if r.Message.Model != "" {
				f.model = r.Message.Model
				key := r.Message.ID
				if key == "" {
					key = string(line)
				}
				if _, seen := f.turns[key]; !seen {
					f.turns[key], f.turnModel[key] = f.tokens, r.Message.Model
				}
			}
		}
		var bs []block
		json.Unmarshal(r.Message.Content, &bs)
		for _, b := range bs {
			if b.Type == "tool_use" {
				f.toolUse(b)
			}
		}
	case "system":
		if main && r.Subtype == "compact_boundary" {
			f.compaction(r)
		}
	case "user":
		if !main {
			return false
		}
		if r.IsCompactSummary && r.ParentUUID == nil {
			f.compaction(r)
		}
		if r.PermissionMode != "" {
			f.mode = r.PermissionMode
		}
		f.notification(text(r.Message.Content))
		var bs []block
		if json.Unmarshal(r.Message.Content, &bs) != nil {
			return false
		}
		answered := false
		for _, b := range bs {
			if b.Type == "tool_result" {
				answered = true
				f.toolResult(b, r.ToolUseResult)
			}
		}
		return answered && len(f.pending) == 0
	case "permission-mode":
		if r.PermissionMode != "" {
			f.mode = r.PermissionMode
		}
	case "attachment":
		if a := r.Attachment; a != nil && main {
			switch a.Type {
			case "queued_command":
				f.notification(text(a.Prompt))
			case "task_status":
				f.taskEnded(a.TaskID, "", a.Status)
			case "plan_mode_exit":
				if f.mode == "plan" {
					f.mode = ""
				}
			}
		}
	case "queue-operation":
		f.notification(text(r.Content))
	}
	return false
}

func (f *facts) compaction(r record) {
	f.compactions++
	f.tokens, f.tokensKnown = 0, false
	if m := r.CompactMetadata; m != nil {
		c := cmp{pre: clampTok(m.PreTokens)}
		if m.PostTokens != nil {
			p := clampTok(*m.PostTokens)
			c.post = &p
			if p > 0 {
				f.tokens, f.tokensKnown = p, true
			}
		}
		f.boundaries = append(f.boundaries, c)
	}
}

type input struct {
	Command         string          `json:"command"`
	RunInBackground json.RawMessage `json:"run_in_background"`
	ShellID         string          `json:"shell_id"`
	BashID          string          `json:"bash_id"`
	TaskID          string          `json:"task_id"`
}

func (f *facts) toolUse(b block) {
	if f.tools[b.ID] != "" {
		return // written twice
	}
	f.tools[b.ID] = b.Name
	f.pending[b.ID] = true
	var in input
	json.Unmarshal(b.Input, &in)
	bg := bytes.TrimSpace(in.RunInBackground)
	switch b.Name {
	case "Bash":
		if (string(bg) == "true" || string(bg) == `"true"`) && in.Command != "" {
			f.bg[b.ID] = &bgItem{}
			f.bgOrder = append(f.bgOrder, b.ID)
		}
	case "Agent", "Task":
		f.agents[b.ID] = &agentItem{}
		f.agentOrder = append(f.agentOrder, b.ID)
	case "KillShell", "KillBash", "TaskStop":
		id := in.ShellID + in.BashID + in.TaskID
		for _, item := range f.bg {
			if id != "" && item.task == id {
				item.ended = true
			}
		}
	case "TaskOutput", "BashOutput":
		f.outputs[b.ID] = in.TaskID + in.BashID
	case "EnterPlanMode":
		f.mode = "plan"
	}
}

// toolResult reads a result, preferring the record's toolUseResult to its text.
func (f *facts) toolResult(b block, tur json.RawMessage) {
	delete(f.pending, b.ToolUseID)
	var res struct {
		BackgroundTaskID string `json:"backgroundTaskId"`
		IsAsync          bool   `json:"isAsync"`
		Status           string `json:"status"`
		AgentID          string `json:"agentId"`
		ShellID          string `json:"shellId"`
		Task             *struct {
			TaskID string `json:"task_id"`
			Status string `json:"status"`
		} `json:"task"`
	}
	if len(tur) > 0 && tur[0] == '{' {
		json.Unmarshal(tur, &res)
	}
	body := text(b.Content)
	if item, ok := f.bg[b.ToolUseID]; ok {
		item.task = res.BackgroundTaskID
		if m := reBgID.FindStringSubmatch(body); item.task == "" && m != nil {
			item.task = m[1]
		}
		item.ended = item.ended || b.IsError
	}
	if item, ok := f.agents[b.ToolUseID]; ok {
		async := res.IsAsync || res.Status == "async_launched" || strings.Contains(body, "Async agent launched")
		item.agent = res.AgentID
		if m := reAgentID.FindStringSubmatch(body); item.agent == "" && m != nil {
			item.agent = m[1]
		}
		item.ended = b.IsError || !async
	}
	if id, ok := f.outputs[b.ToolUseID]; ok && !b.IsError {
		status := res.Status
		if res.Task != nil {
			id, status = res.Task.TaskID, res.Task.Status
		}
		if status == "" { // no toolUseResult: the text, before the task's own output
			head, _, _ := strings.Cut(body, "<output>")
			head, _, _ = strings.Cut(head, "<stdout>")
			if m := reStatus.FindStringSubmatch(head); m != nil {
				status = m[1]
			}
			if m := reOutputID.FindStringSubmatch(head); m != nil {
				id = m[1]
			}
		}
		f.taskEnded(id, "", status)
	}
	if f.tools[b.ToolUseID] == "ExitPlanMode" && !b.IsError && strings.HasPrefix(strings.TrimSpace(body), "User has approved your plan") {
		f.mode = ""
	}
}

// lines splits data into its lines (without newlines).
func lines(data []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		out = append(out, bytes.Clone(sc.Bytes()))
	}
	return out
}
