package hook

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/transcript"
)

// Files of the resume check in the session's state folder.
const (
	// ResumePendingFile is written when a restore with a checkpoint is delivered: what the
	// checkpoint's Next names and what the recovery steps touch. Stop reads it.
	ResumePendingFile = state.ResumePendingName
	// ResumeFile is the verdict (on or off plan), read by the status line until the next prompt
	// removes it.
	ResumeFile = state.ResumeName
	// resumeNotified is claimed (O_EXCL) by the one Stop that sends the off-plan notification.
	resumeNotified = state.ResumeNotifiedPrefix
)

// Verdicts of the resume check.
const (
	OnPlan  = "on"
	OffPlan = "off"
)

// resumePending is ResumePendingFile.
type resumePending struct {
	N          int       `json:"n"`
	Time       time.Time `json:"time"`
	Checkpoint string    `json:"checkpoint"`
	Snapshot   string    `json:"snapshot,omitempty"`
	Next       checkpoint.Targets
	Recovery   checkpoint.Targets
}

// armResume records, after the restore text for compaction n was handed over, what the
// checkpoint's Next names, so that the Stop of the next turn can compare the agent's first tool
// calls with it. Only a restore that carried the checkpoint arms it; one whose Next names no
// command or file cannot be checked and does not.
func armResume(c *Context, id string, n int, restore string) {
	if !c.cfg().Resume.Check || !strings.Contains(restore, "<checkpoint path=") {
		return
	}
	ckPath, err := checkpoint.Path(c.State, id)
	if err != nil {
		return
	}
	text, _, err := checkpoint.Read(ckPath)
	if err != nil {
		return
	}
	ck := checkpoint.Parse(text)
	p := resumePending{N: n, Time: c.now().UTC(), Checkpoint: ckPath, Next: ck.NextTargets(), Recovery: ck.RecoveryTargets()}
	if p.Next.Empty() {
		c.State.Info("hook", "resume check: the checkpoint's Next names no command or file: not checked")
		return
	}
	if path, snap, err := snapshot.Latest(c.State, id); err == nil {
		p.Snapshot = path
		if in := snap.InFlight; in != nil {
			for _, b := range in.Flight.Background {
				if b.Output != "" {
					p.Recovery.Files = append(p.Recovery.Files, b.Output)
				}
			}
		}
	}
	data, err := json.Marshal(p)
	if err != nil {
		return
	}
	path, err := c.State.SessionFile(id, ResumePendingFile)
	if err == nil {
		err = state.WriteFile(path, data)
	}
	if err != nil {
		c.State.Log("hook", "resume check: %v", err)
	}
}

// resumeCheck runs at Stop. With no check pending it costs one failed open. Otherwise it reads
// the tool calls after the last compaction from the transcript's tail, skips the recovery steps
// the restore asked for, and compares the first other call with Next: the verdict goes to
// ResumeFile for the status line, and off plan sends one notification. A turn with only
// recovery steps leaves the check pending.
func resumeCheck(c *Context, h *payload.Hook) {
	path, err := c.State.SessionFile(h.SessionID, ResumePendingFile)
	if err != nil {
		return
	}
	data, err := state.ReadFile(path, 1<<20)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			c.State.Log("hook", "Stop: resume check: %v", err)
		}
		return
	}
	var p resumePending
	if err := json.Unmarshal(data, &p); err != nil {
		c.State.Log("hook", "Stop: resume check: %s: %v (removed)", path, err)
		os.Remove(path)
		return
	}
	if h.TranscriptPath == "" {
		return
	}
	calls, _, err := transcript.CallsSinceCompaction(h.TranscriptPath, 0)
	if err != nil {
		c.State.Log("hook", "Stop: resume check: %v", err)
		return
	}
	verdict, call := judge(calls, &p, c.State.Root)
	if verdict == "" {
		return // only recovery steps so far: the next turn decides
	}
	next := strings.Join(append(append([]string{}, p.Next.Commands...), p.Next.Files...), " | ")
	if err := writeVerdict(c.State, h.SessionID, p.N, verdict, call, next, c.now()); err != nil {
		c.State.Log("hook", "Stop: resume check: %v", err)
		return
	}
	os.Remove(path)
	c.State.Info("hook", "Stop: resume after compaction %d: %s plan (first action %s; Next %s)", p.N, verdict, call, safetext.Clip(next, 200))
	if verdict == OffPlan {
		notifyOffPlan(c, h, p.N, call, next)
	}
}

// judge returns the verdict for the first call that is not a recovery step, and that call as
// text; "" when every call so far is a recovery step.
func judge(calls []transcript.Call, p *resumePending, stateRoot string) (verdict, call string) {
	for _, cl := range calls {
		if onPlan(cl, p.Next) {
			return OnPlan, describeCall(cl)
		}
		if recoveryStep(cl, p, stateRoot) {
			continue
		}
		return OffPlan, describeCall(cl)
	}
	return "", ""
}

// onPlan reports whether a call does Next: it runs Next's command (or a command holding it, or
// most of it), or touches Next's file.
func onPlan(cl transcript.Call, next checkpoint.Targets) bool {
	if cl.Name == "Bash" {
		cmd := normCmd(cl.Command)
		if cmd == "" {
			return false
		}
		for _, nc := range next.Commands {
			nc = normCmd(nc)
			if nc != "" && (strings.Contains(cmd, nc) || strings.Contains(nc, cmd) && 2*len(cmd) >= len(nc)) {
				return true
			}
		}
		for _, nf := range next.Files {
			if nf != "" && strings.Contains(cmd, strings.TrimPrefix(nf, "./")) {
				return true
			}
		}
		return false
	}
	for _, nf := range next.Files {
		if sameFile(cl.File, nf) {
			return true
		}
	}
	return false
}

// recoveryStep reports whether a call is one the restore asked for before Next: reading the
// checkpoint, the snapshot or the Pointers, running zoneline's checkpoint commands or an
// External state verify command, reloading skills, checking work in flight.
func recoveryStep(cl transcript.Call, p *resumePending, stateRoot string) bool {
	switch cl.Name {
	case "Skill", "TaskOutput", "BashOutput", "TaskList", "TaskGet", "ListAgents", "TodoRead", "ToolSearch":
		return true
	case "Bash":
		cmd := normCmd(cl.Command)
		if strings.HasPrefix(cmd, "zoneline ") || strings.Contains(cmd, "zoneline checkpoint") {
			return true
		}
		for _, rc := range p.Recovery.Commands {
			if normCmd(rc) == cmd {
				return true
			}
		}
		for _, f := range append([]string{p.Checkpoint, p.Snapshot}, p.Recovery.Files...) {
			if f != "" && strings.Contains(cmd, f) {
				return true
			}
		}
		return false
	}
	if cl.File == "" {
		return false
	}
	if cl.File == p.Checkpoint || cl.File == p.Snapshot || (stateRoot != "" && strings.HasPrefix(cl.File, stateRoot+string(filepath.Separator))) {
		return true
	}
	for _, f := range p.Recovery.Files {
		if sameFile(cl.File, f) {
			return true
		}
	}
	return false
}

// sameFile reports whether path (absolute, from a tool call) is name (absolute, or relative as
// a checkpoint writes it).
func sameFile(path, name string) bool {
	if path == "" || name == "" {
		return false
	}
	name = strings.TrimPrefix(name, "./")
	return path == name || strings.HasSuffix(path, "/"+name) || strings.HasSuffix(name, "/"+path)
}

func normCmd(s string) string { return strings.Join(strings.Fields(s), " ") }

func describeCall(cl transcript.Call) string {
	switch {
	case cl.Name == "Bash":
		return safetext.Clip("Bash `"+cl.Command+"`", 160)
	case cl.File != "":
		return safetext.Clip(cl.Name+" "+cl.File, 160)
	}
	return safetext.Clip(cl.Name, 60)
}

// writeVerdict writes ResumeFile (by hand: the status line reads it with jsonscan).
func writeVerdict(d state.Dir, id string, n int, verdict, call, next string, now time.Time) error {
	path, err := d.SessionFile(id, ResumeFile)
	if err != nil {
		return err
	}
	b := []byte(`{"n":`)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"verdict":`...)
	b = jsonscan.AppendString(b, verdict)
	b = append(b, `,"call":`...)
	b = jsonscan.AppendString(b, call)
	b = append(b, `,"next":`...)
	b = jsonscan.AppendString(b, safetext.Clip(next, 300))
	b = append(b, `,"time":`...)
	b = jsonscan.AppendString(b, now.UTC().Format(time.RFC3339Nano))
	b = append(b, "}\n"...)
	return state.WriteFile(path, b)
}

// notifyOffPlan sends the one off-plan notification of compaction n (claimed O_EXCL, so twin
// hook entries send it once).
func notifyOffPlan(c *Context, h *payload.Hook, n int, call, next string) {
	cfg := c.cfg()
	if !cfg.Notify.Enabled || c.Getenv == nil {
		return
	}
	claim, err := c.State.SessionFile(h.SessionID, resumeNotified+strconv.Itoa(n))
	if err != nil {
		return
	}
	if created, err := state.CreateExclusive(claim, nil); err != nil || !created {
		return
	}
	project := filepath.Base(h.Cwd)
	if h.Cwd == "" || project == "." || project == "/" {
		project = "Claude Code"
	}
	note := notify.Notification{Title: "zoneline: off plan after compaction · " + safetext.Clip(project, 60),
		Body:    safetext.Clip("First action: "+call+". The checkpoint's Next: "+next+". Ask the agent what its next action is.", 400),
		AppName: cfg.Notify.AppName, Urgency: cfg.Notify.Urgency}
	if err := (notify.Spawner{Getenv: c.Getenv, StateDir: c.State.Root}).Spawn(note); err != nil {
		c.State.Log("hook", "Stop: off-plan notification: %v", err)
	}
}

// clearVerdict removes the verdict: a new prompt ends its display (UserPromptSubmit).
func clearVerdict(d state.Dir, id string) {
	if path, err := d.SessionFile(id, ResumeFile); err == nil {
		os.Remove(path)
	}
}
