// Package install merges zoneline into Claude Code's settings.json and takes it out again.
//
// Install adds the statusLine command (or keeps another one, or wraps it: wrap.go) and `zoneline
// hook` for UserPromptSubmit, PreCompact, Stop,
// PostCompact and SessionStart (matcher "compact"), installs the skills, and writes a default
// config. It keeps every other key, value and hook, the file's key order and indentation (an
// untouched value is written back byte for byte), writes a backup beside the file before the
// first change, and writes atomically. A second run changes nothing.
//
// Our entries are identified by their command, not by position: the program's base name is
// zoneline (zoneline.exe) and its first argument is "hook" or "statusline". What install did
// that uninstall cannot see in the file — the foreign statusLine it replaced, the keys it
// created, the skill files it wrote and their hashes, the config it wrote — is kept in an
// install record beside the settings file, RecordName. The record lives with the file it
// describes, so it survives a change of state dir and `uninstall --purge`.
package install

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/skills"
	"github.com/zoneline/zoneline/state"
)

// Names of the files install keeps beside settings.json.
const (
	RecordName   = "zoneline-install.json" // what install did, for uninstall
	BackupSuffix = ".zoneline-backup"      // settings.json.zoneline-backup: the file before the first change
	recordLimit  = 1 << 20                 // largest install record read
	settingsMax  = 16 << 20                // largest settings file edited
	HookTimeout  = 10                      // seconds Claude Code gives each zoneline hook
	recordFormat = 1                       // the install record's version
	binaryName   = "zoneline"              // the program name that marks our commands
	skillMarker  = "SKILL.md"              // a skill dir holds this file
	newFileMode  = 0o600                   // mode of a settings file install creates
	skillMode    = 0o644                   // mode of installed skill files
)

// Subcommands our entries run.
const (
	SubStatusline = "statusline"
	SubHook       = "hook"
)

// HookEntry is one hook registration: an event and its matcher ("" for none).
type HookEntry struct{ Event, Matcher string }

// Hooks are the events zoneline registers `zoneline hook` for.
var Hooks = []HookEntry{
	{"UserPromptSubmit", ""},
	{"PreCompact", ""},
	{"PostCompact", ""},
	{"SessionStart", "compact"},
	{"Stop", ""}, // background_tasks and session_crons; the resume check; the warning loop, whatever draws the status line
}

// Actions a Change reports.
const (
	Added     = "added"
	Present   = "already present"
	Skipped   = "skipped"
	Updated   = "updated"
	Replaced  = "replaced"
	Removed   = "removed"
	Restored  = "restored"
	NotFound  = "not present"
	Kept      = "kept"
	Unchanged = "unchanged"
)

// Change is one line of the report: what, what happened, and a detail.
type Change struct {
	Item   string // "statusLine", "hook UserPromptSubmit", "skill /compact-prep", "config"
	Action string // Added, Present, Skipped, …
	Detail string
}

// Options say what to install where.
type Options struct {
	Settings  string // settings.json to edit
	ClaudeDir string // skills go to <ClaudeDir>/skills/<name>/
	Bin       string // absolute path of the zoneline binary the entries run
	GOOS      string // the platform the command lines are for (runtime.GOOS)
	Skills    fs.FS  // the skills to install: every top-level dir holding SKILL.md; nil for none
	Config    string // zoneline's config file, written from the template when missing; "" skips
	StateDir  string // zoneline's state dir (uninstall --purge)
	Force     bool   // replace a foreign statusLine, overwrite modified skill files
	Wrap      bool   // a foreign statusLine: rewrite it to zoneline wrapping its command (wrap.go)
	DryRun    bool   // change nothing; Result.Diff says what would change
	Purge     bool   // uninstall: remove the config and state too
	Now       func() time.Time

	// beforeCommit, when set (tests), runs after the new settings are written to their temp
	// file and before the file is checked and renamed over: where a concurrent writer bites.
	beforeCommit func()
}

// Result is what Install or Uninstall did (or, with DryRun, would do).
type Result struct {
	Settings string
	Changes  []Change
	Diff     string // unified diff of settings.json
	Backup   string // the backup written before the first change, if any
	Record   string // the install record's path
}

func (r *Result) add(item, action, format string, args ...any) {
	r.Changes = append(r.Changes, Change{Item: item, Action: action, Detail: fmt.Sprintf(format, args...)})
}

// Record is the install record kept beside settings.json (RecordName).
type Record struct {
	Version         int               `json:"version"`
	Binary          string            `json:"binary"`
	Settings        string            `json:"settings"`
	Installed       time.Time         `json:"installed"`
	SettingsCreated bool              `json:"settings_created,omitempty"` // the file did not exist
	SettingsEmpty   *string           `json:"settings_empty,omitempty"`   // the file held only this whitespace
	Created         []string          `json:"created,omitempty"`          // keys install created: "statusLine", "hooks", "hooks.PreCompact"
	ReplacedStatus  string            `json:"replaced_statusline,omitempty"`
	Skills          map[string]string `json:"skills,omitempty"` // installed file → FNV-1a 128 of its bytes
	Config          string            `json:"config,omitempty"` // the config file install wrote
}

// CommandLine returns the shell command Claude Code runs for sub: the binary's path, quoted
// when it needs it, then sub. On Windows Claude Code runs a status line command through Git Bash
// (its own status line guide says so), which takes a backslash as an escape: the path is written
// with forward slashes and quoted as for any POSIX shell.
func CommandLine(bin, sub, goos string) string {
	if goos == "windows" {
		bin = strings.ReplaceAll(bin, `\`, "/")
	}
	if bin == "" || strings.IndexFunc(bin, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:@%,", r))
	}) >= 0 {
		bin = "'" + strings.ReplaceAll(bin, "'", `'\''`) + "'"
	}
	return bin + " " + sub
}

// HookCommand returns the hook entry that runs `zoneline hook`. On Windows it is in Claude Code's
// exec form, the program in "command" and its arguments in "args": no shell parses it, so it runs
// alike whether Claude Code has Git Bash or falls back to PowerShell, spaces in the path
// included. Elsewhere it is a shell command line, as Claude Code has always run hooks.
func HookCommand(bin, goos string) *Node {
	if goos == "windows" {
		return Obj("type", "command", "command", strings.ReplaceAll(bin, `\`, "/"), "args", []*Node{FromValue(SubHook)}, "timeout", HookTimeout)
	}
	return Obj("type", "command", "command", CommandLine(bin, SubHook, goos), "timeout", HookTimeout)
}

// EntryCommand is a hook entry as one command line (for reports and for IsOurs): the shell
// form's command as is, the exec form's program and args quoted as a shell would take them.
func EntryCommand(h *Node) string {
	cmd := h.Get("command").Text()
	args := h.Get("args")
	if args == nil {
		return cmd
	}
	line := CommandLine(cmd, "", "")
	line = line[:len(line)-1]
	if args.Kind != Array {
		return line + " ?"
	}
	for _, a := range args.Elems {
		if a.Kind != String {
			return line + " ?"
		}
		line += " " + CommandLine(a.Str, "", "")[:len(CommandLine(a.Str, "", ""))-1]
	}
	return line
}

// EntryIsOurs reports whether a hook entry runs zoneline's sub, in the shell or the exec form.
func EntryIsOurs(h *Node, sub string) bool { return IsOurs(EntryCommand(h), sub) }

// IsOurs reports whether command runs zoneline's sub: its program (after any VAR=value
// prefixes or PowerShell's call operator) has the base name zoneline or zoneline.exe, its first
// argument is sub, and nothing but flags follows. A word holding an unquoted shell operator (|
// & ; < > ( ) $ `, e.g. `-segments=zone&&other`) makes it the user's own composite command.
func IsOurs(command, sub string) bool {
	w, meta := shellWords(command)
	if len(w) > 0 && w[0] == "&" {
		w, meta = w[1:], meta[1:]
	}
	for len(w) > 0 && isAssignment(w[0]) {
		w, meta = w[1:], meta[1:]
	}
	if len(w) < 2 || w[1] != sub || slices.Contains(meta, true) {
		return false
	}
	// Only flags may follow: "zoneline statusline | head -1 && other" is the user's own
	// composite command, not ours to replace or remove.
	for i := 2; i < len(w); i++ {
		if !strings.HasPrefix(w[i], "-") {
			return false
		}
		if flag := strings.TrimLeft(w[i], "-"); flag == "wrap" || flag == "segments" {
			i++ // its value: `zoneline statusline -wrap 'their command'`
		}
	}
	base := w[0][strings.LastIndexAny(w[0], `/\`)+1:]
	if len(base) > 4 && strings.EqualFold(base[len(base)-4:], ".exe") {
		base = base[:len(base)-4]
	}
	return base == binaryName
}

// OwnFlags reports whether a zoneline statusLine command (IsOurs) carries flags install does
// not write (it writes none, or -wrap): the user's own choice, e.g. -segments, which install
// keeps as it is and uninstall leaves.
func OwnFlags(command string) bool {
	w := words(command)
	for i := 0; i < len(w); i++ {
		if w[i] != SubStatusline {
			continue
		}
		for j := i + 1; j < len(w); j++ {
			switch f := strings.TrimLeft(w[j], "-"); {
			case f == "wrap":
				j++
			case strings.HasPrefix(f, "wrap="):
			default:
				return true
			}
		}
		return false
	}
	return false
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for _, r := range w[:i] {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// words splits a command line on blanks (shellWords).
func words(s string) []string {
	w, _ := shellWords(s)
	return w
}

// shellWords splits a command line on blanks, honouring single quotes, double quotes (inside
// them a backslash escapes only $ ` " \ and a newline, as POSIX sh does) and backslash
// escapes of a blank or a quote outside them (enough to find the program and its arguments;
// other backslashes stay, for Windows paths). meta[i] reports whether word i holds an unquoted
// shell operator or expansion: | & ; < > ( ) $ `.
func shellWords(s string) (out []string, meta []bool) {
	var cur strings.Builder
	in, m := false, false
	var q rune
	for i := 0; i < len(s); i++ {
		c := rune(s[i])
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
			} else {
				cur.WriteRune(c)
			}
		case q == '"':
			switch {
			case c == '"':
				q = 0
			case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
				i++ // a line continuation
			case c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0:
				cur.WriteByte(s[i+1])
				i++
			default:
				cur.WriteByte(s[i])
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out, meta = append(out, cur.String()), append(meta, m)
				cur.Reset()
				in, m = false, false
			}
		case c == '\\' && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '"' || s[i+1] == '\''):
			cur.WriteByte(s[i+1])
			i++
			in = true
		default:
			if strings.IndexByte("|&;<>()$`", s[i]) >= 0 {
				m = true
			}
			cur.WriteByte(s[i])
			in = true
		}
	}
	if in {
		out, meta = append(out, cur.String()), append(meta, m)
	}
	return out, meta
}

// RecordPath returns the install record's path for a settings file.
func RecordPath(settings string) string {
	return filepath.Join(filepath.Dir(settings), RecordName)
}

// LoadRecord reads the install record beside settings; nil when there is none.
func LoadRecord(settings string) (*Record, error) {
	data, err := readLimited(RecordPath(settings), recordLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("zoneline: %s: %v; delete it to start afresh", RecordPath(settings), err)
	}
	return &r, nil
}

// settingsFile is a settings file read for editing.
type settingsFile struct {
	path   string // the real file (symlinks resolved), where the write goes
	exists bool
	data   []byte
	mode   fs.FileMode
	info   fs.FileInfo // the file as read (nil when it did not exist): its identity and time
	doc    *Document
}

// ErrChanged reports a settings file that another program rewrote between install's read and
// its write (Claude Code rewrites settings.json with a temp file and a rename).
var ErrChanged = errors.New("changed while zoneline was editing it")

// commitAttempts is how many times Install and Uninstall read, merge and write again when the
// settings file changed under them, before they give up and change nothing.
const commitAttempts = 5

func readSettings(p string) (*settingsFile, error) {
	sf := &settingsFile{path: p, mode: newFileMode}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		sf.path = real // a dotfiles symlink stays a symlink: write its target
	} else if li, lerr := os.Lstat(p); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
		// A dangling (or looping) link: writing would replace the link with a file, and the
		// user's dotfiles would silently stop being the settings.
		target, _ := os.Readlink(p)
		return nil, fmt.Errorf("zoneline: %s is a symlink to %s, which cannot be read (%v): create the target or remove the link; nothing was changed", p, target, unwrapPath(err))
	}
	fi, err := os.Stat(sf.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("zoneline: %v", err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("zoneline: %s is not a regular file", p)
	default:
		sf.exists, sf.mode, sf.info = true, fi.Mode().Perm(), fi
		if sf.data, err = readLimited(sf.path, settingsMax); err != nil {
			return nil, fmt.Errorf("zoneline: reading %s: %v", p, err)
		}
	}
	doc, err := Parse(p, sf.data)
	if err != nil {
		return nil, err
	}
	if doc.Root != nil && doc.Root.Kind != Object {
		return nil, doc.ErrorAt(doc.Root, "settings.json holds "+kindName(doc.Root.Kind)+", not an object: fix it by hand")
	}
	sf.doc = doc
	return sf, nil
}

func kindName(k Kind) string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// Install merges zoneline into o.Settings, installs the skills and writes the config. With
// o.DryRun it changes nothing and returns the diff it would apply. A settings file it cannot
// keep whole (invalid JSON, comments) is a *ParseError and nothing is changed. A settings file
// rewritten by another program while Install works is read and merged again (commitAttempts
// times, then ErrChanged and nothing changed): the other program's edit is never lost.
func Install(o Options) (*Result, error) { return retryChanged(o, install) }

// retryChanged runs fn until it does not fail with ErrChanged, at most commitAttempts times.
func retryChanged(o Options, fn func(Options) (*Result, error)) (*Result, error) {
	for i := 1; ; i++ {
		res, err := fn(o)
		if !errors.Is(err, ErrChanged) {
			return res, err
		}
		if i == commitAttempts {
			return nil, fmt.Errorf("zoneline: %s %w %d times in a row (another program is rewriting it: Claude Code?): nothing was changed; run it again in a moment", o.Settings, ErrChanged, i)
		}
	}
}

// plan is one install or uninstall worked out in memory before anything is written: the
// settings document as edited, the files to write or remove, the record, and the report. Each
// step (status line, hooks, skills, config) adds to it; apply carries it out, and a dry run
// stops before apply.
type plan struct {
	o     Options
	res   *Result
	sf    *settingsFile
	rec   *Record // the install record; nil for an uninstall that finds none
	fresh bool    // install: no record was there

	newData []byte // the settings file's new bytes (uninstall: nil removes the file)
	changed bool   // newData differs from the file

	writes      []fileWrite // install: skill files and the config
	removeFiles []string    // uninstall: skill files unchanged since install
	skillDirs   []string    // uninstall: the skills' folders, removed when empty
}

// fileWrite is a file install writes after the settings.
type fileWrite struct {
	path string
	data []byte
}

// newPlan reads the settings file and the install record.
func newPlan(o Options) (*plan, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	p := &plan{o: o, res: &Result{Settings: o.Settings, Record: RecordPath(o.Settings)}}
	var err error
	if p.sf, err = readSettings(o.Settings); err != nil {
		return nil, err
	}
	if p.rec, err = LoadRecord(o.Settings); err != nil {
		return nil, err
	}
	return p, nil
}

// run runs the steps in order, stopping at the first error.
func (p *plan) run(steps ...func(*plan) error) error {
	for _, step := range steps {
		if err := step(p); err != nil {
			return err
		}
	}
	return nil
}

func install(o Options) (*Result, error) {
	p, err := newPlan(o)
	if err != nil {
		return nil, err
	}
	err = p.run((*plan).startRecord, (*plan).installStatusLine, (*plan).installHooks, (*plan).settingsDiff,
		(*plan).installSkills, (*plan).installConfig)
	if err != nil {
		return nil, err
	}
	if o.DryRun {
		return p.res, nil
	}
	if o.Config != "" { // an existing config (and its zoneline folder) made private again
		if err := state.TightenConfig(o.Config); err != nil {
			return nil, err
		}
	}
	if !p.changed && len(p.writes) == 0 {
		return p.res, nil
	}
	if err := p.applyInstall(); err != nil {
		return nil, err
	}
	return p.res, nil
}

// startRecord begins the install record (or carries on the one there), and an empty
// settings document: what uninstall needs to put the file back as it was.
func (p *plan) startRecord() error {
	p.fresh = p.rec == nil
	if p.fresh {
		p.rec = &Record{Version: recordFormat, Skills: map[string]string{}}
	}
	if p.rec.Skills == nil {
		p.rec.Skills = map[string]string{}
	}
	if doc := p.sf.doc; doc.Root == nil {
		doc.Root = Obj()
		if p.fresh {
			if !p.sf.exists {
				p.rec.SettingsCreated = true
			} else {
				ws := string(p.sf.data)
				p.rec.SettingsEmpty = &ws
			}
		}
	}
	return nil
}

// created records a settings key install created (uninstall deletes it again).
func (p *plan) created(key string) {
	if !slices.Contains(p.rec.Created, key) {
		p.rec.Created = append(p.rec.Created, key)
	}
}

// installStatusLine sets the statusLine to zoneline's; another tool's is kept, wrapped (Wrap)
// or replaced (Force).
func (p *plan) installStatusLine() error {
	o, root, res := p.o, p.sf.doc.Root, p.res
	want := Obj("type", "command", "command", CommandLine(o.Bin, SubStatusline, o.GOOS), "padding", 0)
	switch cur := root.Get("statusLine"); {
	case cur == nil:
		root.Set("statusLine", want)
		p.created("statusLine")
		res.add("statusLine", Added, "%s", want.Get("command").Str)
	case IsOurs(cur.Get("command").Text(), SubStatusline) && OwnFlags(cur.Get("command").Text()):
		res.add("statusLine", Present, "%s (your own flags, kept)", cur.Get("command").Text())
	case IsOurs(cur.Get("command").Text(), SubStatusline) && Wrapped(cur.Get("command").Text()) != "":
		res.add("statusLine", Present, "%s", cur.Get("command").Text()) // ours, wrapping theirs
	case IsOurs(cur.Get("command").Text(), SubStatusline):
		if c := cur.Get("command"); c.Text() == want.Get("command").Str {
			res.add("statusLine", Present, "%s", c.Str)
		} else {
			cur.Set("command", want.Get("command"))
			res.add("statusLine", Updated, "was %s", c.Text())
		}
	case o.Wrap:
		if err := wrapStatusLine(cur, o, p.rec, res); err != nil {
			return p.sf.doc.ErrorAt(cur, err.Error())
		}
	case !o.Force:
		res.add("statusLine", Kept, "another status line (%s); warnings run from the Stop hook; zoneline install -wrap shows zoneline's zone in it", describe(cur))
	default:
		p.rec.ReplacedStatus = cur.Raw()
		root.Set("statusLine", want)
		res.add("statusLine", Replaced, "was %s (kept in %s for uninstall)", describe(cur), RecordName)
	}
	return nil
}

// installHooks adds `zoneline hook` to each event of Hooks (updating an entry of ours that
// differs), unless a zoneline plugin runs the hooks already.
func (p *plan) installHooks() error {
	o, doc, res := p.o, p.sf.doc, p.res
	root := doc.Root
	hooks := root.Get("hooks")
	if hooks == nil {
		hooks = Obj()
		root.Set("hooks", hooks)
		p.created("hooks")
	} else if hooks.Kind != Object {
		return doc.ErrorAt(hooks, `"hooks" is `+kindName(hooks.Kind)+`, not an object: fix it by hand`)
	}
	hookWant := HookCommand(o.Bin, o.GOOS)
	cmd := EntryCommand(hookWant)
	plugin := PluginEnabled(root)
	for _, h := range Hooks {
		item := "hook " + h.Event
		if h.Matcher != "" {
			item += " (" + h.Matcher + ")"
		}
		if plugin != "" && (hooks.Get(h.Event) == nil || findOurs(hooks.Get(h.Event), SubHook) == nil) {
			res.add(item, Skipped, "the plugin %s runs it already", plugin)
			continue
		}
		arr := hooks.Get(h.Event)
		if arr == nil {
			arr = FromValue([]*Node{})
			hooks.Set(h.Event, arr)
			p.created("hooks." + h.Event)
		} else if arr.Kind != Array {
			return doc.ErrorAt(arr, fmt.Sprintf("hooks.%s is %s, not an array: fix it by hand", h.Event, kindName(arr.Kind)))
		}
		if e := findOurs(arr, SubHook); e != nil {
			action, detail := updateHook(e, hookWant, cmd)
			res.add(item, action, "%s", detail)
			continue
		}
		entry := HookCommand(o.Bin, o.GOOS)
		var group *Node
		if h.Matcher != "" {
			group = Obj("matcher", h.Matcher, "hooks", []*Node{entry})
		} else {
			group = Obj("hooks", []*Node{entry})
		}
		arr.Elems = append(arr.Elems, group)
		res.add(item, Added, "%s (timeout %ds)", cmd, HookTimeout)
	}
	if len(hooks.Members) == 0 {
		root.Delete("hooks")
	}
	return nil
}

// updateHook brings our hook entry e to want (command cmd, HookTimeout) and returns the
// report's action and detail.
func updateHook(e, want *Node, cmd string) (action, detail string) {
	old := EntryCommand(e)
	t := e.Get("timeout")
	sameForm := (e.Get("args") == nil) == (want.Get("args") == nil)
	if old == cmd && sameForm && t != nil && t.Kind == Number && t.Num.String() == fmt.Sprint(HookTimeout) {
		return Present, cmd
	}
	e.Set("command", want.Get("command"))
	if a := want.Get("args"); a != nil {
		e.Set("args", a)
	} else {
		e.Delete("args")
	}
	e.Set("timeout", FromValue(HookTimeout))
	return Updated, "was " + old
}

// settingsDiff encodes the edited settings and, when they differ, the diff the report shows.
func (p *plan) settingsDiff() error {
	p.newData = p.sf.doc.Bytes()
	p.changed = !p.sf.exists || !bytes.Equal(p.newData, p.sf.data)
	if p.changed {
		p.res.Diff = UnifiedDiff(diffName(p.o.Settings, p.sf.exists, "a"), diffName(p.o.Settings, true, "b"), p.sf.data, p.newData)
	}
	return nil
}

// installSkills plans the skill files: a missing or unedited one is written, one edited since
// install is left alone (and reported) unless Force.
func (p *plan) installSkills() error {
	skills, err := p.o.listSkills()
	if err != nil {
		return err
	}
	for _, sk := range skills {
		item := "skill /" + sk.name
		dir := filepath.Join(p.o.ClaudeDir, "skills", sk.name)
		var actions []string
		for _, f := range sk.files {
			dst := filepath.Join(dir, filepath.FromSlash(f.rel))
			have, err := readLimited(dst, settingsMax)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				p.writes = append(p.writes, fileWrite{dst, f.data})
				p.rec.Skills[dst] = hash(f.data)
				actions = append(actions, Added)
			case err != nil:
				return fmt.Errorf("zoneline: %v", err)
			case bytes.Equal(have, f.data):
				p.rec.Skills[dst] = hash(f.data)
				actions = append(actions, Present)
			case p.rec.Skills[dst] == hash(have) || p.o.Force:
				p.writes = append(p.writes, fileWrite{dst, f.data})
				p.rec.Skills[dst] = hash(f.data)
				actions = append(actions, Updated)
			default:
				actions = append(actions, Skipped)
			}
		}
		switch {
		case slices.Contains(actions, Skipped):
			p.res.add(item, Skipped, "%s differs from zoneline's and was not written by this install (or was edited since): `zoneline install --force` overwrites it", dir)
		case slices.Contains(actions, Updated):
			p.res.add(item, Updated, "%s", dir)
		case slices.Contains(actions, Added):
			p.res.add(item, Added, "%s", dir)
		default:
			p.res.add(item, Present, "%s", dir)
		}
	}
	return nil
}

// installConfig plans the default config when there is none.
func (p *plan) installConfig() error {
	o := p.o
	if o.Config == "" {
		return nil
	}
	if _, err := os.Stat(o.Config); errors.Is(err, fs.ErrNotExist) {
		p.writes = append(p.writes, fileWrite{o.Config, []byte(config.Template)})
		p.rec.Config = o.Config
		p.res.add("config", Added, "%s", o.Config)
	} else {
		p.res.add("config", Present, "%s", o.Config)
	}
	return nil
}

// applyInstall writes what the plan holds: the backup before the first change, the settings
// (checked unchanged since they were read), the skill files and the config, then the record.
func (p *plan) applyInstall() error {
	o, sf := p.o, p.sf
	if p.changed {
		if sf.exists {
			b := sf.path + BackupSuffix
			if _, err := os.Lstat(b); errors.Is(err, fs.ErrNotExist) {
				if err := writeAtomic(b, sf.data, sf.mode); err != nil {
					return err
				}
				p.res.Backup = b
			}
		}
		if err := commitSettings(sf, p.newData, o.beforeCommit); err != nil {
			return err
		}
	}
	for _, w := range p.writes {
		// The config's folder is created 0700 (it was made 0755 first, then asked for 0700, which
		// MkdirAll leaves on a folder that exists); the skills' folders are Claude Code's, 0755.
		mode, dirMode := fs.FileMode(skillMode), fs.FileMode(0o755)
		if w.path == o.Config {
			mode, dirMode = 0o600, 0o700
		}
		if err := os.MkdirAll(filepath.Dir(w.path), dirMode); err != nil {
			return fmt.Errorf("zoneline: %v", err)
		}
		if err := writeAtomic(w.path, w.data, mode); err != nil {
			return err
		}
	}
	rec := p.rec
	rec.Version, rec.Binary, rec.Settings, rec.Installed = recordFormat, o.Bin, o.Settings, o.Now().UTC().Truncate(time.Second)
	data, _ := json.MarshalIndent(rec, "", "  ")
	return writeAtomic(p.res.Record, append(data, '\n'), 0o600)
}

// entries says how many zoneline entries a hook event lost.
func entries(n int) string {
	if n == 1 {
		return "1 zoneline entry"
	}
	return fmt.Sprintf("%d zoneline entries", n)
}

// Uninstall takes out what Install added: our statusLine (putting back the one it replaced),
// our hooks, the keys it created, the skill files it wrote when they are unchanged, and the
// record. The config and state stay unless o.Purge. Like Install, it merges again when another
// program rewrites the settings meanwhile.
func Uninstall(o Options) (*Result, error) { return retryChanged(o, uninstall) }

func uninstall(o Options) (*Result, error) {
	p, err := newPlan(o)
	if err != nil {
		return nil, err
	}
	steps := []func(*plan) error{(*plan).uninstallSkills, (*plan).uninstallConfig}
	if p.sf.doc.Root != nil {
		steps = append([]func(*plan) error{(*plan).uninstallStatusLine, (*plan).uninstallHooks, (*plan).uninstallSettings}, steps...)
	}
	if err := p.run(steps...); err != nil {
		return nil, err
	}
	if o.DryRun {
		return p.res, nil
	}
	if err := p.applyUninstall(); err != nil {
		return nil, err
	}
	return p.res, nil
}

// createdByUs reports whether install created the settings key (with no record: assume so).
func (p *plan) createdByUs(key string) bool {
	return p.rec == nil || slices.Contains(p.rec.Created, key)
}

// uninstallStatusLine takes out our statusLine, putting back the one install replaced.
func (p *plan) uninstallStatusLine() error {
	root, res := p.sf.doc.Root, p.res
	switch cur := root.Get("statusLine"); {
	case cur == nil:
		res.add("statusLine", NotFound, "not set")
	case !IsOurs(cur.Get("command").Text(), SubStatusline):
		res.add("statusLine", Kept, "not zoneline's (%s)", describe(cur))
	case p.rec != nil && p.rec.ReplacedStatus != "":
		old, err := ParseValue([]byte(p.rec.ReplacedStatus))
		if err != nil {
			return fmt.Errorf("zoneline: %s: the saved statusLine: %v", res.Record, err)
		}
		root.Set("statusLine", old)
		res.add("statusLine", Restored, "%s", describe(old))
	case OwnFlags(cur.Get("command").Text()):
		res.add("statusLine", Kept, "zoneline with your own flags (%s)", describe(cur))
	case Wrapped(cur.Get("command").Text()) != "":
		// Ours wrapping theirs, written by hand (no record of what it replaced): theirs stays.
		w := Wrapped(cur.Get("command").Text())
		cur.Set("command", FromValue(w))
		res.add("statusLine", Restored, "%s (unwrapped)", w)
	default:
		res.add("statusLine", Removed, "%s", describe(cur))
		root.Delete("statusLine")
	}
	return nil
}

// uninstallHooks takes our entries out of every hook event, and the events and the hooks key
// install created when that empties them.
func (p *plan) uninstallHooks() error {
	root, res := p.sf.doc.Root, p.res
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != Object {
		return nil
	}
	removed := map[string]int{}
	for i := 0; i < len(hooks.Members); i++ {
		m := hooks.Members[i]
		if m.Val.Kind != Array {
			continue
		}
		n := removeOurs(m.Val, SubHook)
		if n == 0 {
			continue
		}
		removed[m.Key] += n
		if len(m.Val.Elems) == 0 && p.createdByUs("hooks."+m.Key) {
			hooks.Members = slices.Delete(hooks.Members, i, i+1)
			i--
		}
	}
	for _, h := range Hooks {
		if n := removed[h.Event]; n > 0 {
			res.add("hook "+h.Event, Removed, "%s", entries(n))
		} else {
			res.add("hook "+h.Event, NotFound, "no zoneline entry")
		}
	}
	for ev, n := range removed {
		if !slices.ContainsFunc(Hooks, func(h HookEntry) bool { return h.Event == ev }) {
			res.add("hook "+ev, Removed, "%s", entries(n))
		}
	}
	if len(hooks.Members) == 0 && len(removed) > 0 && p.createdByUs("hooks") {
		root.Delete("hooks")
	}
	return nil
}

// uninstallSettings works out the settings file's new bytes: nothing (removed) or the
// whitespace it held when install created its content, the backup's own bytes when the
// document is back to the backup's, else the edited document; and the diff.
func (p *plan) uninstallSettings() error {
	root, rec, sf := p.sf.doc.Root, p.rec, p.sf
	newData := p.sf.doc.Bytes()
	if len(root.Members) == 0 && rec != nil && (rec.SettingsCreated || rec.SettingsEmpty != nil) {
		if rec.SettingsEmpty != nil {
			newData = []byte(*rec.SettingsEmpty)
		} else {
			newData = nil // the file did not exist: remove it
		}
	}
	// Back to what the backup holds? Then write the backup's own bytes: install re-encoded
	// the containers it touched, and this puts their original layout back too.
	if newData != nil {
		if b, err := readLimited(sf.path+BackupSuffix, settingsMax); err == nil {
			if bd, err := Parse(p.o.Settings, b); err == nil && bd.Root != nil && bd.Root.Canonical() == root.Canonical() {
				newData = b
			}
		}
	}
	p.newData = newData
	p.changed = !bytes.Equal(newData, sf.data) || (newData == nil && rec != nil && rec.SettingsCreated)
	if p.changed {
		p.res.Diff = UnifiedDiff(diffName(p.o.Settings, true, "a"), diffName(p.o.Settings, newData != nil, "b"), sf.data, newData)
	}
	return nil
}

// skillState counts a skill folder's files by what uninstall does with them.
type skillState struct{ removed, kept, missing int }

// uninstallSkills plans the removal of the skill files unchanged since install (with no
// record: those identical to ours); an edited one stays and is reported.
func (p *plan) uninstallSkills() error {
	skillDirs := map[string]*skillState{}
	dirState := func(dir string) *skillState {
		if skillDirs[dir] == nil {
			skillDirs[dir] = &skillState{}
		}
		return skillDirs[dir]
	}
	if p.rec != nil {
		for path, sum := range p.rec.Skills {
			st := dirState(filepath.Dir(path))
			have, err := readLimited(path, settingsMax)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				st.missing++
			case err == nil && hash(have) == sum:
				p.removeFiles = append(p.removeFiles, path)
				st.removed++
			default:
				st.kept++
			}
		}
	} else if skills, err := p.o.listSkills(); err == nil {
		for _, sk := range skills { // no record: remove files identical to ours
			for _, f := range sk.files {
				path := filepath.Join(p.o.ClaudeDir, "skills", sk.name, filepath.FromSlash(f.rel))
				st := dirState(filepath.Dir(path))
				if have, err := readLimited(path, settingsMax); err == nil && bytes.Equal(have, f.data) {
					p.removeFiles = append(p.removeFiles, path)
					st.removed++
				} else if err == nil {
					st.kept++
				} else {
					st.missing++
				}
			}
		}
	}
	for d := range skillDirs {
		p.skillDirs = append(p.skillDirs, d)
	}
	slices.Sort(p.skillDirs)
	for _, d := range p.skillDirs {
		st := skillDirs[d]
		item := "skill /" + filepath.Base(d)
		switch {
		case st.kept > 0:
			p.res.add(item, Kept, "%s was edited since install: remove it yourself if you no longer want it", d)
		case st.removed > 0:
			p.res.add(item, Removed, "%s", d)
		default:
			p.res.add(item, NotFound, "%s", d)
		}
	}
	return nil
}

// uninstallConfig reports what becomes of the config and the state dir: removed with Purge,
// else kept.
func (p *plan) uninstallConfig() error {
	o, res := p.o, p.res
	if o.Purge {
		if o.Config != "" {
			if _, err := os.Stat(o.Config); err == nil {
				res.add("config", Removed, "%s", o.Config)
			} else {
				res.add("config", NotFound, "%s", o.Config)
			}
		}
		if o.StateDir != "" {
			res.add("state", Removed, "%s", o.StateDir)
		}
		return nil
	}
	if o.Config != "" {
		res.add("config", Kept, "%s (--purge removes it)", o.Config)
	}
	if o.StateDir != "" {
		res.add("state", Kept, "%s (--purge removes it)", o.StateDir)
	}
	return nil
}

// applyUninstall carries out an uninstall plan: the settings (checked unchanged since they
// were read), the skill files and their emptied folders, with Purge the config and the state,
// the backup when the file is back to it, and the record.
func (p *plan) applyUninstall() error {
	o, sf, res := p.o, p.sf, p.res
	if p.changed {
		if p.newData == nil {
			if err := sf.unchanged(); err != nil {
				return err
			}
			if err := os.Remove(sf.path); err != nil {
				return fmt.Errorf("zoneline: %v", err)
			}
		} else if err := commitSettings(sf, p.newData, o.beforeCommit); err != nil {
			return err
		}
	}
	for _, f := range p.removeFiles {
		os.Remove(f)
	}
	for _, d := range p.skillDirs {
		os.Remove(d) // only when empty
	}
	if len(p.skillDirs) > 0 {
		os.Remove(filepath.Join(o.ClaudeDir, "skills")) // only when empty
	}
	if o.Purge {
		if o.Config != "" {
			os.Remove(o.Config)
			os.Remove(filepath.Dir(o.Config)) // only when empty
		}
		if o.StateDir != "" {
			if left := purgeState(o.StateDir); len(left) > 0 {
				res.add("state", Kept, "%s also holds %s, which zoneline did not write", o.StateDir, strings.Join(left, ", "))
			}
		}
	}
	// The backup goes when the file is back to what it was; otherwise it stays and is named.
	b := sf.path + BackupSuffix
	if old, err := os.ReadFile(b); err == nil {
		if now, err := os.ReadFile(sf.path); (err == nil && bytes.Equal(old, now)) || errors.Is(err, fs.ErrNotExist) {
			os.Remove(b)
		} else {
			res.add("backup", Kept, "%s holds settings.json as it was before the first install", b)
		}
	}
	os.Remove(res.Record)
	return nil
}

// purgeState removes what zoneline keeps in the state dir and the dir when that empties it. It
// returns the names of entries it left.
func purgeState(dir string) []string {
	for _, name := range []string{state.SessionsDirName, state.SnapshotsDirName} {
		os.RemoveAll(filepath.Join(dir, name))
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), state.LogName) || state.IsTemp(e.Name()) {
			os.Remove(filepath.Join(dir, e.Name()))
			continue
		}
		left = append(left, e.Name())
	}
	if len(left) == 0 {
		os.Remove(dir)
	}
	return left
}

// PluginEnabled returns the id of an enabled zoneline plugin in settings ("zoneline@<marketplace>"),
// or "": its hooks/hooks.json already runs `zoneline hook`, so install does not add them twice.
func PluginEnabled(root *Node) string {
	ep := root.Get("enabledPlugins")
	if ep == nil || ep.Kind != Object {
		return ""
	}
	for _, m := range ep.Members {
		if strings.HasPrefix(m.Key, binaryName+"@") && m.Val.Kind == Bool && m.Val.Bool {
			return m.Key
		}
	}
	return ""
}

// findOurs returns the first hook entry in a hooks array that runs zoneline's sub.
func findOurs(arr *Node, sub string) *Node {
	for _, g := range arr.Elems {
		hs := g.Get("hooks")
		if hs == nil || hs.Kind != Array {
			continue
		}
		for _, h := range hs.Elems {
			if EntryIsOurs(h, sub) {
				return h
			}
		}
	}
	return nil
}

// removeOurs removes zoneline's entries from a hooks array, and each group it empties. It
// returns how many entries it removed.
func removeOurs(arr *Node, sub string) int {
	n := 0
	groups := arr.Elems[:0]
	for _, g := range arr.Elems {
		hs := g.Get("hooks")
		if hs == nil || hs.Kind != Array {
			groups = append(groups, g)
			continue
		}
		kept := hs.Elems[:0:0]
		for _, h := range hs.Elems {
			if EntryIsOurs(h, sub) {
				n++
				continue
			}
			kept = append(kept, h)
		}
		if len(kept) == len(hs.Elems) {
			groups = append(groups, g)
			continue
		}
		if len(kept) > 0 {
			hs.Elems = kept
			groups = append(groups, g)
		}
	}
	arr.Elems = groups
	return n
}

// describe names a statusLine value for the report.
func describe(n *Node) string {
	if c := n.Get("command").Text(); c != "" {
		return c
	}
	s := n.Canonical()
	if len(s) > 80 {
		s = s[:79] + "…"
	}
	return s
}

func diffName(p string, exists bool, side string) string {
	if !exists {
		return "/dev/null"
	}
	return side + "/" + filepath.ToSlash(filepath.Base(p))
}

type skillFile struct {
	rel  string
	data []byte
}

type skill struct {
	name  string
	files []skillFile
}

// listSkills returns the skills to install, each file as it is written: naming o.Bin (see
// skills.ForBinary), so that the installed skills run this binary whatever PATH says.
func (o Options) listSkills() ([]skill, error) {
	sks, err := listSkills(o.Skills)
	if err != nil || o.Bin == "" {
		return sks, err
	}
	word := skills.Word(o.Bin, o.GOOS == "windows")
	for i := range sks {
		for j := range sks[i].files {
			sks[i].files[j].data = skills.ForBinary(sks[i].files[j].data, word)
		}
	}
	return sks, nil
}

// listSkills returns every top-level dir of fsys that holds SKILL.md, with all its files.
func listSkills(fsys fs.FS) ([]skill, error) {
	if fsys == nil {
		return nil, nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("zoneline: reading the embedded skills: %v", err)
	}
	var out []skill
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), skillMarker)); err != nil {
			continue
		}
		sk := skill{name: e.Name()}
		err := fs.WalkDir(fsys, e.Name(), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			sk.files = append(sk.files, skillFile{rel: strings.TrimPrefix(p, e.Name()+"/"), data: data})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("zoneline: reading the embedded skill %s: %v", e.Name(), err)
		}
		out = append(out, sk)
	}
	return out, nil
}

func hash(b []byte) string {
	// Only "did the user edit it since?", not security: FNV keeps crypto (and its package
	// inits) out of the one zoneline binary that also runs the statusline.
	h := fnv.New128a()
	h.Write(b)
	return "fnv128a:" + hex.EncodeToString(h.Sum(nil))
}

func readLimited(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", p, limit)
	}
	return os.ReadFile(p)
}

// writeAtomic writes data to p through a temp file in the same dir, fsync and rename, with
// mode perm (state.WriteFileMode). The dir must exist or is created 0755 (settings dirs are not
// zoneline's to lock).
func writeAtomic(p string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("zoneline: %v", err)
	}
	return state.WriteFileMode(p, data, perm)
}

// commitSettings writes data over the settings file sf was read from: a temp file in the same
// folder, fsync, then, right before the rename, a check that the file is still the one read
// (the same file, size, time and bytes; or still absent). When another program rewrote it
// meanwhile, the temp file is removed and the error wraps ErrChanged: the caller reads and
// merges again. (The check and the rename are two steps; what remains is the window between
// them, microseconds, against the whole read-merge-write before.)
func commitSettings(sf *settingsFile, data []byte, beforeCommit func()) error {
	dir := filepath.Dir(sf.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("zoneline: %v", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(sf.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("zoneline: writing %s: %v", sf.path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(sf.mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("zoneline: writing %s: %v", sf.path, err)
	}
	if beforeCommit != nil {
		beforeCommit()
	}
	if err := sf.unchanged(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, sf.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("zoneline: writing %s: %v", sf.path, err)
	}
	return nil
}

// unchanged reports (as an error wrapping ErrChanged) whether the settings file is no longer
// what sf read: created, removed or replaced since, or different in size, time or bytes.
func (sf *settingsFile) unchanged() error {
	changed := fmt.Errorf("zoneline: %s %w", sf.path, ErrChanged)
	if sf.exists {
		// the bytes first, the identity last: the stat is the cheap step nearest the rename
		if now, err := readLimited(sf.path, settingsMax); err != nil || !bytes.Equal(now, sf.data) {
			return changed
		}
	}
	fi, err := os.Stat(sf.path)
	switch {
	case !sf.exists && errors.Is(err, fs.ErrNotExist):
		return nil
	case !sf.exists, errors.Is(err, fs.ErrNotExist):
		return changed
	case err != nil:
		return fmt.Errorf("zoneline: %v", err)
	case !os.SameFile(fi, sf.info), fi.Size() != sf.info.Size(), !fi.ModTime().Equal(sf.info.ModTime()):
		return changed
	}
	return nil
}

// unwrapPath returns the reason of a *fs.PathError, without the path it repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
