//go:build !unix

package rawfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// File is a regular file open for positioned reads.
type File struct {
	f     *os.File
	size  int64
	mtime time.Time
}

// Open opens the regular file at path for reading; anything else is refused (ErrNotRegular).
// noFollow has no effect here.
func Open(path string, noFollow bool) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return &File{f: f, size: fi.Size(), mtime: fi.ModTime()}, nil
}

// Name returns the path the file was opened with.
func (f *File) Name() string { return f.f.Name() }

// Size returns the file's size when it was opened.
func (f *File) Size() int64 { return f.size }

// ModTime returns the file's modification time when it was opened.
func (f *File) ModTime() time.Time { return f.mtime }

// ID returns zeros here: files are told apart by their content only.
func (f *File) ID() (dev, ino uint64) { return 0, 0 }

// Perm returns the file's permission bits.
func (f *File) Perm() fs.FileMode {
	if fi, err := f.f.Stat(); err == nil {
		return fi.Mode().Perm()
	}
	return 0
}

// Chmod sets the open file's permission bits.
func (f *File) Chmod(perm fs.FileMode) error { return f.f.Chmod(perm) }

// ReadAt reads len(p) bytes from offset off, as io.ReaderAt.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// WriteTemp writes data to a new file in dir named prefix plus a random suffix, with mode
// perm, fsynced when sync is set, and returns its path.
func WriteTemp(dir, prefix string, data []byte, perm fs.FileMode, sync bool) (string, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return "", err
	}
	path := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(path)
		return "", err
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return "", err
	}
	return filepath.Clean(path), nil
}

// Append appends data to the file at path, creating it with mode perm.
func Append(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm() != perm.Perm() {
		f.Chmod(perm)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Kind reports whether something exists at path (without following a symlink there), whether
// it is a directory, and its permission bits.
func Kind(path string) (exists, isDir bool, perm fs.FileMode) {
	fi, err := os.Lstat(path)
	if err != nil {
		return false, false, 0
	}
	return true, fi.IsDir(), fi.Mode().Perm()
}

// Chmod sets the permission bits of the regular file or folder at path to perm when they
// differ; a symlink at path is refused.
func Chmod(path string, perm fs.FileMode) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return &fs.PathError{Op: "chmod", Path: path, Err: ErrNotRegular}
	}
	if fi.Mode().Perm() == perm.Perm() {
		return nil
	}
	return os.Chmod(path, perm)
}
