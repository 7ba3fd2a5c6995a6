package transcript

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/zoneline/zoneline/internal/safetext"
)

// Bounds of an Evidence: what is beyond them is counted, not kept.
const (
	MaxEvidenceSkills  = 64       // skill loads kept (the first ones)
	MaxEvidenceActions = 100      // actions kept (the most recent)
	MaxSkillBody       = 64 << 10 // bytes of one skill's body kept
	MaxActionCommand   = 300      // runes of Action.Command
	maxPendingCalls    = 256      // Bash calls waiting for their result
)

// A SkillLoad is one skill the session loaded: through the Skill tool, or a skill's slash command
// (a user record `<command-message>N</command-message>\n<command-name>/N</command-name>` followed by an
// isMeta record "Base directory for this skill: …" holding the body).
type SkillLoad struct {
	Name string // as loaded: "compact-prep", "superpowers:brainstorming"
	Body string // the skill's text as the transcript holds it ("" when not recorded), without the "Base directory" line
	UUID string // the record that loaded it ("" when none)
	// BodyCut reports that the body was longer than MaxSkillBody bytes and was cut.
	BodyCut bool
	// Restored marks a skill Claude Code re-attached itself after a compaction (an
	// invoked_skills attachment record), not one loaded in this stretch.
	Restored bool
}

// An Action is an external action the transcript shows was done.
type Action struct {
	Kind    string // "push", "pr", "tag", "release", "publish", "deploy", "issue"
	ID      string // the branch, the PR number or URL, the tag, the package@version, the issue URL…
	Command string // the command as run (redacted, one line)
	UUID    string // the tool_use's record
	// Verb says what was done where the kind alone does not: "created", "merged" for a PR (the
	// CLI's gitOperation action when it recorded one), the command's head for a publish or a
	// deploy ("npm publish", "fly deploy"). "" otherwise.
	Verb string
}

// Evidence is what one stretch of a transcript shows loaded and done.
type Evidence struct {
	Skills  []SkillLoad
	Actions []Action
	// SkillsDropped and ActionsDropped count what the bounds left out; CallsDropped counts Bash
	// calls forgotten before their result came (more than maxPendingCalls were waiting).
	SkillsDropped  int
	ActionsDropped int
	CallsDropped   int
}

// EvidenceScanner reads JSONL records one at a time (pairing tool uses with their results) and
// collects Evidence; Reset starts a new stretch (the caller calls it at a compaction boundary).
//
// Only the main chain counts (a subagent's records are skipped). A Bash call becomes an Action
// when its result arrives and is not an error: the CLI's own toolUseResult.gitOperation record
// is preferred ({"push":{"branch":…}}, {"pr":{"number","url","action"}}), else the command's
// words are read (commandActions) and the IDs they leave open are taken from the result's text
// (a PR or issue URL, "-> branch" lines of git push, a published package@version) or, for a
// push, the record's gitBranch. A Skill call is a load unless its result is an error.
type EvidenceScanner struct {
	ev          Evidence
	failed      []bool // per ev.Skills: the Skill call's result was an error
	content     []byte
	pending     map[string]pendingCall // Bash tool_use id → the call
	order       []string               // pending ids, oldest first (some already answered)
	skillByTool map[string]int         // Skill tool_use id → index in ev.Skills (for its body)
	skillWait   map[string]int         // the Skill calls still waiting for their result
	bodyWait    []int                  // the Skill calls' loads still without a body, oldest first
	slashName   string                 // a slash command waiting for its skill body
	slashUUID   string
	decodes     int // records decoded whole (tests hold the cheap skips with it)
}

type pendingCall struct {
	cmd, uuid, branch string
	actions           []Action
}

var (
	skillBaseMarker     = []byte("Base directory for this skill:")
	invokedSkillsMarker = []byte(`"invoked_skills"`)
	gitOperationMarker  = []byte(`"gitOperation"`)
	commandNameMarker   = []byte("<command-name>")
	isMetaMarker        = []byte(`"isMeta":true`)
	sourceToolUseMarker = []byte(`"sourceToolUseID"`)
	skillName           = []byte(`"Skill"`)
	bashName            = []byte(`"Bash"`)
)

// Reset forgets everything collected: a new stretch starts.
func (s *EvidenceScanner) Reset() {
	content := s.content[:0]
	*s = EvidenceScanner{content: content}
}

// Evidence returns what the stretch read so far shows; the scanner can go on reading.
func (s *EvidenceScanner) Evidence() Evidence {
	e := s.ev
	e.Skills = nil
	for i, sk := range s.ev.Skills {
		if !s.failed[i] {
			e.Skills = append(e.Skills, sk)
		}
	}
	var cut int
	e.Actions, cut = capLast(append([]Action(nil), s.ev.Actions...), MaxEvidenceActions)
	e.ActionsDropped += cut
	return e
}

// Add reads one transcript line (with or without its newline); anything that is not a
// complete record is skipped. Only the records that can matter are decoded (cheap byte tests
// first), so a long stretch costs little more than reading it.
func (s *EvidenceScanner) Add(line []byte) {
	typ, ok := topLevelType(line)
	if !ok {
		return
	}
	switch typ {
	case "attachment":
		if bytes.Contains(line, invokedSkillsMarker) {
			s.invoked(line)
		}
		return
	case "assistant":
		s.slashName, s.slashUUID = "", ""
		if !bytes.Contains(line, toolUseMarker) || !bytes.Contains(line, skillName) && !(bytes.Contains(line, bashName) && mayAct(line)) {
			return
		}
	case "user":
		switch {
		case bytes.Contains(line, skillBaseMarker), bytes.Contains(line, commandNameMarker),
			len(s.bodyWait) > 0 && bytes.Contains(line, sourceToolUseMarker):
		case bytes.Contains(line, toolResultMarker):
			if !s.answersWaiting(line) {
				return
			}
		default:
			if !bytes.Contains(line, isMetaMarker) {
				s.slashName, s.slashUUID = "", ""
			}
			return
		}
	default:
		return
	}
	s.content = s.content[:0]
	s.decodes++
	rec, ok := ParseRecordContent(line, &s.content)
	if !ok || rec.Sidechain {
		return
	}
	if rec.Type == "assistant" {
		s.toolUses(&rec, line)
		return
	}
	switch {
	case rec.IsMeta:
		if bytes.Contains(line, skillBaseMarker) || bytes.Contains(line, sourceToolUseMarker) {
			s.skillBody(&rec, line)
		}
	case bytes.Contains(line, toolResultMarker):
		s.results(line)
	default:
		s.slashName, s.slashUUID = "", ""
		if text := ContentText(s.content); strings.Contains(text, "<command-name>") {
			s.slashName = strings.TrimPrefix(between(text, "<command-name>", "</command-name>"), "/")
			s.slashUUID = rec.UUID
		}
	}
}

// actionWords are in every command commandActions recognises (and every one the CLI records a
// gitOperation for): a Bash call whose record holds none is not decoded.
var actionWords = [][]byte{[]byte("push"), []byte("tag"), []byte("gh"), []byte("publish"), []byte("release"),
	[]byte("upload"), []byte("deploy"), []byte("vercel"), []byte("kubectl"), []byte("helm"), []byte("apply"),
	[]byte("pulumi"), []byte("railway")}

// mayAct reports whether an assistant record may hold a Bash call that does an external action.
func mayAct(line []byte) bool {
	return slices.ContainsFunc(actionWords, func(w []byte) bool { return bytes.Contains(line, w) })
}

// toolUses reads an assistant record's Skill and Bash calls.
func (s *EvidenceScanner) toolUses(rec *Record, line []byte) {
	var blocks []contentBlock
	if json.Unmarshal(s.content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if b.Type != "tool_use" || (b.Name != "Skill" && b.Name != "Bash") || b.ID == "" {
			continue
		}
		var in toolInput
		if json.Unmarshal(b.Input, &in) != nil {
			continue
		}
		if b.Name == "Skill" {
			if _, seen := s.skillByTool[b.ID]; seen {
				continue
			}
			name := cmp.Or(in.Skill, in.Command, in.Name)
			if i := s.addSkill(SkillLoad{Name: safetext.Field(name, 200), UUID: rec.UUID}); i >= 0 {
				put(&s.skillByTool, b.ID, i)
				put(&s.skillWait, b.ID, i)
				s.bodyWait = append(s.bodyWait, i)
			}
			continue
		}
		if _, seen := s.pending[b.ID]; seen || in.Command == "" {
			continue
		}
		p := pendingCall{cmd: in.Command, uuid: rec.UUID, actions: commandActions(in.Command)}
		for _, a := range p.actions {
			if a.Kind == ActionPush && a.ID == "" {
				var r struct {
					Branch string `json:"gitBranch"`
				}
				json.Unmarshal(line, &r)
				p.branch = r.Branch
				break
			}
		}
		s.wait(b.ID, p)
	}
}

// wait keeps a Bash call until its result comes, forgetting the oldest beyond maxPendingCalls.
func (s *EvidenceScanner) wait(id string, p pendingCall) {
	for len(s.pending) >= maxPendingCalls && len(s.order) > 0 {
		if _, ok := s.pending[s.order[0]]; ok {
			delete(s.pending, s.order[0])
			s.ev.CallsDropped++
		}
		s.order = s.order[1:]
	}
	put(&s.pending, id, p)
	s.order = append(s.order, id)
	if len(s.order) > 4*maxPendingCalls { // drop the answered ids
		s.order = slices.DeleteFunc(s.order, func(id string) bool {
			_, ok := s.pending[id]
			return !ok
		})
	}
}

func (s *EvidenceScanner) addSkill(k SkillLoad) int {
	if len(s.ev.Skills) >= MaxEvidenceSkills {
		s.ev.SkillsDropped++
		return -1
	}
	s.ev.Skills = append(s.ev.Skills, k)
	s.failed = append(s.failed, false)
	return len(s.ev.Skills) - 1
}

// skillBody reads an isMeta "Base directory for this skill" record: the body of the skill the
// Skill call it answers (sourceToolUseID) or the slash command just before it loaded, or of a
// skill named by its directory when neither was seen.
func (s *EvidenceScanner) skillBody(rec *Record, line []byte) {
	var r struct {
		Source string `json:"sourceToolUseID"`
	}
	json.Unmarshal(line, &r)
	i, called := s.skillByTool[r.Source]
	called = called && r.Source != ""
	text := ContentText(s.content)
	head, body, _ := strings.Cut(strings.TrimLeft(text, " \n"), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(head), string(skillBaseMarker))
	if !ok {
		if !called {
			return
		}
		// Claude Code 2.1.185 and later may give a plugin skill's body without the line.
		body = strings.TrimLeft(text, " \n")
	}
	body, cut := safetext.CutBytes(strings.TrimLeft(body, "\n"), MaxSkillBody)
	if called {
		s.ev.Skills[i].Body, s.ev.Skills[i].BodyCut = body, cut
		s.bodyWait = slices.DeleteFunc(s.bodyWait, func(j int) bool { return j == i })
		return
	}
	dir = base(strings.TrimRight(strings.TrimSpace(dir), `/\`))
	if r.Source == "" && s.slashName == "" {
		// Claude Code before sourceToolUseID: the body of the latest Skill call of that name
		// still without one.
		for k := len(s.bodyWait) - 1; k >= 0; k-- {
			if i := s.bodyWait[k]; sameSkill(s.ev.Skills[i].Name, dir) {
				s.ev.Skills[i].Body, s.ev.Skills[i].BodyCut = body, cut
				s.bodyWait = slices.Delete(s.bodyWait, k, k+1)
				return
			}
		}
	}
	name, uuid := s.slashName, s.slashUUID
	if name == "" {
		name, uuid = dir, rec.UUID
	}
	s.slashName, s.slashUUID = "", ""
	s.addSkill(SkillLoad{Name: safetext.Field(name, 200), Body: body, BodyCut: cut, UUID: uuid})
}

// sameSkill reports whether a Skill call's name ("superpowers:brainstorming", "goal") is the
// skill in directory dir ("brainstorming", "goal"), case-insensitively.
func sameSkill(name, dir string) bool {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return dir != "" && strings.EqualFold(name, dir)
}

// invoked reads an invoked_skills attachment: the skills Claude Code re-attached after a
// compaction.
func (s *EvidenceScanner) invoked(line []byte) {
	var r struct {
		Sidechain  bool   `json:"isSidechain"`
		UUID       string `json:"uuid"`
		Attachment struct {
			Type   string `json:"type"`
			Skills []struct {
				Name    string `json:"name"`
				Content string `json:"content"`
			} `json:"skills"`
		} `json:"attachment"`
	}
	if json.Unmarshal(line, &r) != nil || r.Sidechain || r.Attachment.Type != "invoked_skills" {
		return
	}
	for _, k := range r.Attachment.Skills {
		body, cut := safetext.CutBytes(k.Content, MaxSkillBody)
		s.addSkill(SkillLoad{Name: safetext.Field(k.Name, 200), Body: body, BodyCut: cut, UUID: r.UUID, Restored: true})
	}
}

// gitOperation is the CLI's record of what a Bash call did in git and GitHub.
type gitOperation struct {
	Push *struct {
		Branch string `json:"branch"`
	} `json:"push"`
	PR *struct {
		Number json.RawMessage `json:"number"`
		URL    string          `json:"url"`
		Action string          `json:"action"`
	} `json:"pr"`
}

var toolUseIDKey = []byte(`"tool_use_id"`)

// answersWaiting reports whether a tool_result record may answer a Bash or Skill call still
// waiting for its result, without decoding it: false only when every "tool_use_id" the line
// holds is a plain string (no escapes) that names none of them.
func (s *EvidenceScanner) answersWaiting(line []byte) bool {
	if len(s.pending) == 0 && len(s.skillWait) == 0 {
		return false
	}
	for rest := line; ; {
		i := bytes.Index(rest, toolUseIDKey)
		if i < 0 {
			return false
		}
		rest = rest[i+len(toolUseIDKey):]
		j := skipSpace(rest, 0)
		if j >= len(rest) || rest[j] != ':' {
			continue // a value "tool_use_id", not the key
		}
		j = skipSpace(rest, j+1)
		if j >= len(rest) || rest[j] != '"' {
			continue // not a string: it names no call
		}
		rest = rest[j+1:]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return true
		}
		id := rest[:end]
		if bytes.IndexByte(id, '\\') >= 0 {
			return true // escaped: let the decoder read it
		}
		if _, ok := s.pending[string(id)]; ok {
			return true
		}
		if _, ok := s.skillWait[string(id)]; ok {
			return true
		}
		rest = rest[end:]
	}
}

// results pairs a user record's tool results with the calls waiting for them.
func (s *EvidenceScanner) results(line []byte) {
	if len(s.pending) == 0 && len(s.skillWait) == 0 {
		return
	}
	var blocks []resultBlock
	if json.Unmarshal(s.content, &blocks) != nil {
		return
	}
	results := 0
	for _, b := range blocks {
		if b.Type == "tool_result" {
			results++
		}
	}
	var op gitOperation // the record's: it names one call's result only when the record holds one
	if results == 1 && bytes.Contains(line, gitOperationMarker) {
		var w struct {
			Op gitOperation `json:"gitOperation"`
		}
		toolUseResult(line, &w) // a field of the wrong type leaves the rest read
		op = w.Op
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		if i, ok := s.skillWait[b.ToolUseID]; ok {
			s.failed[i] = b.IsError
			delete(s.skillWait, b.ToolUseID)
			if b.IsError {
				s.bodyWait = slices.DeleteFunc(s.bodyWait, func(j int) bool { return j == i })
			}
		}
		p, ok := s.pending[b.ToolUseID]
		if !ok {
			continue
		}
		delete(s.pending, b.ToolUseID)
		if b.IsError {
			continue
		}
		for _, a := range resolve(p, op, ContentText(b.Content)) {
			a.Command, a.UUID = safetext.Field(p.cmd, MaxActionCommand), p.uuid
			a.ID = safetext.Field(a.ID, 300)
			s.ev.Actions = append(s.ev.Actions, a)
		}
		if len(s.ev.Actions) > 2*MaxEvidenceActions {
			n := len(s.ev.Actions) - MaxEvidenceActions
			s.ev.Actions = slices.Delete(s.ev.Actions, 0, n)
			s.ev.ActionsDropped += n
		}
	}
}

// resolve returns the actions of a call whose result came: the CLI's record first, then the
// command's words, with the IDs they leave open taken from the result's text.
func resolve(p pendingCall, op gitOperation, text string) []Action {
	acts := append([]Action(nil), p.actions...)
	if op.Push != nil {
		acts = append(withoutKind(acts, ActionPush), Action{Kind: ActionPush, ID: op.Push.Branch})
	}
	if op.PR != nil {
		id := op.PR.URL
		if id == "" {
			if n := rawID(op.PR.Number); n != "" {
				id = "#" + n
			}
		}
		acts = append(withoutKind(acts, ActionPR), Action{Kind: ActionPR, ID: id, Verb: op.PR.Action})
	}
	for i := range acts {
		a := &acts[i]
		if a.ID != "" {
			continue
		}
		switch a.Kind {
		case ActionPush:
			a.ID = cmp.Or(pushedRef(text), p.branch)
		case ActionPR:
			a.ID = urlWith(text, "/pull/")
		case ActionIssue:
			a.ID = urlWith(text, "/issues/")
		case ActionRelease:
			a.ID = urlWith(text, "/releases/")
		case ActionPublish:
			a.ID = published(text)
		}
	}
	if strings.Contains(text, "[deleted]") { // git's " - [deleted]   branch": no push of it
		acts = slices.DeleteFunc(acts, func(a Action) bool { return a.Kind == ActionPush && a.ID != "" && deletedRef(text, a.ID) })
	}
	return acts
}

// deletedRef reports whether git push's report in text shows ref deleted
// (" - [deleted]         fix/old").
func deletedRef(text, ref string) bool {
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "-" && f[1] == "[deleted]" && strings.TrimPrefix(f[2], "refs/heads/") == ref {
			return true
		}
	}
	return false
}

func withoutKind(acts []Action, kind string) []Action {
	return slices.DeleteFunc(acts, func(a Action) bool { return a.Kind == kind })
}

// urlWith returns the first http(s) URL in text that contains part, without trailing
// punctuation; "" when none does.
func urlWith(text, part string) string {
	for rest := text; ; {
		i := strings.Index(rest, "https://")
		if j := strings.Index(rest, "http://"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			return ""
		}
		rest = rest[i:]
		end := strings.IndexAny(rest, " \t\r\n\"'<>()[]")
		if end < 0 {
			end = len(rest)
		}
		u := strings.TrimRight(rest[:end], ".,;:")
		if strings.Contains(u, part) {
			return u
		}
		rest = rest[end:]
	}
}

// pushedRef returns the destination of the first ref line of git push's report
// ("   62c5d6c0..6be07325  next -> next", " * [new branch]      feat/x -> feat/x").
func pushedRef(text string) string {
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, " ") || strings.Contains(line, "[rejected]") || strings.Contains(line, "[remote rejected]") {
			continue
		}
		if _, dst, ok := strings.Cut(line, " -> "); ok {
			if f := strings.Fields(dst); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// published returns the package@version a publish command's output names: npm's "+ name@1.2.3",
// cargo's "Uploading name v1.2.3" or "Published name v1.2.3", a PyPI project URL.
func published(text string) string {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "+ "); ok && strings.Contains(rest, "@") && !strings.Contains(rest, " ") {
			return rest
		}
		for _, verb := range []string{"Uploading ", "Published "} {
			if rest, ok := strings.CutPrefix(line, verb); ok {
				if f := strings.Fields(rest); len(f) >= 2 && strings.HasPrefix(f[1], "v") {
					return f[0] + "@" + strings.TrimPrefix(f[1], "v")
				}
			}
		}
	}
	return urlWith(text, "pypi.org/project/")
}
