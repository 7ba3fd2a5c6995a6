// Package checkpoint is the /compact-prep checkpoint: the markdown file an agent writes before a
// compaction so that ground truth survives it word for word. The package knows the file's path in
// the state dir, its fixed format (an identity header and nine sections in a fixed order), how to
// parse it, how to verify it (each problem with its line) and how to reconcile its external-state
// table against the world by running the user's own verify commands.
//
// The format:
//
//	# zoneline checkpoint
//	session: 3f1c…-…          (the Claude Code session id)
//	model: claude-opus-5-5
//	cwd: /home/user/project
//	time: 2026-11-29T22:14:00Z
//	compactions: 1
//
//	## Goal
//	…
//	## State
//	## Next
//	## Decisions
//	## Abandoned
//	## Rules
//	## External state
//	| system | identifier | applied | idempotent | verify |
//	|---|---|---|---|---|
//	| git | branch fix/x pushed to origin | yes | no | `git rev-parse --verify --quiet refs/heads/fix/x` |
//	## Skills
//	## Pointers
package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/state"
)

// FileName is the checkpoint's name in the session's state folder.
const FileName = state.CheckpointName

// MaxSize is the largest checkpoint file read; anything larger is refused, not cut.
const MaxSize = 256 << 10

// Title is the checkpoint's first line.
const Title = "# zoneline checkpoint"

// Sections are the fixed headings, in the order they must appear.
var Sections = []string{"Goal", "State", "Next", "Decisions", "Abandoned", "Rules", "External state", "Skills", "Pointers"}

// OptionalSections may appear once each, anywhere after the identity header, or not at all:
// the active plan and its phase, the workers (tmux panes and their roles) and the traps (facts
// learned the hard way).
var OptionalSections = []string{"Plan", "Workers", "Traps"}

// Header keys of the identity header, in order.
const (
	KeySession     = "session"
	KeyModel       = "model"
	KeyCwd         = "cwd"
	KeyTime        = "time"
	KeyCompactions = "compactions"
)

// HeaderKeys are the identity header's keys, in order.
var HeaderKeys = []string{KeySession, KeyModel, KeyCwd, KeyTime, KeyCompactions}

// Path returns the checkpoint's path for a session: <state>/sessions/<id>/checkpoint.md. It
// refuses an id that is not a UUID.
func Path(d state.Dir, sessionID string) (string, error) {
	return d.SessionFile(sessionID, FileName)
}

// Read reads the checkpoint at path (refusing symlinks and files over MaxSize) and returns its
// text and modification time.
func Read(path string) (text string, mod time.Time, err error) {
	data, err := state.ReadFile(path, MaxSize)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", time.Time{}, err
		}
		return "", time.Time{}, fmt.Errorf("zoneline: reading checkpoint: %w", err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return "", time.Time{}, err
	}
	return string(data), fi.ModTime(), nil
}

// Header is the identity header.
type Header struct {
	Session     string
	Model       string
	Cwd         string
	Time        time.Time // zero when missing or unparsable
	TimeText    string
	Compactions int // -1 when missing or unparsable
	Line        map[string]int
}

// Section is one "## Heading" and its body.
type Section struct {
	Name string
	Line int    // the heading's 1-based line
	Body string // the lines after the heading up to the next heading, trimmed
	// BodyLine is the 1-based line of the body's first non-blank line (Line when empty).
	BodyLine int
}

// Row is one row of the External state table.
type Row struct {
	Line       int
	System     string
	Identifier string
	Applied    string // "yes", "no" or "UNKNOWN", as normalised by Parse; the raw cell otherwise
	Idempotent string // "yes" or "no", as normalised by Parse; the raw cell otherwise
	Verify     string // the verify command, without surrounding backticks; "" when none
	Cells      int    // cells found in the row
}

// Checkpoint is a parsed checkpoint.
type Checkpoint struct {
	Text      string
	TitleLine int // 0 when the title is missing
	Header    Header
	Sections  []Section
	External  []Row
	// TableHeader is the External state table's header cells, lower-cased; nil without a table.
	TableHeader []string
	TableLine   int
}

// Section returns the section named name, or nil.
func (c *Checkpoint) Section(name string) *Section {
	for i := range c.Sections {
		if strings.EqualFold(c.Sections[i].Name, name) {
			return &c.Sections[i]
		}
	}
	return nil
}

// Parse reads a checkpoint's text. It never fails: what it cannot read is left empty and
// reported by Verify.
func Parse(text string) *Checkpoint {
	c := &Checkpoint{Text: text, Header: Header{Compactions: -1, Line: map[string]int{}}}
	lines := strings.Split(text, "\n")
	var cur *Section
	var body []string
	flush := func() {
		if cur == nil {
			return
		}
		// trim blank lines at both ends, remembering where the body starts
		start := 0
		for start < len(body) && strings.TrimSpace(body[start]) == "" {
			start++
		}
		end := len(body)
		for end > start && strings.TrimSpace(body[end-1]) == "" {
			end--
		}
		cur.Body = strings.Join(body[start:end], "\n")
		cur.BodyLine = cur.Line
		if start < end {
			cur.BodyLine = cur.Line + 1 + start
		}
		c.Sections = append(c.Sections, *cur)
		cur, body = nil, nil
	}
	inFence := false
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimRight(raw, "\r")
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			inFence = !inFence
		}
		switch {
		case !inFence && strings.HasPrefix(line, "## "):
			flush()
			cur = &Section{Name: strings.TrimSpace(strings.TrimPrefix(line, "## ")), Line: n}
			continue
		case !inFence && cur == nil && strings.HasPrefix(line, "# ") && c.TitleLine == 0:
			c.TitleLine = n
			continue
		case cur == nil:
			if k, v, ok := strings.Cut(trim, ":"); ok {
				c.header(strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v), n)
			}
			continue
		}
		body = append(body, line)
		if strings.EqualFold(cur.Name, "External state") && strings.HasPrefix(trim, "|") {
			c.tableLine(trim, n)
		}
	}
	flush()
	return c
}

func (c *Checkpoint) header(k, v string, n int) {
	if _, seen := c.Header.Line[k]; seen {
		return
	}
	switch k {
	case KeySession:
		c.Header.Session = v
	case KeyModel:
		c.Header.Model = v
	case KeyCwd:
		c.Header.Cwd = v
	case KeyTime:
		c.Header.TimeText = v
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			c.Header.Time = t
		}
	case KeyCompactions:
		if x, err := strconv.Atoi(v); err == nil && x >= 0 {
			c.Header.Compactions = x
		}
	default:
		return
	}
	c.Header.Line[k] = n
}

// tableLine folds one "| … |" line of the External state section into the table.
func (c *Checkpoint) tableLine(line string, n int) {
	cells := splitRow(line)
	if c.TableHeader == nil {
		c.TableHeader = make([]string, len(cells))
		for i, h := range cells {
			c.TableHeader[i] = strings.ToLower(h)
		}
		c.TableLine = n
		return
	}
	if isDelimiter(cells) {
		return
	}
	r := Row{Line: n, Cells: len(cells)}
	for i, v := range cells {
		if i >= len(c.TableHeader) {
			break
		}
		switch col := c.TableHeader[i]; {
		case strings.HasPrefix(col, "system"):
			r.System = v
		case strings.HasPrefix(col, "identifier"), col == "id":
			r.Identifier = v
		case strings.HasPrefix(col, "applied"):
			r.Applied = normApplied(v)
		case strings.HasPrefix(col, "idempotent"):
			r.Idempotent = normYesNo(v)
		case strings.HasPrefix(col, "verify"):
			r.Verify = unquoteCode(v)
		}
	}
	c.External = append(c.External, r)
}

// splitRow splits a markdown table row into trimmed cells. A "\|" is a literal bar, and bars
// inside a `code span` do not split, so a verify command may hold a pipe.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var b strings.Builder
	inCode := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case ch == '`':
			inCode = !inCode
			b.WriteByte(ch)
		case ch == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(ch)
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

func isDelimiter(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" || c == "" {
			return false
		}
	}
	return true
}

// unquoteCode removes one pair of surrounding backticks (or a “double“ pair).
func unquoteCode(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range []string{"``", "`"} {
		if len(s) >= 2*len(q) && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			return strings.TrimSpace(s[len(q) : len(s)-len(q)])
		}
	}
	if isNone(s) {
		return ""
	}
	return s
}

func normApplied(v string) string {
	switch strings.ToLower(strings.Trim(v, "*_ ")) {
	case "yes", "y", "true", "applied", "done":
		return "yes"
	case "no", "n", "false", "not applied":
		return "no"
	case "unknown", "?":
		return "UNKNOWN"
	}
	return v
}

func normYesNo(v string) string {
	switch strings.ToLower(strings.Trim(v, "*_ ")) {
	case "yes", "y", "true":
		return "yes"
	case "no", "n", "false":
		return "no"
	}
	return v
}

// isNone reports whether s says "nothing here" on purpose.
func isNone(s string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(s), ".*_-—() ")) {
	case "none", "nothing", "n/a", "na", "-", "":
		return true
	}
	return false
}

// Longest header values Template writes, in runes.
const (
	maxHeaderField = 120  // session id, model id
	maxHeaderPath  = 1024 // cwd
)

// Template returns an empty checkpoint for a session: the identity header filled in and each
// section's heading with a short prompt in angle brackets, which Verify reports as a placeholder
// until it is replaced.
func Template(h Header) string {
	var b strings.Builder
	b.WriteString(Title + "\n")
	// The session, model and cwd came from payloads, the registry or the environment: each
	// is one line here (safetext.Field), so none can open a section of its own.
	fmt.Fprintf(&b, "%s: %s\n%s: %s\n%s: %s\n%s: %s\n%s: %d\n\n",
		KeySession, safetext.Field(h.Session, maxHeaderField), KeyModel, safetext.Field(h.Model, maxHeaderField),
		KeyCwd, safetext.Field(h.Cwd, maxHeaderPath), KeyTime, h.Time.UTC().Format(time.RFC3339),
		KeyCompactions, max(h.Compactions, 0))
	for _, s := range Sections {
		fmt.Fprintf(&b, "## %s\n%s\n\n", s, templateBody(s))
	}
	return b.String()
}

// templateBody is the template's prompt for a section. (A switch, not a map built at init.)
func templateBody(section string) string {
	switch section {
	case "Goal":
		return "<the user's ask, close to verbatim>"
	case "State":
		return "<each task: done / in flight / not started, with evidence (test output, commit, file)>"
	case "Next":
		return "- Action: <one concrete action: the file to change or the command to run>\n- Expected: <the result that shows it worked>"
	case "Decisions":
		return "<question — decision — why; or \"none\">"
	case "Abandoned":
		return "<approach — what went wrong — do not retry; or \"none\">"
	case "Rules":
		return "<constraints settled this session; or \"none\">"
	case "External state":
		return "| system | identifier | applied | idempotent | verify |\n|---|---|---|---|---|\n" +
			"| <git/github/db/…> | <branch, PR number, row id> | <yes/no/UNKNOWN> | <yes/no> | <`command: exit 0 applied, 1 not applied, other = could not check`> |"
	case "Skills":
		return "<skills to reload, e.g. /compact-prep; or \"none\">"
	case "Pointers":
		return "<files to read back after compaction (paths, not contents); or \"none\">"
	}
	return ""
}
