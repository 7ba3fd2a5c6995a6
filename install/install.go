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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/state"
)

// Names of the files install keeps beside settings.json.
const (
	RecordName   = "zoneline-install.json" // what install did, for uninstall
	BackupSuffix = ".zoneline-backup"      // settings.json.zoneline-backup: the file before the first change
	recordLimit  = 1 << 20                 // largest install record read
	settingsMax  = 16 << 20                // largest settings file edited
	HookTimeout  = 10                      // seconds Claude Code gives each zoneline hook
	recordFormat = 2                       // the install record's version (2: Dirs lists the folders install created)
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
	Added    = "added"
	Present  = "already present"
	Skipped  = "skipped"
	Updated  = "updated"
	Replaced = "replaced"
	Removed  = "removed"
	Restored = "restored"
	NotFound = "not present"
	Kept     = "kept"
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
	Within    string // -project: the repository; a settings file that resolves outside it is refused
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

// set replaces the report's line for item (added when there is none).
func (r *Result) set(item, action, format string, args ...any) {
	for i := range r.Changes {
		if r.Changes[i].Item == item {
			r.Changes[i] = Change{Item: item, Action: action, Detail: fmt.Sprintf(format, args...)}
			return
		}
	}
	r.add(item, action, format, args...)
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
	Dirs            []string          `json:"dirs,omitempty"`   // folders install created: uninstall removes only these, when empty
}

// Install merges zoneline into o.Settings, installs the skills and writes the config. With
// o.DryRun it changes nothing and returns the diff it would apply. A settings file it cannot
// keep whole (invalid JSON, comments) is a *ParseError and nothing is changed. A settings file
// rewritten by another program while Install works is read and merged again (commitAttempts
// times, then ErrChanged and nothing changed): the other program's edit is never lost.
func Install(o Options) (*Result, error) { return retryChanged(o, install) }

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
	cur := root.Get("statusLine")
	cmd := cur.Get("command").Text()
	ours := IsOurs(cmd, SubStatusline)
	switch {
	case cur == nil:
		root.Set("statusLine", want)
		p.created("statusLine")
		res.add("statusLine", Added, "%s", want.Get("command").Str)
	case ours && OwnFlags(cmd):
		res.add("statusLine", Present, "%s (your own flags, kept)", cmd)
	case ours && (Wrapped(cmd) != "" || cmd == want.Get("command").Str): // as ours, or ours wrapping theirs
		res.add("statusLine", Present, "%s", cmd)
	case ours:
		cur.Set("command", want.Get("command"))
		res.add("statusLine", Updated, "was %s", cmd)
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
		if plugin != "" && FindOurs(hooks.Get(h.Event), SubHook) == nil {
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
		if e := FindOurs(arr, SubHook); e != nil {
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

// FindOurs returns the first hook entry in a hooks array that runs zoneline's sub (none in a nil
// array or a value of another kind).
func FindOurs(arr *Node, sub string) *Node {
	if arr == nil || arr.Kind != Array {
		return nil
	}
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
