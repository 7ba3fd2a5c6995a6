package hookevent

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/snapshot"
	"github.com/zoneline/zoneline/transcript"
)

// MaxInstructions caps the instructions for the summariser, in characters: Claude Code sets no
// limit of its own (a 9,000-character PreCompact output arrived whole), and the same text is
// shown to the user under /compact.
const MaxInstructions = 1500

// InstructionsHead is the instructions' first line: it says what they are, to the summariser
// and to the user who sees them under /compact
// ("PreCompact [zoneline hook] completed successfully: <this>").
const InstructionsHead = "zoneline's instructions for this summary, from the session's own records (one per line):"

// KeepList is the general line of the instructions: what every summary keeps. It is phrased as
// what to keep, never as a request to act (a compaction's instructions can be acted on again
// after it: anthropics/claude-code#55555).
const KeepList = "Keep word for word: the user's explicit instructions and corrections in their own words, " +
	"every decision with its reason, every approach that failed and why, what is done, in flight and not started, " +
	"and exact ids, paths, commands and error messages."

// NothingToKeep is the whole of the instructions when the records show nothing to keep.
const NothingToKeep = "zoneline: no skill loads, external actions, work in flight or fresh checkpoint recorded since the last compaction; " +
	"keep exact ids, paths and commands, and state no next step the conversation does not."

// Per-line budgets (characters) of the instructions' lists and quoted sections.
const (
	maxSkillsLine  = 350
	maxActionsLine = 500
	maxFlightLine  = 400
	maxNextText    = 450
	maxRulesText   = 300
	maxExtraText   = 300
	maxPathText    = 300
)

// Brief is what the instructions for one compaction are built from, mechanically: this
// session's records since the last compaction, its fresh checkpoint, its work in flight and the
// user's own standing instructions.
type Brief struct {
	Evidence transcript.Evidence     // skills loaded and actions done since the last compaction
	Read     transcript.EvidenceRead // how much of the transcript the evidence came from
	InFlight *snapshot.InFlight      // the snapshot's work in flight; nil when none was taken
	// Checkpoint is the fresh checkpoint's path ("" when none is fresh), Next and Rules the
	// bodies of its sections.
	Checkpoint, Next, Rules string
	Stale                   bool   // a checkpoint exists but is not fresh
	Extra                   string // [precompact] instructions_extra
}

// Instructions returns the instructions for the summariser: the one text zoneline gives a
// compaction (PreCompact prints it; Claude Code appends it to the summarisation request after
// "Additional Instructions:", for /compact and for an automatic compaction alike, and shows it
// to the user under /compact). One instruction per line, each addressed to the summariser, every
// outside string through safetext.Field, at most MaxInstructions characters with what was cut
// said on the last line; NothingToKeep alone when the records show nothing.
func Instructions(b *Brief) string {
	var lines []string
	cut := 0 // items and texts cut to fit their line
	add := func(s string) {
		if s != "" {
			lines = append(lines, s)
		}
	}
	if b.Checkpoint != "" {
		add("Keep verbatim the path of zoneline's checkpoint, which is put back after this compaction: " + field(b.Checkpoint, maxPathText, &cut) + ".")
		if next := field(b.Next, maxNextText, &cut); next != "" {
			add("Keep verbatim the checkpoint's Next as the next step: " + next)
		}
	}
	add(skillsLine(b.Evidence, &cut))
	add(actionsLine(b.Evidence, &cut))
	add(flightLine(b.InFlight, &cut))
	if b.Checkpoint != "" {
		if rules := field(b.Rules, maxRulesText, &cut); rules != "" && !isNoneText(rules) {
			add("Keep verbatim the checkpoint's Rules: " + rules)
		}
	}
	extra := field(b.Extra, maxExtraText, &cut)
	if len(lines) == 0 && extra == "" {
		return NothingToKeep
	}
	if b.Checkpoint == "" {
		why := "No fresh zoneline checkpoint exists"
		if b.Stale {
			why = "zoneline's checkpoint is stale (older than this stretch)"
		}
		add(why + ": state no next step the conversation does not; where it is unclear, say so.")
	}
	add(KeepList)
	if extra != "" {
		add("The user's standing instructions for every summary: " + extra)
	}
	head := InstructionsHead
	if b.Read.Partial {
		head += " (read from the transcript's last " + strconv.FormatInt(b.Read.Bytes>>20, 10) + " MB)"
	}
	return fit(head, lines, cut)
}

// fit joins the head and the lines within MaxInstructions, dropping whole lines from the end
// (the general ones are last) and saying on the last line what was cut.
func fit(head string, lines []string, cut int) string {
	const noteRoom = 120
	out := head
	n := utf8.RuneCountInString(head)
	dropped := 0
	for i, l := range lines {
		c := 1 + utf8.RuneCountInString(l)
		if n+c > MaxInstructions-noteRoom {
			dropped = len(lines) - i
			break
		}
		out += "\n" + l
		n += c
	}
	if dropped == 0 && cut == 0 {
		return out
	}
	note := "(zoneline cut"
	if dropped > 0 {
		note += " " + plural(dropped, "line")
		if cut > 0 {
			note += " and"
		}
	}
	if cut > 0 {
		note += " " + plural(cut, "item") + " from its lists and quotes"
	}
	return out + "\n" + note + " to stay within " + strconv.Itoa(MaxInstructions) + " characters; the checkpoint and the snapshot keep the rest.)"
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// field is safetext.Field, counting a cut in *cut.
func field(s string, n int, cut *int) string {
	f := safetext.Field(s, n)
	if strings.HasSuffix(f, "…") && !strings.HasSuffix(strings.TrimSpace(s), "…") {
		*cut++
	}
	return f
}

// isNoneText reports whether a section says nothing ("none", "-", "n/a").
func isNoneText(s string) bool {
	switch strings.ToLower(strings.Trim(s, " .-*")) {
	case "", "none", "n/a", "nothing":
		return true
	}
	return false
}

// list joins items after prefix within n characters, each once, counting what does not fit
// in *cut; "" when there are no items.
func list(prefix string, items []string, n int, cut *int) string {
	if len(items) == 0 {
		return ""
	}
	out, used := prefix, utf8.RuneCountInString(prefix)
	shown := 0
	for i, it := range items {
		c := utf8.RuneCountInString(it) + 2
		if shown > 0 && used+c > n-12 {
			*cut += len(items) - i
			return out + "; +" + strconv.Itoa(len(items)-i) + " more."
		}
		if shown > 0 {
			out += "; "
		}
		out += it
		used += c
		shown++
	}
	return out + "."
}

// skillsLine names the skills loaded (each once, in load order) and asks the summary to name
// them and to have them reloaded before their steps are followed.
func skillsLine(ev transcript.Evidence, cut *int) string {
	var names []string
	seen := map[string]bool{}
	for _, k := range ev.Skills {
		name := safetext.Field(k.Name, 80)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	*cut += ev.SkillsDropped
	return list("Name each skill loaded in the summary and say to reload it (Skill tool or its slash command) before following its steps: ",
		names, maxSkillsLine, cut)
}

// actionsLine lists the external actions done (the latest of each kind and id), to be kept
// verbatim and marked done.
func actionsLine(ev transcript.Evidence, cut *int) string {
	var items []string
	seen := map[string]bool{}
	for i := len(ev.Actions) - 1; i >= 0; i-- { // the most recent first: they matter most, and the list may be cut
		it := describeAction(ev.Actions[i])
		if it == "" || seen[it] {
			continue
		}
		seen[it] = true
		items = append(items, it)
	}
	*cut += ev.ActionsDropped
	return list("Keep verbatim and mark done (already done: do not repeat): ", items, maxActionsLine, cut)
}

// actionWords are the words of each kind of action: with its id, and without one (by its
// command), as fmt formats of the id (1), the verb (2) and the command (3).
var actionWords = [...]struct{ kind, withID, withCmd string }{
	{transcript.ActionPush, "pushed %[1]s", "pushed with %[3]s"},
	{transcript.ActionPR, "PR %[1]s %[2]s", "PR %[2]s with %[3]s"},
	{transcript.ActionTag, "tag %[1]s created", "tag %[1]s created"},
	{transcript.ActionRelease, "release %[1]s created", "release created with %[3]s"},
	{transcript.ActionPublish, "published %[1]s (%[2]s)", "published with %[3]s"},
	{transcript.ActionDeploy, "deployed with %[3]s", "deployed with %[3]s"},
	{transcript.ActionIssue, "issue %[1]s created", "issue created with %[3]s"},
}

// describeAction is one action in the words of the instructions (actionWords; a PR with no
// verb was created).
func describeAction(a transcript.Action) string {
	id := safetext.Field(a.ID, 160)
	verb := safetext.Field(a.Verb, 40)
	if a.Kind == transcript.ActionPR {
		verb = cmp.Or(verb, "created")
	}
	for _, w := range actionWords {
		if w.kind != a.Kind {
			continue
		}
		format := w.withID
		if id == "" {
			format = w.withCmd
		}
		return fmt.Sprintf(format, id, verb, "`"+safetext.Field(a.Command, 80)+"`")
	}
	return ""
}

// flightLine lists the work in flight by id: background commands not known to have ended,
// subagents with no result, tasks not completed, and what Claude Code's last Stop listed.
func flightLine(in *snapshot.InFlight, cut *int) string {
	if in == nil {
		return ""
	}
	f := &in.Flight
	var items []string
	shown := map[string]bool{}
	bgs, _ := openBackground(f, in.Stop)
	for i := len(bgs) - 1; i >= 0; i-- {
		bg := bgs[i]
		id := safetext.Field(cmp.Or(bg.ID, bg.ToolUseID), 60)
		shown[bg.ID] = true
		items = append(items, "background command "+id+" (`"+safetext.Field(bg.Command, 60)+"`)")
	}
	agents, _, _ := splitAgents(f)
	for i := len(agents) - 1; i >= 0; i-- {
		a := agents[i]
		shown[a.ID] = true
		items = append(items, "subagent "+safetext.Field(cmp.Or(a.ID, a.ToolUseID), 60)+" ("+safetext.Field(cmp.Or(a.Description, a.Type), 60)+")")
	}
	for _, ts := range [][]transcript.Task{f.Tasks, f.Todos} {
		for _, t := range ts {
			if !t.Unfinished() {
				continue
			}
			id := around(" #", safetext.Field(t.ID, 20), "")
			items = append(items, "task"+id+" \""+safetext.Field(t.Subject, 60)+"\" ("+safetext.Field(t.Status, 20)+")")
		}
	}
	if in.Stop != nil {
		for _, t := range in.Stop.Background {
			if t.ID == "" || shown[t.ID] {
				continue
			}
			items = append(items, safetext.Field(cmp.Or(t.Type, "task"), 20)+" "+safetext.Field(t.ID, 60)+" ("+safetext.Field(orUnknown(t.Status), 20)+")")
		}
	}
	return list("Keep verbatim the work in flight with its ids, as not finished: ", items, maxFlightLine, cut)
}
