package hook

import (
	"fmt"
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
	f := &in.Flight
	var items []string
	// Each item is one line: whatever a value from the transcript or a payload holds (a line
	// break, a control) cannot open a line of its own (the restore redacts the whole text).
	add := func(format string, args ...any) { items = append(items, safetext.Line(fmt.Sprintf(format, args...))) }

	switch {
	case f.Mode == "plan":
		add("- PLAN MODE WAS ON at PreCompact%s: stay in plan mode; present the plan (ExitPlanMode) before any edit or command that changes anything.", planFile(f))
	case f.PlanSeen:
		add("- Plan mode was on earlier in this session%s; the permission mode at PreCompact was %s.", planFile(f), orUnknown(f.Mode))
	case f.Mode != "":
		add("- Permission mode at PreCompact: %s.", f.Mode)
	}

	stop := in.Stop
	// Claude Code's last Stop lists the same background work by id: an item the transcript
	// shows is listed once, with the status the Stop gave it.
	stopStatus := map[string]string{}
	if stop != nil {
		for _, t := range stop.Background {
			if t.ID != "" {
				stopStatus[t.ID] = t.Status
			}
		}
	}
	shown := map[string]bool{}
	listed := func(id string) string {
		st, ok := stopStatus[id]
		if !ok || id == "" {
			return ""
		}
		shown[id] = true
		return ", listed by Claude Code's last Stop as " + orUnknown(st)
	}
	var bgOpen []transcript.Background
	finished := 0
	for _, b := range f.Background {
		if b.Stopped || stopSaysGone(stop, b.ID, b.Started) {
			finished++
			continue
		}
		bgOpen = append(bgOpen, b)
	}
	if len(bgOpen) > 0 || f.BackgroundDropped > 0 {
		add("- %d background command(s) not known to have finished%s, most recent first:", len(bgOpen), dropped(f.BackgroundDropped, finished, "stopped or no longer listed by Claude Code"))
	}
	for i := len(bgOpen) - 1; i >= 0 && len(bgOpen)-i <= maxItemLines; i-- {
		b := bgOpen[i]
		id := idOr(b.ID, b.ToolUseID)
		add("  - %s: `%s`%s, output %s, started %s%s. Read its output (or TaskOutput %s) before running it again.",
			id, b.Command, desc(b.Description), orUnknown(b.Output), clock(b.Started), listed(b.ID), id)
	}
	more(add, len(bgOpen)-maxItemLines, "background commands (older)")

	var agOpen, agDone []transcript.Agent
	failed := 0
	for _, a := range f.Agents {
		if a.Failed {
			failed++
			continue
		}
		if a.Finished {
			agDone = append(agDone, a)
			continue
		}
		agOpen = append(agOpen, a)
	}
	if len(agOpen) > 0 || f.AgentsDropped > 0 {
		add("- %d subagent(s) with no result before the compaction%s, most recent first; do not dispatch one again before checking on it:", len(agOpen), dropped(f.AgentsDropped, 0, ""))
	}
	for i := len(agOpen) - 1; i >= 0 && len(agOpen)-i <= maxItemLines; i-- {
		a := agOpen[i]
		what := "may still be running"
		if a.Background {
			what = "launched in the background: its report comes as a notification"
		}
		out := ""
		if a.Output != "" {
			out = ", output " + a.Output
		}
		add("  - %s (%s)%s, started %s, %s%s%s.", idOr(a.ID, a.ToolUseID), orUnknown(a.Type), desc(a.Description), clock(a.Started), what, out, listed(a.ID))
	}
	more(add, len(agOpen)-maxItemLines, "subagents (older)")
	if len(agDone) > 0 {
		// Finished ones too, briefly: a subagent whose result is lost with the summary is the
		// one dispatched a second time.
		var names []string
		for i := len(agDone) - 1; i >= 0 && len(agDone)-i <= maxItemLines; i-- {
			a := agDone[i]
			out := ""
			if a.Output != "" {
				out = ", output " + a.Output
			}
			names = append(names, fmt.Sprintf("%s (%s)%s%s", idOr(a.ID, a.ToolUseID), orUnknown(a.Type), desc(a.Description), out))
		}
		if len(agDone) > maxItemLines {
			names = append(names, fmt.Sprintf("… %d more", len(agDone)-maxItemLines))
		}
		add("- subagents that returned their result (in the transcript or their output file, not in this summary): %s.", strings.Join(names, "; "))
	}
	if failed > 0 {
		add("- (%d subagent call(s) were refused or failed: they did not run.)", failed)
	}

	taskList(add, "task list (last TodoWrite)", f.Todos, f.TodosDropped)
	taskList(add, "tasks (TaskCreate/TaskUpdate)", f.Tasks, f.TasksDropped)

	var stopRest []payload.BackgroundTask
	if stop != nil {
		for _, t := range stop.Background {
			if !shown[t.ID] {
				stopRest = append(stopRest, t)
			}
		}
	}
	if stop != nil && (len(stopRest) > 0 || len(stop.Crons) > 0 || stop.BackgroundDropped > 0 || stop.CronsDropped > 0) {
		add("- Claude Code's last Stop (%s) listed as in flight%s:", clock(stop.Time), alsoAbove(len(shown)))
		for i, t := range stopRest {
			if i == maxItemLines {
				more(add, len(stopRest)-i, "entries")
				break
			}
			cmd := ""
			if t.Command != "" {
				cmd = " `" + t.Command + "`"
			}
			add("  - %s %s (%s)%s%s", orUnknown(t.Type), quoteID(t.ID), orUnknown(t.Status), desc(t.Description), cmd)
		}
		more(add, stop.BackgroundDropped, "entries (cut from the payload)")
		for i, c := range stop.Crons {
			if i == maxItemLines {
				more(add, len(stop.Crons)-i, "crons")
				break
			}
			rec := "one-shot"
			if c.Recurring {
				rec = "recurring"
			}
			add("  - scheduled wake-up %s `%s` (%s): %q", quoteID(c.ID), c.Schedule, rec, c.Prompt)
		}
		more(add, stop.CronsDropped, "crons (cut from the payload)")
	}

	if len(items) == 0 && in.Pane == "" && len(in.Peers) == 0 {
		return nil
	}
	var w []string
	if in.Pane != "" {
		w = append(w, "this session is tmux pane "+in.Pane)
	}
	for i, p := range in.Peers {
		if i == maxItemLines {
			break
		}
		pane := p.Pane
		if pane == "" {
			pane = "no tmux pane"
		}
		w = append(w, fmt.Sprintf("session %s (%s, zone %s, last seen %s)", p.SessionID, pane, orUnknown(p.Zone), clock(p.Updated)))
	}
	if len(w) > 0 {
		line := "- Workers: " + strings.Join(w, "; ")
		if len(in.Peers) > 0 {
			line += " — other live sessions in this project: coordinate before taking over their work"
		}
		if d := in.PeersDropped + max(0, len(in.Peers)-maxItemLines); d > 0 {
			line += fmt.Sprintf(" (and %d more)", d)
		}
		items = append(items, safetext.Line(line+"."))
	}

	head := InFlightHeading + " (recorded mechanically by zoneline from the transcript and the hooks). Before dispatching anything again, check each unfinished item below (its output file, TaskOutput, ListAgents): a command or agent started twice does the work twice."
	if snap.Partial {
		head += fmt.Sprintf(" The snapshot read only the transcript's last %d MB: an item absent here is not proof it never existed.", transcript.DefaultFactBytes>>20)
	} else {
		head += " The snapshot read the whole transcript; items from before an earlier compaction may still be listed."
	}
	return append([]string{head}, items...)
}

// alsoAbove says how many of the Stop's entries are listed above, with the transcript's items.
func alsoAbove(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (besides the %d listed above)", n)
}

// stopSaysGone reports whether the last Stop, recorded after the command started, did not list
// it (Claude Code lists every in-flight background task there).
func stopSaysGone(stop *snapshot.StopRecord, id string, started time.Time) bool {
	if stop == nil || id == "" || started.IsZero() || !stop.Time.After(started) || stop.BackgroundDropped > 0 {
		return false
	}
	for _, t := range stop.Background {
		if t.ID == id {
			return false
		}
	}
	return true
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
	for i, t := range ts {
		if i == maxTodoLines {
			more(add, len(ts)-i, "items")
			break
		}
		id := ""
		if t.ID != "" {
			id = "#" + t.ID + " "
		}
		subject := t.Subject
		if subject == "" {
			subject = "(its subject is not in the part read)"
		}
		add("  - [%s] %s%s", orUnknown(t.Status), id, subject)
	}
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

func planFile(f *transcript.Flight) string {
	if f.PlanFile == "" {
		return ""
	}
	return " (plan file " + f.PlanFile + ")"
}

func desc(s string) string {
	if s == "" {
		return ""
	}
	return " \"" + s + "\""
}

func idOr(id, toolUseID string) string {
	if id != "" {
		return quoteID(id)
	}
	return quoteID(toolUseID) + " (tool call id)"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

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
