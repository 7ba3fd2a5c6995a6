// Package state owns zoneline's state directory: per-session folders named by a validated
// session id, private permissions (dirs 0700, files 0600, whatever the umask), atomic writes
// (temp file, fsync, rename) that never follow a planted symlink, and the bounded log.
package state

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zoneline/zoneline/internal/rawfs"
)

// Dir is a state directory. A Dir whose Root is not an absolute path (the environment gave
// none: paths.Resolve) keeps nothing: its session paths are refused, its log and GC do nothing.
type Dir struct{ Root string }

// Usable reports whether d has an absolute root, so that nothing below it can land in the
// folder a process happens to run in (a project, under Claude Code).
func (d Dir) Usable() bool { return filepath.IsAbs(d.Root) }

// ErrNoStateDir reports a Dir with no absolute root.
var ErrNoStateDir = errors.New("zoneline: no state dir: set HOME (or XDG_STATE_HOME, or ZONELINE_STATE_DIR) to an absolute path")

// ValidSessionID reports whether id has the shape of a Claude Code session id: a UUID
// (8-4-4-4-12 hexadecimal digits). Only such an id ever becomes a path.
func ValidSessionID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// The modes of everything zoneline keeps in the state dir, whatever the umask: a looser mode
// found on a folder or file a command touches is set back to these.
const (
	DirPerm  fs.FileMode = 0o700
	FilePerm fs.FileMode = 0o600
)

// ErrBadSession reports a session id that is not a UUID.
var ErrBadSession = errors.New("zoneline: session id is not a UUID")

// ErrPlanted reports a symlink or other non-directory where the state dir keeps a folder.
var ErrPlanted = errors.New("zoneline: a symlink or file sits where the state dir keeps a folder; remove it")

// Session returns the session's folder, <root>/sessions/<id>, without creating it. It refuses
// an id that is not a UUID, and a sessions/ or sessions/<id> that exists but is not a real
// directory (a planted symlink), so that no write through the returned path can leave the
// state dir: MkdirAll and open follow symlinked intermediate folders. The root, sessions/ and
// the session's folder are made 0700 when their mode says otherwise (the lstats it makes anyway
// tell; a chmod only when one is wrong).
func (d Dir) Session(id string) (string, error) {
	if !ValidSessionID(id) {
		return "", ErrBadSession
	}
	if !d.Usable() {
		return "", ErrNoStateDir
	}
	sessions := filepath.Join(d.Root, SessionsDirName)
	dir := filepath.Join(sessions, strings.ToLower(id))
	if v := checked.Load(); v != nil && v.dir == dir && time.Since(v.at) < checkFor {
		return dir, nil
	}
	if exists, isDir, perm := rawfs.Kind(d.Root); exists && isDir && perm != DirPerm {
		rawfs.Chmod(d.Root, DirPerm) // (a root that is a symlink is the user's choice: left alone)
	}
	isDir := false
	for _, p := range [...]string{sessions, dir} {
		exists, d, perm := rawfs.Kind(p)
		if exists && !d {
			return "", fmt.Errorf("%w: %s", ErrPlanted, p)
		}
		if exists && perm != DirPerm {
			rawfs.Chmod(p, DirPerm)
		}
		isDir = exists && d
	}
	if isDir {
		checked.Store(&checkedDir{dir, time.Now()})
	}
	return dir, nil
}

// checked is the session folder Session last found to be a real directory, and when: within
// checkFor the next calls skip the two lstats (a render makes five). Long-running commands
// (watch, compact-flow) check again after it. A symlink planted in that second is the same race
// as one planted between any check and its use.
var checked atomic.Pointer[checkedDir]

type checkedDir struct {
	dir string
	at  time.Time
}

// checkFor is how long a session folder's check holds.
const checkFor = time.Second

// SessionFile returns the path of a file in the session's folder.
func (d Dir) SessionFile(id, name string) (string, error) {
	dir, err := d.Session(id)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// MkdirPrivate creates dir and its missing parents with mode 0700, and makes dir itself 0700
// whatever the umask. It refuses a dir that is a symlink.
func MkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("zoneline: creating %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("zoneline: %s is not a directory (a symlink?)", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// mkdirIfMissing creates dir privately (MkdirPrivate) when it does not exist, and leaves an
// existing real folder's mode alone: WriteFile also writes user-chosen paths (a config file in a
// dotfiles folder) whose folder is not zoneline's to lock down.
func mkdirIfMissing(dir string) error {
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
		return nil
	}
	return MkdirPrivate(dir) // creates it, or refuses a symlink or a file

}

// TightenConfig makes the config file at path 0600 and, when its folder is zoneline's own
// (named "zoneline", as $XDG_CONFIG_HOME/zoneline is), that folder 0700: the modes zoneline
// creates them with, set back on a file or folder made looser (a 0755 folder, a 0644 file
// an editor or a copy left). A missing file is no error; a symlink is left alone (not followed).
// A folder of another name ($ZONELINE_CONFIG in a dotfiles repository) keeps its mode.
func TightenConfig(path string) error {
	if dir := filepath.Dir(path); filepath.Base(dir) == "zoneline" {
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(dir, 0o700); err != nil {
				return fmt.Errorf("zoneline: making %s private: %w", dir, err)
			}
		}
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("zoneline: making %s private: %w", path, err)
	}
	return nil
}

// WriteFile writes data to path atomically: a private temp file in the same folder, fsync,
// rename. The previous version stays whole until the rename; a planted symlink at path is
// replaced, never followed. The folder is created 0700 when missing.
func WriteFile(path string, data []byte) error { return writeFile(path, data, 0o600, true, true) }

// WriteFileMode is WriteFile with the file's mode, for files that are not zoneline's own (a
// user's settings.json keeps its mode).
func WriteFileMode(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, true, true)
}

// WritePublic writes a file a person asked for (an SVG picture) atomically, as WriteFile does,
// readable by others as a file they made would be (0644), into a folder that must exist: the
// folder is neither created nor changed.
func WritePublic(path string, data []byte) error { return writeFile(path, data, 0o644, true, false) }

// Replace is WriteFile without the fsync, for the small, re-derivable files written on the hot
// path (the session registry, the last-prompt stamp): a killed process still never leaves a torn
// or empty file (temp + rename), but a machine crash may lose the newest version. It costs a few
// syscalls where an fsync costs milliseconds.
func Replace(path string, data []byte) error { return writeFile(path, data, 0o600, false, true) }

// writeFile is every atomic write: a temp file with mode perm in path's folder (created when
// mkdir is set and it is missing), fsynced when sync is set, renamed over path.
func writeFile(path string, data []byte, perm os.FileMode, sync, mkdir bool) error {
	dir := filepath.Dir(path)
	if mkdir {
		if err := mkdirIfMissing(dir); err != nil {
			return err
		}
	}
	tmp, err := rawfs.WriteTemp(dir, TempPrefix(filepath.Base(path)), data, perm, sync)
	if err != nil {
		return fmt.Errorf("zoneline: writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("zoneline: writing %s: %w", path, err)
	}
	return nil
}

// CreateExclusive creates path with data only if it does not exist yet, atomically: the data
// is written to a temp file, fsynced and hard-linked into place, so a reader never sees a
// partial file and, of many racing callers, exactly one gets created == true.
func CreateExclusive(path string, data []byte) (created bool, err error) {
	return createExclusive(path, data, true)
}

// Claim is CreateExclusive without the fsync, for exclusivity tokens on the hot path (warning
// markers, epochs, deliveries): a killed process never leaves a partial file and exactly one
// racer wins, but a machine crash may lose the newest token (a lost marker fires again). An
// fsync per file cost a crossing render 0.3–1.5 ms on ext4, measured here.
func Claim(path string, data []byte) (created bool, err error) {
	return createExclusive(path, data, false)
}

func createExclusive(path string, data []byte, sync bool) (created bool, err error) {
	dir := filepath.Dir(path)
	if err := MkdirPrivate(dir); err != nil {
		return false, err
	}
	tmp, err := rawfs.WriteTemp(dir, TempPrefix(filepath.Base(path)), data, 0o600, sync)
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if os.IsExist(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// ReadFile reads a small file, refusing symlinks, non-regular files and files larger than
// limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	b, err := rawfs.ReadFile(path, limit, true)
	return readErr(path, limit, b, err)
}

// ReadPrivate is ReadFile for a file of the state dir: a file found with another mode than
// FilePerm is set to it through the descriptor just opened (no extra system call otherwise).
func ReadPrivate(path string, limit int64) ([]byte, error) {
	b, _, err := readPrivate(path, limit)
	return readErr(path, limit, b, err)
}

// readPrivate is ReadPrivate without its error wording, and with the file's modification time
// as the open found it.
func readPrivate(path string, limit int64) ([]byte, time.Time, error) {
	f, err := rawfs.Open(path, true)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	if f.Perm() != FilePerm {
		f.Chmod(FilePerm) // best effort: the read does not depend on it
	}
	if f.Size() > limit {
		return nil, time.Time{}, &fs.PathError{Op: "read", Path: path, Err: rawfs.ErrTooLarge}
	}
	buf := make([]byte, f.Size())
	n, err := f.ReadAt(buf, 0)
	if err != nil && n < len(buf) && err != io.EOF { // a file that shrank: what is left
		return nil, time.Time{}, err
	}
	return buf[:n], f.ModTime(), nil
}

// Private sets the file or folder at path (never through a symlink there) to FilePerm or
// DirPerm when fi, its Lstat, says its mode is another.
func Private(path string, fi fs.FileInfo) {
	switch {
	case fi.Mode().IsRegular() && fi.Mode().Perm() != FilePerm:
		rawfs.Chmod(path, FilePerm)
	case fi.IsDir() && fi.Mode().Perm() != DirPerm:
		rawfs.Chmod(path, DirPerm)
	}
}

func readErr(path string, limit int64, b []byte, err error) ([]byte, error) {
	if err == nil {
		return b, nil
	}
	if pe, ok := err.(*fs.PathError); ok {
		switch pe.Err {
		case rawfs.ErrNotRegular:
			return nil, errors.New("zoneline: " + path + " is not a regular file")
		case rawfs.ErrTooLarge:
			return nil, fmt.Errorf("zoneline: %s is larger than %d bytes", path, limit)
		}
	}
	return nil, err
}
