package transcript

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
)

// planExit records that plan mode ended at t (approved: through an approved plan): the mode in
// force since is not recorded.
func (c *flightCollector) planExit(t time.Time, approved bool) {
	c.f.PlanSeen = true
	if c.f.Mode == "plan" || c.f.Mode == "" {
		c.f.Mode, c.f.ModeTime = "", time.Time{}
	}
	c.f.PlanExited, c.f.PlanApproved = t, approved
}

// mode records a permission mode in force at t.
func (c *flightCollector) mode(m string, t time.Time) {
	m = safetext.Field(m, 40)
	if m == "" {
		return
	}
	if m == "plan" {
		c.f.PlanSeen = true
	}
	c.f.Mode, c.f.ModeTime = m, t
}

// modeOf records the permissionMode of a record (a user record's, or a permission-mode record's)
// in force at t.
func (c *flightCollector) modeOf(line []byte, t time.Time) {
	var r struct {
		Mode string `json:"permissionMode"`
	}
	if json.Unmarshal(line, &r) == nil {
		c.mode(r.Mode, t)
	}
}

// userRecord reads what a main-chain user record says beyond its tool results: the permission
// mode it was sent in, and a task notification.
func (c *flightCollector) userRecord(line, content []byte, t time.Time) {
	if bytes.Contains(line, []byte(`"permissionMode"`)) {
		c.modeOf(line, t)
	}
	if bytes.Contains(content, []byte(`<task-notification>`)) {
		c.notification(ContentText(content))
	}
}

// record reads the records that are not user or assistant: permission-mode, the plan mode and
// task status attachments, and the task notifications Claude Code queues before delivering
// them (from 2.1.111 a queued_command attachment, and queue-operation records, enqueue and
// remove, which carry the notification's text): a notification means the task ended, whether
// or not the model has read it yet.
func (c *flightCollector) record(typ string, line []byte) {
	switch typ {
	case "queue-operation":
		if !bytes.Contains(line, []byte(`<task-notification>`)) {
			return
		}
		var r struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(line, &r) == nil {
			c.notification(ContentText(r.Content))
		}
	case "permission-mode":
		c.modeOf(line, time.Time{})
	case "attachment":
		if !bytes.Contains(line, []byte(`plan_mode`)) && !bytes.Contains(line, []byte(`task_status`)) &&
			!bytes.Contains(line, []byte(`<task-notification>`)) {
			return
		}
		var r struct {
			Sidechain  bool   `json:"isSidechain"`
			Timestamp  string `json:"timestamp"`
			Attachment struct {
				Type     string          `json:"type"`
				PlanFile string          `json:"planFilePath"`
				Sub      bool            `json:"isSubAgent"`
				TaskID   string          `json:"taskId"`
				Status   string          `json:"status"`
				Output   string          `json:"outputFilePath"`
				Prompt   json.RawMessage `json:"prompt"`
			} `json:"attachment"`
		}
		if json.Unmarshal(line, &r) != nil || r.Sidechain || r.Attachment.Sub {
			return
		}
		switch r.Attachment.Type {
		case "task_status":
			c.taskStatus(r.Attachment.TaskID, "", r.Attachment.Status, r.Attachment.Output)
		case "queued_command":
			c.notification(ContentText(r.Attachment.Prompt))
		case "plan_mode", "plan_mode_reentry", "plan_mode_exit":
			c.f.PlanSeen = true
			if r.Attachment.PlanFile != "" {
				c.f.PlanFile = safetext.Field(r.Attachment.PlanFile, MaxFlightPath)
			}
			if r.Attachment.Type == "plan_mode_exit" {
				if c.f.Mode == "plan" || c.f.PlanExited.IsZero() { // (after an approval: the same exit)
					t, _ := time.Parse(time.RFC3339Nano, r.Timestamp)
					c.planExit(t, false)
				}
			}
		}
	}
}
