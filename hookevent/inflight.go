package hookevent

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/payload"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/transcript"
)

// Sizes of the restore's work-in-flight part.
const (
	maxInFlight     = 2500 // characters at most
	inFlightReserve = 600  // characters left to the rest of the restore
	maxTodoLines    = 30   // task list items listed
	maxItemLines    = 20   // background commands, subagents, Stop entries or peers listed, each
)

// InFlightHeading starts the restore's work-in-flight part.
const InFlightHeading = "Work in flight at PreCompact"

// inFlightRestore returns the restore's work-in-flight part for the session's newest snapshot
// (taken at at, within the staleness limit), in at most room characters, or "" when the
// snapshot records none.
func inFlightRestore(snapPath string, snap *snapshot.Snapshot, snapErr error, at time.Time, cfg *config.Config, room int) string {
	if snapErr != nil || snap == nil || snap.InFlight == nil {
		return ""
	}
	if at.Sub(snap.Time) > time.Duration(cfg.Checkpoint.StaleMinutes)*time.Minute {
		return ""
	}
	room = min(room, maxInFlight)
	if room < minSummary {
		return ""
	}
	lines := inFlightLines(snap)
	if len(lines) == 0 {
		return ""
	}
	return "\n" + fitList(lines, room, snapPath) + "\n"
}

// inFlightLines renders the record: each unfinished item with its id and where its output goes,
// the task list with each status, the permission mode, the workers, and what the record cannot
// know.
func inFlightLines(snap *snapshot.Snapshot) []string {
	in := snap.InFlight
	l := &restoreList{stop: in.Stop, stopStatus: map[string]string{}, shown: map[string]bool{}}
	if in.Stop != nil {
		// Claude Code's last Stop lists the same background work by id: an item the
		// transcript shows is listed once, with the status the Stop gave it.
		for _, t := range in.Stop.Background {
			if t.ID != "" {
				l.stopStatus[t.ID] = t.Status
			}
		}
	}
	f := &in.Flight
	l.planMode(f)
	l.background(f)
	l.agents(f)
	taskList(l.add, "task list (last TodoWrite)", f.Todos, f.TodosDropped)
	taskList(l.add, "tasks (TaskCreate/TaskUpdate)", f.Tasks, f.TasksDropped)
	l.stopRest()
	if len(l.items) == 0 && in.Pane == "" && len(in.Peers) == 0 {
		return nil
	}
	l.workers(in)

	head := InFlightHeading + " (recorded mechanically by zoneline from the transcript and the hooks). Before dispatching anything again, check each unfinished item below (its output file, TaskOutput, ListAgents): a command or agent started twice does the work twice."
	if snap.Partial {
		head += fmt.Sprintf(" The snapshot read only the transcript's last %d MB: an item absent here is not proof it never existed.", transcript.DefaultFactBytes>>20)
	} else {
		head += " The snapshot read the whole transcript; items from before an earlier compaction may still be listed."
	}
	return append([]string{head}, l.items...)
}

// restoreList collects the work-in-flight part of a restore, one section at a time.
type restoreList struct {
	items      []string
	stop       *snapshot.StopRecord
	stopStatus map[string]string // the Stop's status by background id
	shown      map[string]bool   // the Stop's ids already listed with the transcript's items
}

// add appends one item. Each item is one line: whatever a value from the transcript or a
// payload holds (a line break, a control) cannot open a line of its own (the restore redacts
// the whole text).
func (l *restoreList) add(format string, args ...any) {
	l.items = append(l.items, safetext.Line(fmt.Sprintf(format, args...)))
}

// listed says that Claude Code's last Stop lists id too, and with which status.
func (l *restoreList) listed(id string) string {
	st, ok := l.stopStatus[id]
	if !ok || id == "" {
		return ""
	}
	l.shown[id] = true
	return ", listed by Claude Code's last Stop as " + orUnknown(st)
}

// planMode says whether plan mode was on at PreCompact, ended with an approved plan, or was on
// earlier, and the permission mode.
func (l *restoreList) planMode(f *transcript.Flight) {
	switch {
	case f.Mode == "plan":
		l.add("- PLAN MODE WAS ON at PreCompact%s: stay in plan mode; present the plan (ExitPlanMode) before any edit or command that changes anything.", planFile(f))
	case !f.PlanExited.IsZero() && f.Mode == "" && f.PlanApproved:
		l.add("- Plan mode ended at %s: the plan was approved%s; carry it out. The permission mode chosen then is not recorded.", clock(f.PlanExited), planFile(f))
	case !f.PlanExited.IsZero() && f.Mode == "":
		l.add("- Plan mode was left at %s%s; the permission mode since is not recorded.", clock(f.PlanExited), planFile(f))
	case f.PlanSeen:
		l.add("- Plan mode was on earlier in this session%s; the permission mode at PreCompact was %s.", planFile(f), orUnknown(f.Mode))
	case f.Mode != "":
		l.add("- Permission mode at PreCompact: %s.", f.Mode)
	}
}

// background lists the background commands not known to have finished, most recent first.
func (l *restoreList) background(f *transcript.Flight) {
	open, finished := openBackground(f, l.stop)
	if len(open) > 0 || f.BackgroundDropped > 0 {
		l.add("- %d background command(s) not known to have finished%s, most recent first:", len(open), dropped(f.BackgroundDropped, finished, "stopped or no longer listed by Claude Code"))
	}
	for i := len(open) - 1; i >= 0 && len(open)-i <= maxItemLines; i-- {
		b := open[i]
		id := idOr(b.ID, b.ToolUseID)
		l.add("  - %s: `%s`%s, output %s, started %s%s. Read its output (or TaskOutput %s) before running it again.",
			id, b.Command, desc(b.Description), orUnknown(b.Output), clock(b.Started), l.listed(b.ID), id)
	}
	more(l.add, len(open)-maxItemLines, "background commands (older)")
}

// agents lists the subagents with no result yet, most recent first, then the finished ones
// briefly (a subagent whose result is lost with the summary is the one dispatched a second
// time), and a count of the refused or failed calls.
func (l *restoreList) agents(f *transcript.Flight) {
	open, done, failed := splitAgents(f)
	if len(open) > 0 || f.AgentsDropped > 0 {
		l.add("- %d subagent(s) with no result before the compaction%s, most recent first; do not dispatch one again before checking on it:", len(open), dropped(f.AgentsDropped, 0, ""))
	}
	for i := len(open) - 1; i >= 0 && len(open)-i <= maxItemLines; i-- {
		a := open[i]
		what := "may still be running"
		if a.Background {
			what = "launched in the background: its report comes as a notification"
		}
		l.add("  - %s (%s)%s, started %s, %s%s%s.", idOr(a.ID, a.ToolUseID), orUnknown(a.Type), desc(a.Description), clock(a.Started), what, around(", output ", a.Output, ""), l.listed(a.ID))
	}
	more(l.add, len(open)-maxItemLines, "subagents (older)")
	if len(done) > 0 {
		var names []string
		for i := len(done) - 1; i >= 0 && len(done)-i <= maxItemLines; i-- {
			a := done[i]
			names = append(names, fmt.Sprintf("%s (%s)%s%s", idOr(a.ID, a.ToolUseID), orUnknown(a.Type), desc(a.Description), around(", output ", a.Output, "")))
		}
		if len(done) > maxItemLines {
			names = append(names, fmt.Sprintf("… %d more", len(done)-maxItemLines))
		}
		l.add("- subagents that returned their result (in the transcript or their output file, not in this summary): %s.", strings.Join(names, "; "))
	}
	if failed > 0 {
		l.add("- (%d subagent call(s) were refused or failed: they did not run.)", failed)
	}
}

// stopRest lists what Claude Code's last Stop had in flight that the transcript's items did
// not already show, and its crons.
func (l *restoreList) stopRest() {
	stop := l.stop
	if stop == nil {
		return
	}
	var rest []payload.BackgroundTask
	for _, t := range stop.Background {
		if !l.shown[t.ID] {
			rest = append(rest, t)
		}
	}
	if len(rest) == 0 && len(stop.Crons) == 0 && stop.BackgroundDropped == 0 && stop.CronsDropped == 0 {
		return
	}
	l.add("- Claude Code's last Stop (%s) listed as in flight%s:", clock(stop.Time), alsoAbove(len(l.shown)))
	for _, t := range rest[:min(len(rest), maxItemLines)] {
		l.add("  - %s %s (%s)%s%s", orUnknown(t.Type), quoteID(t.ID), orUnknown(t.Status), desc(t.Description), around(" `", t.Command, "`"))
	}
	more(l.add, len(rest)-maxItemLines, "entries")
	more(l.add, stop.BackgroundDropped, "entries (cut from the payload)")
	for _, c := range stop.Crons[:min(len(stop.Crons), maxItemLines)] {
		rec := "one-shot"
		if c.Recurring {
			rec = "recurring"
		}
		l.add("  - scheduled wake-up %s `%s` (%s): %q", quoteID(c.ID), c.Schedule, rec, c.Prompt)
	}
	more(l.add, len(stop.Crons)-maxItemLines, "crons")
	more(l.add, stop.CronsDropped, "crons (cut from the payload)")
}

// workers names this session's tmux pane and the other live sessions of the project.
func (l *restoreList) workers(in *snapshot.InFlight) {
	var w []string
	if in.Pane != "" {
		w = append(w, "this session is tmux pane "+in.Pane)
	}
	for i, p := range in.Peers {
		if i == maxItemLines {
			break
		}
		pane := cmp.Or(p.Pane, "no tmux pane")
		w = append(w, fmt.Sprintf("session %s (%s, zone %s, last seen %s)", p.SessionID, pane, orUnknown(p.Zone), clock(p.Updated)))
	}
	if len(w) == 0 {
		return
	}
	line := "- Workers: " + strings.Join(w, "; ")
	if len(in.Peers) > 0 {
		line += " — other live sessions in this project: coordinate before taking over their work"
	}
	if d := in.PeersDropped + max(0, len(in.Peers)-maxItemLines); d > 0 {
		line += fmt.Sprintf(" (and %d more)", d)
	}
	l.items = append(l.items, safetext.Line(line+"."))
}

// alsoAbove says how many of the Stop's entries are listed above, with the transcript's items.
func alsoAbove(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (besides the %d listed above)", n)
}

// openBackground returns the background commands not known to have finished, oldest first, and
// how many are known to have: stopped, or not listed by the last Stop (stopSaysGone).
func openBackground(f *transcript.Flight, stop *snapshot.StopRecord) (open []transcript.Background, finished int) {
	for _, b := range f.Background {
		if b.Stopped || stopSaysGone(stop, b.ID, b.Started) {
			finished++
			continue
		}
		open = append(open, b)
	}
	return open, finished
}

// splitAgents sorts the subagents: with no result yet (open), with their result (done), and the
// refused or failed calls, counted; the lists oldest first.
func splitAgents(f *transcript.Flight) (open, done []transcript.Agent, failed int) {
	for _, a := range f.Agents {
		switch {
		case a.Failed:
			failed++
		case a.Finished:
			done = append(done, a)
		default:
			open = append(open, a)
		}
	}
	return open, done, failed
}

// stopSaysGone reports whether the last Stop, recorded after the command started, did not list
// it (Claude Code lists every in-flight background task there).
func stopSaysGone(stop *snapshot.StopRecord, id string, started time.Time) bool {
	if stop == nil || id == "" || started.IsZero() || !stop.Time.After(started) || stop.BackgroundDropped > 0 {
		return false
	}
	return !slices.ContainsFunc(stop.Background, func(t payload.BackgroundTask) bool { return t.ID == id })
}

func taskList(add func(string, ...any), what string, ts []transcript.Task, dropped int) {
	if len(ts) == 0 {
		return
	}
	open := 0
	for _, t := range ts {
		if t.Unfinished() {
			open++
		}
	}
	add("- %s, %d item(s), %d not completed:", what, len(ts)+dropped, open)
	for _, t := range ts[:min(len(ts), maxTodoLines)] {
		subject := cmp.Or(t.Subject, "(its subject is not in the part read)")
		add("  - [%s] %s%s", orUnknown(t.Status), around("#", t.ID, " "), subject)
	}
	more(add, len(ts)-maxTodoLines, "items")
	more(add, dropped, "items beyond the record's cap")
}

// dropped says what a count line leaves out: items beyond the record's cap, and done ones.
func dropped(capped, done int, doneWhat string) string {
	var parts []string
	if capped > 0 {
		parts = append(parts, fmt.Sprintf("%d older beyond the record's cap", capped))
	}
	if done > 0 {
		parts = append(parts, fmt.Sprintf("%d more %s", done, doneWhat))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func more(add func(string, ...any), n int, what string) {
	if n > 0 {
		add("  … %d more %s", n, what)
	}
}

// around returns s between before and after; "" when s is empty (an optional part of a line).
func around(before, s, after string) string {
	if s == "" {
		return ""
	}
	return before + s + after
}

func planFile(f *transcript.Flight) string { return around(" (plan file ", f.PlanFile, ")") }

func desc(s string) string { return around(` "`, s, `"`) }

func idOr(id, toolUseID string) string {
	if id != "" {
		return quoteID(id)
	}
	return quoteID(toolUseID) + " (tool call id)"
}

func orUnknown(s string) string { return cmp.Or(s, "unknown") }

func clock(t time.Time) string {
	if t.IsZero() {
		return "at an unrecorded time"
	}
	return t.UTC().Format("15:04:05Z")
}

// fitList joins lines, dropping whole lines from the end to stay within room characters, and
// says where the rest is.
func fitList(lines []string, room int, path string) string {
	var b strings.Builder
	n := 0
	for i, l := range lines {
		c := utf8.RuneCountInString(l) + 1
		if n+c > room-120 && i < len(lines)-1 || n+c > room {
			fmt.Fprintf(&b, "[zoneline: %d more line(s) of work in flight in %s]", len(lines)-i, path)
			return b.String()
		}
		b.WriteString(l + "\n")
		n += c
	}
	return strings.TrimRight(b.String(), "\n")
}

// quoteID returns an id from outside as it is when it is a plain identifier (letters, digits,
// "-", "_", ".", ":", "#", "@", at most 200 bytes, not "." or ".."), else clipped and quoted:
// an id is shown, never used as a path.
func quoteID(s string) string {
	if s != "" && len(s) <= 200 && s != "." && s != ".." {
		ok := true
		for i := 0; i < len(s) && ok; i++ {
			c := s[i]
			ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
				c == '-' || c == '_' || c == '.' || c == ':' || c == '#' || c == '@'
		}
		if ok {
			return s
		}
	}
	return "\"" + strings.ReplaceAll(safetext.Clip(s, 80), "\"", "'") + "\""
}
