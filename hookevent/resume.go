package hookevent

import (
	"cmp"
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// resumeMaxStops is how many Stops a pending check waits for a call that decides before it
// expires: a check that nothing decided in three turns says nothing about the resume.
const resumeMaxStops = 3

// armResume records, after the restore text for compaction n was handed over, what the
// checkpoint's Next names, so that the Stop of the next turn can compare the agent's first tool
// calls with it. Every restore first removes the check an older one armed; only a restore that
// carried the checkpoint arms a new one; one whose Next names no command or file cannot be
// checked and does not. byPrompt says the restore came with a prompt (UserPromptSubmit): the
// calls already made after the boundary are not the agent's answer to it and are skipped.
func armResume(c *Context, h *payload.Hook, n int, restore string, byPrompt bool) {
	id := h.SessionID
	path, err := c.State.SessionFile(id, ResumePendingFile)
	if err != nil {
		return
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		c.State.Log("hook", "resume check: %v", err)
	}
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
	p := resumePending{N: n, Time: c.now().UTC(), Checkpoint: ckPath, Cwd: h.Cwd, Next: ck.NextTargets(), Recovery: ck.RecoveryTargets()}
	if p.Next.Empty() {
		c.State.Info("hook", "resume check: the checkpoint's Next names no command or file: not checked")
		return
	}
	if spath, snap, err := snapshot.Latest(c.State, id); err == nil {
		p.Snapshot = spath
		if in := snap.InFlight; in != nil {
			f := &in.Flight
			for _, b := range f.Background {
				if b.Output != "" {
					p.Recovery.Files = append(p.Recovery.Files, b.Output)
				}
			}
			for _, a := range f.Agents {
				if a.Output != "" {
					p.Recovery.Files = append(p.Recovery.Files, a.Output)
				}
			}
			if f.PlanFile != "" {
				p.Recovery.Files = append(p.Recovery.Files, f.PlanFile)
			}
			p.Plan = f.Mode == "plan"
		}
	}
	if byPrompt && h.TranscriptPath != "" {
		if calls, found, err := transcript.CallsSinceCompaction(h.TranscriptPath, 0); err == nil && found && len(calls) > 0 {
			p.Skip, p.SkipID = len(calls), calls[len(calls)-1].ID
		}
	}
	writePending(c, path, &p, true)
}

// writePending writes the pending check; sync false skips the fsync (a Stop counting a turn:
// losing the count in a crash costs one more turn of waiting).
func writePending(c *Context, path string, p *resumePending, sync bool) {
	data := p.appendJSON(make([]byte, 0, 512))
	var err error
	if sync {
		err = state.WriteFile(path, data)
	} else {
		err = state.Replace(path, data)
	}
	if err != nil {
		c.State.Log("hook", "resume check: %v", err)
	}
}

// resumeCheck runs at Stop. With no check pending it costs one failed open. Otherwise it reads
// the tool calls after the last compaction from the transcript's tail, skips the neutral calls
// (reads, searches, bookkeeping) and the recovery steps the restore asked for, and compares the
// first other call with Next: the verdict goes to ResumeFile for the status line, and off plan
// sends one notification. A turn with only neutral calls leaves the check pending, for at most
// resumeMaxStops Stops. A check for another compaction than the last one recorded, or whose
// boundary is not in the part of the transcript read, gives no verdict.
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
	if err := p.decode(data); err != nil {
		c.State.Log("hook", "Stop: resume check: %s: %v (removed)", path, err)
		os.Remove(path)
		return
	}
	drop := func(why string, args ...any) {
		os.Remove(path)
		c.State.Log("hook", "Stop: resume check for compaction %d: no verdict: "+why, append([]any{p.N}, args...)...)
	}
	wait := func() {
		p.Stops++
		if p.Stops >= resumeMaxStops {
			drop("nothing decided in %d turns (expired)", p.Stops)
			return
		}
		writePending(c, path, &p, false)
	}
	cs, err := loadCompactions(c.State, h.SessionID)
	switch {
	case err != nil:
		c.State.Log("hook", "Stop: resume check: %v", err)
		return
	case cs.Count > p.N:
		drop("compaction %d came after it", cs.Count)
		return
	}
	// cs.Count < p.N: PostCompact has not counted it (yet, or it is not registered); the
	// boundary found below is still the one after the restore.
	if h.TranscriptPath == "" {
		return
	}
	calls, found, err := transcript.CallsSinceCompaction(h.TranscriptPath, 0)
	if err != nil {
		c.State.Log("hook", "Stop: resume check: %v", err)
		return
	}
	if !found {
		drop("the compaction boundary is not in the last %d MB of the transcript", transcript.DefaultCallBytes>>20)
		return
	}
	if p.Skip > 0 {
		if len(calls) < p.Skip || calls[p.Skip-1].ID != p.SkipID {
			drop("the calls before the restore's prompt are not where they were")
			return
		}
		calls = calls[p.Skip:]
	}
	p.Cwd = cmp.Or(p.Cwd, h.Cwd)
	verdict, call := judge(calls, &p, c.State.Root)
	if verdict == "" {
		wait() // only neutral calls so far: a next turn decides
		return
	}
	next := safetext.Field(strings.Join(append(append([]string{}, p.Next.Commands...), p.Next.Files...), " | "), 0)
	if err := writeVerdict(c.State, h.SessionID, p.N, verdict, call, next, c.now()); err != nil {
		c.State.Log("hook", "Stop: resume check: %v", err)
		return
	}
	os.Remove(path)
	// Kept in the compaction's record too (resume.json goes at the next prompt): `zoneline
	// report` reads it back.
	if _, err := updateCompactions(c.State, h.SessionID, func(cs *compactions) bool {
		r := cs.Record(p.N)
		if r == nil || r.Resume == verdict {
			return false
		}
		r.Resume = verdict
		return true
	}); err != nil {
		c.State.Log("hook", "Stop: resume check: recording the verdict: %v", err)
	}
	c.State.Info("hook", "Stop: resume after compaction %d: %s plan (first action %s; Next %s)", p.N, verdict, call, safetext.Clip(next, 200))
	if verdict == OffPlan {
		notifyOffPlan(c, h, p.N, call, next)
	}
}

// judge returns the verdict for the first call that decides, and that call as text; "" when
// none does yet. With plan mode on at PreCompact nothing before ExitPlanMode decides (the
// restore tells the agent to stay in plan mode). Then a call that does Next is on plan, a
// neutral call (reading, searching, bookkeeping, read-only git) or a recovery step decides
// nothing, and any other call is off plan.
func judge(calls []transcript.Call, p *resumePending, stateRoot string) (verdict, call string) {
	planning := p.Plan
	for _, cl := range calls {
		if planning {
			planning = cl.Name != "ExitPlanMode"
			continue
		}
		if onPlan(cl, p) {
			return OnPlan, describeCall(cl)
		}
		if neutral(cl) || recoveryStep(cl, p, stateRoot) {
			continue
		}
		return OffPlan, describeCall(cl)
	}
	return "", ""
}

// onPlan reports whether a call does Next: it runs Next's command by its whole argument list
// (beside a cd or a neutral command; isNextCommand, shellcmd.go), or reads or changes Next's
// file (the same absolute path).
func onPlan(cl transcript.Call, p *resumePending) bool {
	if cl.Name == "Bash" {
		return isNextCommand(cl.Command, p.Next.Commands)
	}
	return slices.ContainsFunc(p.Next.Files, func(nf string) bool { return sameFile(cl.File, nf, p.Cwd) })
}

// neutral reports whether a call changes nothing the check judges: reading, searching, the
// task list and plan-mode tools, background-work status, skills, and read-only shell commands.
func neutral(cl transcript.Call) bool {
	switch cl.Name {
	case "Read", "Grep", "Glob", "LS", "NotebookRead", "WebSearch", "WebFetch",
		"TodoWrite", "TodoRead", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "TaskOutput", "BashOutput",
		"EnterPlanMode", "ExitPlanMode", "Skill", "ListAgents", "ToolSearch", "AskUserQuestion":
		return true
	case "Bash":
		return readOnlyCommand(cl.Command)
	}
	return false
}

// recoveryStep reports whether a call is one the restore asked for before Next: reading or
// writing the checkpoint, the snapshot, the Pointers, the plan file or the output of a
// background command or subagent; running zoneline's checkpoint commands or an External state
// verify command.
func recoveryStep(cl transcript.Call, p *resumePending, stateRoot string) bool {
	if cl.Name == "Bash" {
		return isRecoveryCommand(cl.Command, p.Recovery.Commands) // shellcmd.go
	}
	if cl.File == "" {
		return false
	}
	return sameFile(cl.File, p.Checkpoint, "") || sameFile(cl.File, p.Snapshot, "") ||
		(stateRoot != "" && strings.HasPrefix(filepath.Clean(cl.File), stateRoot+string(filepath.Separator))) ||
		slices.ContainsFunc(p.Recovery.Files, func(f string) bool { return sameFile(cl.File, f, p.Cwd) })
}

// sameFile reports whether path (from a tool call, absolute) and name (absolute, or relative to
// cwd as a checkpoint writes it) are the same file by absolute path. A relative name with no cwd
// to resolve it matches nothing: a same-named file in another tree is another file.
func sameFile(path, name, cwd string) bool {
	abs := func(s string) string {
		if s == "" {
			return ""
		}
		if filepath.IsAbs(s) {
			return filepath.Clean(s)
		}
		if cwd == "" || !filepath.IsAbs(cwd) {
			return ""
		}
		return filepath.Join(cwd, s)
	}
	a, b := abs(path), abs(name)
	return a != "" && a == b
}

// describeCall is the call as text for the verdict and the notification: redacted, then cut.
func describeCall(cl transcript.Call) string {
	switch {
	case cl.Name == "Bash":
		return safetext.Field("Bash `"+cl.Command+"`", 160)
	case cl.File != "":
		return safetext.Field(cl.Name+" "+cl.File, 160)
	}
	return safetext.Field(cl.Name, 60)
}

// writeVerdict writes ResumeFile (verdictFields; ReadVerdict reads it back).
func writeVerdict(d state.Dir, id string, n int, verdict, call, next string, now time.Time) error {
	path, err := d.SessionFile(id, ResumeFile)
	if err != nil {
		return err
	}
	v := verdictRecord{N: n, Verdict: verdict, Call: call, Next: safetext.Field(next, 300), Time: now.UTC()}
	b := append(jsonscan.AppendObject(make([]byte, 0, 256), &v, verdictFields[:], ""), '\n')
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
	note := notify.Notification{Title: "zoneline: off plan after compaction · " + safetext.Field(notify.ProjectName(h.Cwd), 60),
		Body:    safetext.Field("First action: "+call+". The checkpoint's Next: "+next+". Ask the agent what its next action is.", 400),
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
