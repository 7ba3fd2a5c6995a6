package transcript

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"
	"time"
)

// FactLimits bounds each list in a FactSet. A zero or negative field takes
// its default (DefaultFactPrompts, DefaultFactFiles, …).
type FactLimits struct {
	Prompts  int // user prompts kept, most recent
	Files    int // files written or edited kept, most recent
	Commands int // Bash commands kept, most recent
	Skills   int // skills and slash commands kept, most recent
}

func (l FactLimits) withDefaults() FactLimits {
	return FactLimits{ // max(v, 0): a negative limit is 0, which cmp.Or replaces
		Prompts:  cmp.Or(max(l.Prompts, 0), DefaultFactPrompts),
		Files:    cmp.Or(max(l.Files, 0), DefaultFactFiles),
		Commands: cmp.Or(max(l.Commands, 0), DefaultFactCommands),
		Skills:   cmp.Or(max(l.Skills, 0), DefaultFactSkills),
	}
}

// FactSet is what Facts collects, mechanically, from the end of a
// transcript. Every list is oldest first, most recent last.
type FactSet struct {
	SessionID   string
	Prompts     []Prompt  // the user's own prompts, verbatim but for <system-reminder> blocks
	Files       []string  // paths given to Write, Edit, MultiEdit and NotebookEdit, each once
	Commands    []Command // Bash tool calls, each distinct command once
	Skills      []string  // Skill tool calls by skill name, and slash commands as "/name" or "/name args", each once
	Context     Context   // the latest context size, as Tail reports it
	Compactions int       // main-chain compact_boundary records in the window
	Partial     bool      // the window did not reach the start of the file, so older facts may be missing
	Flight      Flight    // the work in flight the window records (inflight.go)
}

// Prompt is one user prompt.
type Prompt struct {
	Text string
	Time time.Time // zero when the record had no timestamp
}

// Command is one Bash tool call.
type Command struct {
	Command     string // input.command
	Description string // input.description; may be empty
}

// toolUseMarker is in every assistant record with a tool call, whatever
// the JSON spacing: a prefilter before the second decode.
var toolUseMarker = []byte(`"tool_use"`)

// toolResultMarker is in every user record with a tool result.
var toolResultMarker = []byte(`"tool_result"`)

// fileTool reports whether a tool's input names a file it writes.
func fileTool(name string) bool {
	switch name {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// Prefixes of user "prompts" that are harness output, not the user's words.
var harnessPrefixes = []string{
	"<local-command-", // caveat, stdout, stderr of a /command
	"<bash-stdout>", "<bash-stderr>",
	"[Request interrupted by user",
	"<task-notification>", // background work that ended
}

// Facts collects, for the PreCompact snapshot, what the end of the
// transcript at path says mechanically: the last user prompts, the files
// written or edited, the recent Bash commands, the skills and slash
// commands used and the latest context size. It reads at most maxBytes
// from the end (DefaultFactBytes if maxBytes <= 0); Partial reports that
// the file is longer.
//
// Prompts are user records whose content is the user's text: not tool
// results, not the compaction summary, not isMeta, not local-command
// output. A "<command-name>" record becomes a slash command in Skills.
// Tool calls are deduplicated by tool_use id (Claude Code writes one
// assistant record per content block, each repeating message.id and usage),
// and include a subagent's (sidechain) calls; prompts and the context come
// from the main chain only.
func Facts(path string, maxBytes int64, limits FactLimits) (FactSet, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultFactBytes
	}
	limits = limits.withDefaults()
	f, size, err := openRegular(path)
	if err != nil {
		return FactSet{}, err
	}
	defer f.Close()
	start := max(0, size-maxBytes)
	buf := make([]byte, size-start)
	if err := readAt(f, buf, start); err != nil {
		return FactSet{}, err
	}
	if start > 0 { // drop the line cut by the window (all of buf when it has no newline)
		_, buf, _ = bytes.Cut(buf, []byte{'\n'})
	}
	c := collector{fs: FactSet{Partial: start > 0}, seenTool: map[string]bool{}, seenUUID: map[string]bool{}}
	for line := range bytes.Lines(buf) {
		c.line(line)
	}
	fs := c.fs
	fs.Prompts, _ = capLast(fs.Prompts, limits.Prompts)
	fs.Files, _ = capLast(c.files.list(), limits.Files)
	fs.Skills, _ = capLast(c.skills.list(), limits.Skills)
	var cmds []Command
	for _, k := range c.commands.list() {
		cmds = append(cmds, Command{Command: k, Description: c.descs[k]})
	}
	fs.Commands, _ = capLast(cmds, limits.Commands)
	fs.Flight = c.flight.done()
	return fs, nil
}

// collector folds records, oldest first, into a FactSet.
type collector struct {
	fs       FactSet
	files    recent
	skills   recent
	commands recent
	descs    map[string]string // command → latest description
	seenTool map[string]bool   // tool_use ids
	seenUUID map[string]bool   // record uuids: a record written twice counts once
	content  []byte            // message.content of the current record
	flight   flightCollector
}

type contentBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Text  string          `json:"text"`
	Input json.RawMessage `json:"input"`
}

// callKey is what tells two tool_use blocks apart: the id, or when there is none (or a
// recording tool wrote REDACTED in its place) the response, tool and input, so that a block
// written twice counts once and two calls never merge.
func callKey(messageID string, b *contentBlock) string {
	if b.ID != "" && !redactedID(b.ID) {
		return b.ID
	}
	return messageID + "\x00" + b.Name + "\x00" + string(b.Input)
}

type toolInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Command      string `json:"command"`
	Description  string `json:"description"`
	Skill        string `json:"skill"`
	Name         string `json:"name"`
}

func (c *collector) line(line []byte) {
	c.content = c.content[:0]
	rec, ok := ParseRecordContent(line, &c.content)
	if !ok {
		return
	}
	if rec.SessionID != "" {
		c.fs.SessionID = rec.SessionID
	}
	// The context and the count read every record, as Tail and
	// ScanCompactions do; the lists below see a record written twice once.
	if ctx, ok := contextFrom(&rec); ok {
		c.fs.Context = ctx
		if rec.IsCompaction() {
			c.fs.Compactions++
		}
	}
	if rec.UUID != "" {
		if c.seenUUID[rec.UUID] {
			return
		}
		c.seenUUID[rec.UUID] = true
	}
	switch rec.Type {
	case "permission-mode", "attachment", "queue-operation":
		c.flight.record(rec.Type, line)
	case "user":
		// The mode the record was sent in first: a result it carries (an approved plan) is
		// newer than that.
		if !rec.Sidechain {
			c.flight.userRecord(line, c.content, rec.Time)
		}
		if !rec.Sidechain && bytes.Contains(line, toolResultMarker) {
			c.flight.launch = launchOf(line)
			c.flight.results(c.content, rec.Time)
			c.flight.launch = nil
		}
		if rec.Sidechain || rec.IsMeta || rec.IsCompactSummary {
			return
		}
		c.prompt(c.content, rec.Time)
	case "assistant":
		if !bytes.Contains(line, toolUseMarker) {
			return
		}
		var blocks []contentBlock
		if json.Unmarshal(c.content, &blocks) != nil {
			return
		}
		for _, b := range blocks {
			if b.Type != "tool_use" {
				continue
			}
			id := callKey(rec.MessageID, &b)
			if c.seenTool[id] {
				continue
			}
			c.seenTool[id] = true
			c.tool(b)
			if !rec.Sidechain {
				c.flight.callID(&b)
				c.flight.tool(b, rec.Time)
			}
		}
	}
}

// prompt records a user record's content if it is the user's own text.
func (c *collector) prompt(content json.RawMessage, t time.Time) {
	var text string
	switch content = bytes.TrimSpace(content); {
	case len(content) > 0 && content[0] == '"':
		if json.Unmarshal(content, &text) != nil {
			return
		}
	case len(content) > 0 && content[0] == '[':
		// A prompt with an image or a pasted block is an array of text and
		// image blocks; an array with a tool_result is the tool's answer.
		var blocks []contentBlock
		if json.Unmarshal(content, &blocks) != nil {
			return
		}
		var parts []string
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				return
			case "text":
				parts = append(parts, b.Text)
			}
		}
		text = strings.Join(parts, "\n")
	default:
		return
	}
	text = strings.TrimSpace(stripReminders(text))
	if text == "" {
		return
	}
	if strings.HasPrefix(text, "<command-name>") {
		if name := between(text, "<command-name>", "</command-name>"); name != "" {
			if !strings.HasPrefix(name, "/") {
				name = "/" + name
			}
			if args := strings.TrimSpace(between(text, "<command-args>", "</command-args>")); args != "" {
				name += " " + args
			}
			c.skills.add(name)
		}
		return
	}
	for _, p := range harnessPrefixes {
		if strings.HasPrefix(text, p) {
			return
		}
	}
	if strings.HasPrefix(text, "/") {
		if name, _, _ := strings.Cut(text, " "); len(name) > 1 && !strings.ContainsAny(name, "\n\t") {
			c.skills.add(name)
		}
	}
	c.fs.Prompts = append(c.fs.Prompts, Prompt{Text: text, Time: t})
}

// tool records one tool_use block.
func (c *collector) tool(b contentBlock) {
	var in toolInput
	if len(b.Input) == 0 || json.Unmarshal(b.Input, &in) != nil {
		return
	}
	switch {
	case fileTool(b.Name):
		if p := cmp.Or(in.FilePath, in.NotebookPath); p != "" {
			c.files.add(p)
		}
	case b.Name == "Bash":
		if in.Command == "" {
			return
		}
		c.commands.add(in.Command)
		if in.Description != "" || c.descs[in.Command] == "" {
			put(&c.descs, in.Command, in.Description)
		}
	case b.Name == "Skill":
		if name := cmp.Or(in.Skill, in.Command, in.Name); name != "" {
			c.skills.add(name)
		}
	case b.Name == "SlashCommand": // older Claude Code: input.command is "/name args"
		if in.Command != "" {
			c.skills.add(in.Command)
		}
	}
}

// stripReminders removes every <system-reminder>…</system-reminder> block;
// an unclosed one runs to the end.
func stripReminders(s string) string {
	const open, closing = "<system-reminder>", "</system-reminder>"
	if !strings.Contains(s, open) {
		return s
	}
	var b strings.Builder
	for ok := true; ok; {
		var before string
		before, s, ok = strings.Cut(s, open)
		b.WriteString(before)
		if ok {
			_, s, ok = strings.Cut(s, closing)
		}
	}
	return b.String()
}

// between returns the text between the first open and the next close, or "".
func between(s, open, close string) string {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	in, _, ok := strings.Cut(rest, close)
	if !ok {
		return ""
	}
	return strings.TrimSpace(in)
}

// recent is an insertion-ordered set where adding an existing element
// moves it to the end. Adding is O(1); list is O(n).
type recent struct {
	seq  []string       // every add, in order
	last map[string]int // element → index of its latest add in seq
}

func (r *recent) add(s string) {
	put(&r.last, s, len(r.seq))
	r.seq = append(r.seq, s)
}

// list returns the distinct elements, ordered by their latest add.
func (r *recent) list() []string {
	var out []string
	for i, s := range r.seq {
		if r.last[s] == i {
			out = append(out, s)
		}
	}
	return out
}
