package state

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/rawfs"
)

// Garbage collection of the state dir.
const (
	// GCInterval is how often GC runs at most, through GCDaily's stamp file.
	GCInterval = 24 * time.Hour
	// StaleTemp is the age past which a temp file left by an interrupted atomic write
	// (".<name>.tmp-<random>") is removed: no write takes this long.
	StaleTemp = time.Minute
)

// tempDirs are the folders below the root, besides each session's, where atomic writes leave
// temp files when killed.
var tempDirs = []string{"", SnapshotsDirName, SessionsDirName, GitDirName}

// GCResult is what one GC removed.
type GCResult struct {
	Sessions []string // session ids whose folder was removed
	Temps    int      // stale temp files removed
	Planted  int      // symlinks found in or at sessions/ or git/ and removed (the links, never their targets)
	Git      int      // git cache entries removed: older than maxAge, or their worktree is gone
}

// GC removes the folders of sessions whose newest file is older than maxAge, the git cache's
// entries older than maxAge or whose worktree no longer exists (gcGit), and temp files older
// than StaleTemp left by interrupted atomic writes, and sets every folder left to DirPerm
// and every file to FilePerm (what the hot path only does for the files it opens). It never
// follows a symlink: a symlink found in sessions/ is removed itself, its target untouched. A
// missing state dir is not an error.
func (d Dir) GC(maxAge time.Duration, now time.Time) (GCResult, error) {
	var res GCResult
	if !d.Usable() {
		return res, nil
	}
	defer privateTree(d.Root, 2)
	for _, sub := range tempDirs {
		res.Temps += removeStaleTemps(filepath.Join(d.Root, sub), now)
	}
	var planted int
	res.Git, planted = gcGit(filepath.Join(d.Root, GitDirName), maxAge, now)
	res.Planted += planted
	sessions := filepath.Join(d.Root, SessionsDirName)
	if fi, err := os.Lstat(sessions); err != nil || !fi.IsDir() {
		if err == nil && fi.Mode()&os.ModeSymlink != 0 { // planted where sessions/ belongs
			if os.Remove(sessions) == nil {
				res.Planted++
			}
		}
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
		return res, err
	}
	ents, err := os.ReadDir(sessions)
	if err != nil {
		return res, err
	}
	for _, e := range ents {
		p := filepath.Join(sessions, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			if os.Remove(p) == nil {
				res.Planted++
			}
			continue
		}
		if !e.IsDir() || !ValidSessionID(e.Name()) {
			continue
		}
		if now.Sub(newest(p)) <= maxAge {
			res.Temps += removeStaleTemps(p, now)
			continue
		}
		if err := os.RemoveAll(p); err == nil {
			res.Sessions = append(res.Sessions, e.Name())
		}
	}
	return res, nil
}

// GCDaily runs GC when the last run, as recorded by the stamp file's time, is GCInterval old
// or more (or never happened). ran reports whether it ran. The stamp is touched before the
// sweep, so of several racing callers most skip it; a second sweep is harmless.
func (d Dir) GCDaily(maxAge time.Duration, now time.Time) (res GCResult, ran bool, err error) {
	if !d.Usable() {
		return res, false, nil
	}
	stamp := filepath.Join(d.Root, GCStampName)
	if fi, err := os.Lstat(stamp); err == nil && fi.Mode().IsRegular() {
		if age := now.Sub(fi.ModTime()); age >= 0 && age < GCInterval {
			return res, false, nil
		}
	}
	if err := WriteFile(stamp, []byte(now.UTC().Format(time.RFC3339)+"\n")); err != nil {
		return res, false, err
	}
	os.Chtimes(stamp, now, now)
	res, err = d.GC(maxAge, now)
	return res, true, err
}

// gcGit sweeps the git cache folder dir: an entry "<key>.json" goes, with its "<key>.refresh"
// stamp and "<key>.lock", when it is older than maxAge, when the worktree it names no longer
// exists, or when it is unreadable and older than StaleTemp (a refresh rewrites a live one);
// a stamp or lock without an entry goes when older than maxAge; a symlink goes (the link). It
// returns the entries and the links removed. Nothing is followed, nothing else is touched.
func gcGit(dir string, maxAge time.Duration, now time.Time) (entries, planted int) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0
	}
	live := map[string]bool{}
	for _, e := range ents {
		name, p := e.Name(), filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			if os.Remove(p) == nil {
				planted++
			}
			continue
		}
		key, ok := strings.CutSuffix(name, ".json")
		if !ok || IsTemp(name) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		age := now.Sub(fi.ModTime())
		root, readable := gitEntryRoot(p)
		if age <= maxAge && (readable && worktreeExists(root) || !readable && age < StaleTemp) {
			live[key] = true
			continue
		}
		if os.Remove(p) == nil {
			entries++
			os.Remove(filepath.Join(dir, key+".refresh"))
			os.Remove(filepath.Join(dir, key+".lock"))
		}
	}
	for _, e := range ents {
		name := e.Name()
		key, ok := strings.CutSuffix(name, ".refresh")
		if !ok {
			key, ok = strings.CutSuffix(name, ".lock")
		}
		if !ok || live[key] || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > maxAge {
			os.Remove(filepath.Join(dir, name))
		}
	}
	return entries, planted
}

// gitEntryRoot returns the worktree root a git cache entry names, and whether it could be read.
func gitEntryRoot(path string) (root string, ok bool) {
	data, err := rawfs.ReadFile(path, 4096, true)
	if err != nil {
		return "", false
	}
	err = jsonscan.DecodeFields(data, &root, gitRootFields[:])
	return root, err == nil && root != ""
}

// gitRootFields is the part of a git cache entry the GC reads (gitcache's entryFields).
var gitRootFields = [...]jsonscan.Field[string]{{Key: "root", Read: func(s *scanner, root *string) error { return s.String(root) }}}

// worktreeExists reports whether root, an absolute path, is still there. Only a path that is
// certainly gone (ErrNotExist) counts as gone: a worktree on an unmounted or unreadable disk
// keeps its entry until it ages out.
func worktreeExists(root string) bool {
	if !filepath.IsAbs(root) {
		return false
	}
	_, err := os.Lstat(root)
	return !errors.Is(err, os.ErrNotExist)
}

// newest returns the newest modification time of dir and the entries in it (not following
// symlinks, not descending: a session's folder is flat).
func newest(dir string) time.Time {
	var t time.Time
	if fi, err := os.Lstat(dir); err == nil {
		t = fi.ModTime()
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.ModTime().After(t) {
			t = fi.ModTime()
		}
	}
	return t
}

// IsTemp reports whether name is a temp file of an atomic write: ".<name>.tmp-<random>".
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

// removeStaleTemps removes the temp files in dir older than StaleTemp and returns how many.
func removeStaleTemps(dir string, now time.Time) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if !IsTemp(e.Name()) || e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < StaleTemp {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			n++
		}
	}
	return n
}

// privateTree sets dir and what is below it, depth levels down, to DirPerm and FilePerm where
// their modes say otherwise, never through a symlink.
func privateTree(dir string, depth int) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return
	}
	Private(dir, fi)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			if depth > 0 {
				privateTree(p, depth-1)
			}
			continue
		}
		if fi, err := e.Info(); err == nil {
			Private(p, fi)
		}
	}
}
