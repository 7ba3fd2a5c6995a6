package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/zoneline/zoneline/internal/rawfs"
)

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

// within refuses a settings file whose real path (symlinks resolved, its folder's too) is
// outside the folder root ("" for no bound): a repository's .claude/settings.json linked to the
// user's own settings would let the repository's install record decide what uninstall
// -project writes there (the statusLine it puts back).
func within(settings, root string) error {
	if root == "" {
		return nil
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("zoneline: %v", err)
	}
	real := settings
	if d, err := filepath.EvalSymlinks(filepath.Dir(settings)); err == nil {
		real = filepath.Join(d, filepath.Base(settings))
	}
	if rel, err := filepath.Rel(r, real); err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("zoneline: %s is outside the repository %s (a symlink?): with -project zoneline edits only the repository's own settings; nothing was changed", real, root)
	}
	return nil
}

func kindName(k Kind) string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

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
	if err := within(p.sf.path, o.Within); err != nil {
		return nil, err
	}
	if err := within(filepath.Join(o.ClaudeDir, "skills", skillMarker), o.Within); o.ClaudeDir != "" && err != nil {
		return nil, err // the skills folder, which install writes and uninstall removes from
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

// readLimited reads the regular file at p, at most limit bytes, through one open: a FIFO, a
// device or a folder there (a repository's .claude may hold anything) is an error at once,
// never a hang or an endless read.
func readLimited(p string, limit int64) ([]byte, error) {
	return rawfs.ReadFile(p, limit, false)
}

// unwrapPath returns the reason of a *fs.PathError, without the path it repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
