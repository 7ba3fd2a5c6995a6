// Package gitinfo finds the git branch of a directory by reading files: it walks up from the
// directory to the repository, follows a .git file (linked worktrees, submodules) to the git
// dir, and parses HEAD. It starts no process.
package gitinfo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zoneline/zoneline/internal/rawfs"
)

// Bounds on the work Branch does, so a strange tree cannot make the statusline slow.
const (
	MaxLevels   = 64   // directories looked at, from dir up
	MaxFileSize = 4096 // bytes read from HEAD or a .git file
	ShortHash   = 7    // hex digits of a detached HEAD shown
)

// ErrNoRepo is returned (wrapped) when no directory from dir up to the root holds a .git.
var ErrNoRepo = errors.New("zoneline: not in a git repository")

// Info is the HEAD of a repository or worktree.
type Info struct {
	Branch   string // branch name, e.g. "main" or "feature/x"; "" when detached
	Detached bool   // HEAD is a commit, not a branch
	Head     string // the first ShortHash hex digits of a detached HEAD; "" on a branch
	Root     string // the worktree's top directory (where .git was found)
	GitDir   string // the git dir holding HEAD (for a linked worktree, .git/worktrees/<name>)
}

// Label returns what to show: the branch, or the short hash when detached.
func (i Info) Label() string {
	if i.Detached {
		return i.Head
	}
	return i.Branch
}

// Branch returns the HEAD of the git worktree that contains dir. It walks up from dir (at most
// MaxLevels directories) and stops at the first .git: a directory (a plain repository) or a
// file "gitdir: <path>" (a linked worktree or a submodule; a relative path is relative to the
// file's directory). The error wraps ErrNoRepo when there is no repository, and says what is
// wrong when dir does not exist or a .git file or HEAD cannot be read.
func Branch(dir string) (Info, error) {
	if dir == "" {
		return Info{}, errors.New("zoneline: gitinfo: no directory given")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Info{}, &wrapped{err}
	}
	if st, err := os.Stat(dir); err != nil {
		return Info{}, &wrapped{err}
	} else if !st.IsDir() {
		return Info{}, fmt.Errorf("zoneline: gitinfo: %s is not a directory", dir)
	}
	for range MaxLevels {
		dotGit := filepath.Join(dir, ".git")
		st, err := os.Stat(dotGit)
		switch {
		case err == nil && st.IsDir():
			return readHead(dir, dotGit)
		case err == nil && st.Mode().IsRegular():
			gitDir, err := readGitFile(dotGit)
			if err != nil {
				return Info{}, err
			}
			return readHead(dir, gitDir)
		case err != nil && !rawfs.IsNotExist(err):
			return Info{}, &wrapped{err}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return Info{}, &noRepo{from: dir}
}

// readGitFile returns the git dir named by a .git file, "gitdir: <path>".
func readGitFile(name string) (string, error) {
	b, err := readSmall(name)
	if err != nil {
		return "", err
	}
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	path, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("gitdir:"))
	p := strings.TrimSpace(string(path))
	if !ok || p == "" {
		return "", fmt.Errorf("zoneline: gitinfo: %s: not a gitdir file (want \"gitdir: <path>\")", name)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(name), p)
	}
	return filepath.Clean(p), nil
}

// readHead parses gitDir/HEAD: "ref: refs/heads/<name>" or a commit hash.
func readHead(root, gitDir string) (Info, error) {
	name := filepath.Join(gitDir, "HEAD")
	b, err := readSmall(name)
	if err != nil {
		return Info{}, err
	}
	head := strings.TrimSpace(string(b))
	info := Info{Root: root, GitDir: gitDir}
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		info.Branch = strings.TrimPrefix(ref, "refs/heads/")
		if info.Branch == "" || strings.ContainsAny(info.Branch, " \t\n\x00") {
			return Info{}, fmt.Errorf("zoneline: gitinfo: %s: bad ref %q", name, ref)
		}
		return info, nil
	}
	if (len(head) == 40 || len(head) == 64) && isHex(head) {
		info.Detached, info.Head = true, head[:ShortHash]
		return info, nil
	}
	return Info{}, fmt.Errorf("zoneline: gitinfo: %s: neither a ref nor a commit hash", name)
}

// readSmall reads a file of at most MaxFileSize bytes.
func readSmall(name string) ([]byte, error) {
	b, err := rawfs.ReadFile(name, MaxFileSize, false)
	if err == nil {
		return b, nil
	}
	if pe, ok := err.(*fs.PathError); ok {
		switch pe.Err {
		case rawfs.ErrNotRegular:
			return nil, fmt.Errorf("zoneline: gitinfo: %s is not a regular file", name)
		case rawfs.ErrTooLarge:
			return nil, fmt.Errorf("zoneline: gitinfo: %s: larger than %d bytes", name, MaxFileSize)
		}
	}
	return nil, &wrapped{err}
}

// wrapped is an error from the file system, as "zoneline: gitinfo: <err>". (No fmt: a render in
// a folder that is no repository, or is gone, meets these on the statusline's hot path.)
type wrapped struct{ err error }

func (e *wrapped) Error() string { return "zoneline: gitinfo: " + e.err.Error() }
func (e *wrapped) Unwrap() error { return e.err }

// noRepo is ErrNoRepo with the folder the search started from.
type noRepo struct{ from string }

func (e *noRepo) Error() string { return ErrNoRepo.Error() + " (looked up from " + e.from + ")" }
func (e *noRepo) Unwrap() error { return ErrNoRepo }

// isHex reports whether s is all lower- or upper-case hex digits.
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
