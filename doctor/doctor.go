// Package doctor checks that zoneline works: the binary, its registration in Claude Code's
// settings, the config, the state dir, what Claude Code last sent, notifications, the
// auto-compact point and the log. Each check is a function returning Results; Render draws
// them on one screen. Nothing here decides exit codes or reads flags: the caller does.
package doctor

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/install"
	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/skills"
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/zones"
)

// Status is a check's verdict.
type Status int

// Statuses, from fine to broken.
const (
	OK   Status = iota
	Info        // nothing to fix, worth knowing
	Warn        // works, but something is off
	Fail        // broken: doctor exits 1
)

// Tuning of what doctor reads.
const (
	LogLines        = 5              // last log errors shown
	logScanLines    = 200            // last log lines read for them
	logTailBytes    = 64 << 10       // bytes read from the end of the log
	RecentLog       = 24 * time.Hour // log lines younger than this make the log check a warning
	sessionsScanned = 200            // session dirs read at most, newest first
	settingsLimit   = 16 << 20
)

// Result is one line of the doctor's screen.
type Result struct {
	Name   string
	Status Status
	Detail string
	Fix    string   // the next step, when there is one
	More   []string // extra lines (log lines)
}

// Failed reports whether any result is Fail.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == Fail {
			return true
		}
	}
	return false
}

// Binary checks the running binary and the zoneline found on PATH.
func Binary(self, version, onPath string, lookErr error) Result {
	r := Result{Name: "binary", Detail: fmt.Sprintf("%s (%s)", self, version)}
	switch {
	case lookErr != nil:
		r.Status, r.Detail = Warn, r.Detail+", not on PATH"
		r.Fix = "add " + filepath.Dir(self) + " to PATH (Claude Code runs the absolute path, so this only matters to you)"
	case !sameFile(onPath, self):
		r.Status = Warn
		r.Detail += "; but the zoneline on PATH is " + onPath
		r.Fix = "remove the other copy or put " + filepath.Dir(self) + " first in PATH"
	default:
		r.Detail += ", on PATH"
	}
	return r
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// Settings checks zoneline's entries in Claude Code's settings file: the statusLine and each
// hook, present and running an existing zoneline (self, ideally). Hooks provided by an enabled
// zoneline plugin count as present.
func Settings(path, self string) []Result {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []Result{{Name: "settings", Status: Fail, Detail: path + " does not exist", Fix: "run: zoneline install (installed with -project? run zoneline doctor -project in that repository)"}}
	}
	if err != nil {
		return []Result{{Name: "settings", Status: Fail, Detail: err.Error()}}
	}
	doc, err := install.Parse(path, data)
	if err != nil {
		return []Result{{Name: "settings", Status: Fail, Detail: err.Error(), Fix: "fix the file; Claude Code ignores settings it cannot parse"}}
	}
	root := doc.Root
	if root == nil || root.Kind != install.Object {
		return []Result{{Name: "settings", Status: Fail, Detail: path + " holds no settings object", Fix: "run: zoneline install"}}
	}
	var out []Result
	if v := root.Get("disableAllHooks"); v != nil && v.Kind == install.Bool && v.Bool {
		out = append(out, Result{Name: "settings", Status: Fail, Detail: "disableAllHooks is true in " + path + ": no hook and no status line runs", Fix: "remove disableAllHooks"})
	}
	sl := root.Get("statusLine")
	slRes := Result{Name: "statusLine"}
	switch cmd := sl.Get("command").Text(); {
	case sl == nil:
		slRes.Status, slRes.Detail, slRes.Fix = Fail, "not set in "+path, "run: zoneline install (or zoneline doctor -project for a -project install)"
	case !install.IsOurs(cmd, install.SubStatusline):
		// Another tool's status line: zoneline's warnings can still run from the Stop hook
		// (Warnings, below, says whether they do).
		slRes.Status, slRes.Detail, slRes.Fix = Warn, "another status line is set: "+cmd, "to show zoneline's zone in it: zoneline install -wrap (uninstall puts it back)"
	default:
		slRes = entryResult("statusLine", cmd, self)
		if w := install.Wrapped(cmd); w != "" {
			slRes.Detail = "zoneline wrapping " + w + " (" + cmd + ")"
		}
	}
	out = append(out, slRes)

	plugin := install.PluginEnabled(root)
	hooks := root.Get("hooks")
	for _, h := range install.Hooks {
		name := "hook " + h.Event
		entry := install.FindOurs(hooks.Get(h.Event), install.SubHook)
		switch {
		case entry != nil:
			out = append(out, entryResult(name, install.EntryCommand(entry), self))
		case plugin != "":
			// The plugin's hooks run hooks/run, which looks where install.PluginBinary does.
			if bin := install.PluginBinary(os.Getenv); bin == "" {
				out = append(out, Result{Name: name, Status: Fail, Detail: "from the plugin " + plugin + ", but zoneline is neither in an absolute PATH entry nor in ~/" + strings.Join(install.PluginHomeBins, " or ~/"),
					Fix: "install zoneline with one of the commands above, then run zoneline doctor", More: hintLines()})
			} else {
				out = append(out, Result{Name: name, Status: OK, Detail: "from the plugin " + plugin + ", running " + bin})
			}
		default:
			out = append(out, Result{Name: name, Status: Fail, Detail: "not registered in " + path, Fix: "run: zoneline install (or zoneline doctor -project for a -project install)"})
		}
	}
	warnings := Warnings(out) // before the downgrade below: a missing Stop hook is no route
	if zonelineDraws(slRes) {
		for i := range out {
			if out[i].Name == "hook Stop" && out[i].Status == Fail {
				// zoneline's status line runs the warnings already: the Stop hook only matters
				// when another status line draws, or none.
				out[i].Status = Warn
				out[i].Detail += "; warnings still run from zoneline's status line"
			}
		}
	}
	return append(out, warnings)
}

// entryResult checks that an entry's command runs an existing zoneline, ideally self.
func entryResult(name, cmd, self string) Result {
	bin := install.Program(cmd)
	r := Result{Name: name, Detail: cmd}
	switch {
	case !filepath.IsAbs(bin) && !strings.Contains(bin, "/"):
		r.Status = OK // found through PATH, as the plugin's hooks are
		if _, err := exec.LookPath(bin); err != nil {
			r.Status, r.Fix = Fail, bin+" is not on PATH: Claude Code will not find it"
		}
	case !isExecutable(bin):
		r.Status, r.Fix = Fail, bin+" does not exist: run zoneline install again from the binary you use"
	case !sameFile(bin, self):
		r.Status, r.Fix = Warn, "it runs another zoneline than this one ("+self+"): run zoneline install from the binary you want"
	default:
		r.Status = OK
	}
	return r
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0)
}

// SkillNames are the skills zoneline installs, whose commands Skills checks.
var SkillNames = []string{"compact-prep", "postcompact"}

// Skills checks what each installed skill (<claudeDir>/skills/<name>/SKILL.md) will actually
// run: the program of its allowed-tools pattern Bash(<program> checkpoint:*), which must exist,
// be executable, be named zoneline and be the same file as self, the zoneline doctor knows. A
// skill file may come from a repository (doctor -project): the program it names is compared,
// never run. A skill that runs the bare name depends on the PATH Claude Code gets. plugin names
// an enabled zoneline plugin, whose skills run zoneline from PATH.
func Skills(claudeDir, self, plugin string) []Result {
	out := make([]Result, len(SkillNames))
	for i, name := range SkillNames {
		out[i] = skill(name, filepath.Join(claudeDir, "skills", name, "SKILL.md"), self, plugin)
	}
	return out
}

// skill checks one installed skill's SKILL.md at path (see Skills).
func skill(name, path, self, plugin string) Result {
	r := Result{Name: "skill /" + name}
	data, err := readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && plugin != "":
		r.Detail = "from the plugin " + plugin + ", runs zoneline from PATH"
		if _, err := exec.LookPath("zoneline"); err != nil {
			r.Status, r.Fix = Fail, "zoneline is not on PATH, so the skill's commands fail: put it on PATH, or run zoneline install (it writes skills that name the binary)"
		}
		return r
	case errors.Is(err, fs.ErrNotExist):
		r.Status, r.Detail, r.Fix = Warn, path+" is not installed", "run: zoneline install"
		return r
	case err != nil:
		r.Status, r.Detail = Fail, safetext.Field(err.Error(), 0)
		return r
	}
	prog, ok := skills.Program(data)
	if !ok {
		r.Status, r.Detail, r.Fix = Warn, path+" names no zoneline checkpoint command (edited?)", "run: zoneline install --force"
		return r
	}
	r.Detail = "runs " + prog
	switch {
	case !filepath.IsAbs(prog):
		r.Status = Warn
		r.Fix = "it runs " + prog + " from the PATH Claude Code gets, and fails where that lacks it: run zoneline install again (it writes the binary's path into the skills)"
		if _, err := exec.LookPath(prog); err != nil {
			r.Status, r.Fix = Fail, prog+" is not on PATH, so the skill's commands fail: run zoneline install again (it writes the binary's path into the skills)"
		}
	case !isExecutable(prog):
		r.Status, r.Fix = Fail, prog+" does not exist or is not executable, so the skill's commands fail: run zoneline install again from the binary you use"
	case !install.IsOurs(install.CommandLine(prog, "x", runtime.GOOS), "x"):
		r.Status, r.Fix = Fail, prog+" is not named zoneline: run zoneline install --force"
	case !sameFile(prog, self):
		r.Status, r.Fix = Warn, "it runs "+prog+", not this zoneline ("+self+"); doctor runs no program a skill names, so it cannot vouch for that one: run zoneline install from the binary you want"
	}
	return r
}

// Plugin returns the enabled zoneline plugin named in the settings file at path, or "".
func Plugin(path string) string {
	data, err := readFile(path)
	if err != nil {
		return ""
	}
	doc, err := install.Parse(path, data)
	if err != nil || doc.Root == nil || doc.Root.Kind != install.Object {
		return ""
	}
	return install.PluginEnabled(doc.Root)
}

// Config checks the config file: absent (defaults), valid, or broken with its position.
func Config(path string) Result {
	r := Result{Name: "config", Detail: path}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		r.Status, r.Detail = Info, path+" does not exist: the defaults are in use"
		r.Fix = "zoneline config init writes a commented one"
		return r
	}
	if _, err := config.Load(path); err != nil {
		detail := safetext.Field(err.Error(), 0)
		var es config.Errors
		if errors.As(err, &es) {
			detail = es.Summary()
		}
		r.Status, r.Detail = Fail, detail
		r.Fix = "zoneline config check lists every problem; the other keys are in force, and the status line shows ⚠ until it is fixed"
		return r
	}
	r.Detail += " is valid"
	return r
}

// StateDir checks that the state dir can be created and written.
func StateDir(dir string) Result {
	r := Result{Name: "state dir", Detail: dir}
	if err := state.MkdirPrivate(dir); err != nil {
		r.Status, r.Detail, r.Fix = Fail, safetext.Field(err.Error(), 0), "make "+dir+" a writable directory or set ZONELINE_STATE_DIR"
		return r
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		r.Status, r.Detail, r.Fix = Fail, safetext.Field(err.Error(), 0), "make "+dir+" writable or set ZONELINE_STATE_DIR"
		return r
	}
	f.Close()
	os.Remove(f.Name())
	r.Detail += " is writable"
	return r
}

// LastSession returns the most recently updated session the statusline recorded, or nil.
func LastSession(d state.Dir) *state.Session {
	if !d.Usable() {
		return nil
	}
	ents, err := os.ReadDir(filepath.Join(d.Root, state.SessionsDirName))
	if err != nil {
		return nil
	}
	type cand struct {
		id string
		t  time.Time
	}
	var cs []cand
	for _, e := range ents {
		if !e.IsDir() || !state.ValidSessionID(e.Name()) {
			continue
		}
		fi, err := os.Stat(filepath.Join(d.Root, state.SessionsDirName, e.Name(), state.SessionFileName))
		if err != nil {
			continue
		}
		cs = append(cs, cand{e.Name(), fi.ModTime()})
	}
	slices.SortFunc(cs, func(a, b cand) int { return b.t.Compare(a.t) })
	var best *state.Session
	for _, c := range cs[:min(len(cs), sessionsScanned)] {
		if s, err := d.LoadSession(c.id); err == nil && (best == nil || s.Updated.After(best.Updated)) {
			best = s
		}
	}
	return best
}

// Payloads reports the Claude Code version and the render time the statusline last recorded.
func Payloads(s *state.Session, now time.Time) []Result {
	if s == nil {
		return []Result{{Name: "claude code", Status: Warn, Detail: "no status line render recorded yet", Fix: "start Claude Code; if this stays, the statusLine is not running (check disableAllHooks and the workspace trust)"}}
	}
	ago := sessions.Ago(now.Sub(s.Updated))
	v := Result{Name: "claude code", Detail: fmt.Sprintf("version %s, last seen %s ago (session %s, %s)", cmp.Or(s.Version, "unknown"), ago, s.ID[:8], cmp.Or(s.Model, "unknown"))}
	if s.Version == "" {
		v.Status = Warn
	}
	r := Result{Name: "last render", Detail: fmt.Sprintf("%.1f ms", float64(s.RenderMicros)/1000)}
	if s.RenderMicros > 50_000 {
		r.Status, r.Fix = Warn, "slow: check the log below, and the transcript size"
	}
	return []Result{v, r}
}

// Notify describes the notification path: the companion binary and the session bus. sent is
// the outcome of a test notification, nil when none was asked for (tested false).
func Notify(enabled bool, companion string, findErr error, bus bool, tested bool, sent error) Result {
	r := Result{Name: "notifications"}
	switch {
	case !enabled:
		r.Status, r.Detail = Info, "off in the config ([notify] enabled = false)"
		return r
	case findErr != nil:
		r.Status, r.Detail, r.Fix = Warn, safetext.Field(findErr.Error(), 0), "put zoneline-notify beside zoneline, as the line above says"
		return r
	case !bus:
		r.Status, r.Detail = Warn, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus): no desktop notifications, the status line and the nudge still warn"
		return r
	}
	r.Detail = companion + ", session bus present"
	if tested {
		if sent != nil {
			r.Status, r.Detail, r.Fix = Fail, r.Detail+"; the test failed: "+safetext.Field(sent.Error(), 0), "is a notification server running?"
		} else {
			r.Detail += "; a test notification was sent"
		}
	} else {
		r.Fix = "zoneline doctor -notify sends a test"
	}
	return r
}

// AutoCompact describes the auto-compact point in force for a window, and what decided it.
func AutoCompact(c zones.Compact, window int64) Result {
	r := Result{Name: "auto-compact", Status: Info}
	if !c.Enabled {
		r.Detail = "off (" + c.Source + ")"
		return r
	}
	r.Detail = fmt.Sprintf("at %s of a %s window (%s)", notify.Tokens(c.Point), notify.Tokens(window), c.Source)
	if c.Estimate {
		r.Detail += "; computed as Claude Code does, a server setting may move it"
	}
	return r
}

// Log returns the last errors in zoneline's log: a warning when the newest is recent. Ordinary
// entries (marked state.InfoMark: a tier crossed, a GC, a compact-flow step) are not errors and
// are neither shown nor warned about.
func Log(path string, now time.Time) Result {
	r := Result{Name: "log", Detail: path}
	lines, err := tail(path, logScanLines)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(lines) == 0) {
		r.Detail = "no errors logged (" + path + ")"
		return r
	}
	if err != nil {
		r.Status, r.Detail = Warn, safetext.Field(err.Error(), 0)
		return r
	}
	var errs []string
	notes := 0
	for _, l := range lines {
		if state.IsInfo(l) {
			notes++
		} else {
			errs = append(errs, l)
		}
	}
	if len(errs) == 0 {
		r.Detail = fmt.Sprintf("no errors logged (%s: %d ordinary entries)", path, notes)
		return r
	}
	r.More = errs[max(0, len(errs)-LogLines):]
	last := errs[len(errs)-1]
	r.Detail = path + ": errors logged"
	if ts, _, ok := strings.Cut(last, " "); ok {
		if t, err := time.Parse(time.RFC3339, ts); err == nil {
			r.Detail = fmt.Sprintf("%s: last error %s ago", path, sessions.Ago(now.Sub(t)))
			if now.Sub(t) < RecentLog {
				r.Status = Warn
			}
		}
	}
	return r
}

// tail returns the last n lines of the regular file at path, reading at most logTailBytes
// through rawfs (a FIFO planted there is refused, never waited on).
func tail(path string, n int) ([]string, error) {
	f, err := rawfs.Open(path, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	off := max(f.Size()-logTailBytes, 0)
	buf := make([]byte, f.Size()-off)
	k, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	text := string(buf[:k])
	if off > 0 {
		_, text, _ = strings.Cut(text, "\n") // a partial line
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines[max(len(lines)-n, 0):], nil
}

// Render draws the results, one per line with its mark, the fix beneath, then a verdict. Every
// text is made one safe line (safetext.Line) here, where it meets the terminal: details carry
// outside strings (the Claude Code version and model a payload named, settings commands, log
// lines, config errors quoting the file).
func Render(w io.Writer, rs []Result) {
	marks := map[Status]string{OK: "✓", Info: "·", Warn: "!", Fail: "✗"}
	width := 0
	for _, r := range rs {
		width = max(width, len(r.Name))
	}
	fails, warns := 0, 0
	for _, r := range rs {
		switch r.Status {
		case Fail:
			fails++
		case Warn:
			warns++
		}
		fmt.Fprintf(w, "%s %-*s  %s\n", marks[r.Status], width, safetext.Line(r.Name), safetext.Line(r.Detail))
		pad := strings.Repeat(" ", width+4)
		for _, m := range r.More {
			fmt.Fprintf(w, "%s%s\n", pad, safetext.Line(m))
		}
		if r.Fix != "" && r.Status != OK {
			fmt.Fprintf(w, "%s→ %s\n", pad, safetext.Line(r.Fix))
		}
	}
	switch {
	case fails > 0:
		fmt.Fprintf(w, "\n%d broken, %d warning(s): fix the ✗ lines above.\n", fails, warns)
	case warns > 0:
		fmt.Fprintf(w, "\nworking, %d warning(s).\n", warns)
	default:
		fmt.Fprintln(w, "\nall good.")
	}
}

// readFile reads a file doctor checks (settings.json, a skill), which a repository may have put
// there (doctor -project): only a regular file, at most settingsLimit bytes, through one open,
// so a FIFO or a device is an error at once, never a hang or an endless read.
func readFile(path string) ([]byte, error) { return rawfs.ReadFile(path, settingsLimit, false) }

// hintLines returns install.BinaryHint one route a line.
func hintLines() []string {
	lines := strings.Split(install.BinaryHint, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return lines
}
