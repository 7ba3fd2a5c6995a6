//go:build unix

package rawfs

import (
	"io"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"syscall"
	"time"
)

// File is a regular file open for positioned reads.
type File struct {
	fd       int
	size     int64
	name     string
	dev, ino uint64
	perm     uint32
	mtime    time.Time
}

func openFlags(noFollow bool) int {
	// O_NONBLOCK: opening a FIFO planted at path must not block (it is refused after fstat);
	// O_NOCTTY: opening a terminal device must not make it the controlling terminal.
	f := syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK | syscall.O_NOCTTY
	if noFollow {
		f |= syscall.O_NOFOLLOW
	}
	return f
}

// Open opens the regular file at path for reading; anything else is refused (ErrNotRegular).
// With noFollow a symlink at path is refused (ELOOP).
func Open(path string, noFollow bool) (*File, error) {
	fd, err := open(path, openFlags(noFollow), 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return &File{fd: fd, size: st.Size, name: path, dev: uint64(st.Dev), ino: uint64(st.Ino), perm: uint32(st.Mode) & 0o7777,
		mtime: mtimeOf(&st)}, nil
}

// open retries open(2) on EINTR.
func open(path string, flags int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(path, flags, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// Name returns the path the file was opened with.
func (f *File) Name() string { return f.name }

// Size returns the file's size when it was opened.
func (f *File) Size() int64 { return f.size }

// ID returns the file's device and inode numbers: what tells one file from another one later
// put at the same path.
func (f *File) ID() (dev, ino uint64) { return f.dev, f.ino }

// ModTime returns the file's modification time when it was opened.
func (f *File) ModTime() time.Time { return f.mtime }

// Perm returns the file's permission bits when it was opened.
func (f *File) Perm() fs.FileMode { return fs.FileMode(f.perm & 0o777) }

// Chmod sets the open file's permission bits (fchmod: no path, so nothing planted at the path
// since the open is changed instead).
func (f *File) Chmod(perm fs.FileMode) error {
	if err := fchmod(f.fd, perm); err != nil {
		return &fs.PathError{Op: "chmod", Path: f.name, Err: err}
	}
	f.perm = uint32(perm.Perm())
	return nil
}

// fchmod sets the permission bits of fd, retrying on EINTR.
func fchmod(fd int, perm fs.FileMode) error {
	for {
		if err := syscall.Fchmod(fd, uint32(perm.Perm())); err != syscall.EINTR {
			return err
		}
	}
}

// writeAll writes all of data to fd, retrying on EINTR.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// ReadAt reads len(p) bytes from offset off, as io.ReaderAt: fewer only with an error (io.EOF
// at the end of the file).
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := syscall.Pread(f.fd, p[n:], off+int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
	}
	return n, nil
}

// Close closes the file.
func (f *File) Close() error {
	if f.fd < 0 {
		return nil
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// WriteTemp writes data to a new file in dir named prefix plus a random suffix, created
// exclusively (O_EXCL, never through a symlink) with mode perm (whatever the umask), fsynced
// when sync is set, and returns its path. The caller renames or links it into place.
func WriteTemp(dir, prefix string, data []byte, perm fs.FileMode, sync bool) (string, error) {
	var (
		fd   int
		path string
		err  error
	)
	for range 100 {
		path = dir + "/" + prefix + strconv.FormatUint(rand.Uint64()&(1<<40-1), 36)
		fd, err = open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, uint32(perm.Perm()))
		if err != syscall.EEXIST {
			break
		}
	}
	if err != nil {
		return "", &fs.PathError{Op: "open", Path: path, Err: err}
	}
	fail := func(op string, err error) (string, error) {
		syscall.Close(fd)
		syscall.Unlink(path)
		return "", &fs.PathError{Op: op, Path: path, Err: err}
	}
	if err := fchmod(fd, perm); err != nil {
		return fail("chmod", err)
	}
	if err := writeAll(fd, data); err != nil {
		return fail("write", err)
	}
	if sync {
		if err := syscall.Fsync(fd); err != nil {
			return fail("sync", err)
		}
	}
	if err := syscall.Close(fd); err != nil {
		syscall.Unlink(path)
		return "", &fs.PathError{Op: "close", Path: path, Err: err}
	}
	return path, nil
}

// Append appends data to the file at path with one write (O_APPEND: lines from racing
// processes do not interleave), creating it with mode perm, or setting an existing file's mode to
// perm when it differs; a symlink at path is refused.
func Append(path string, data []byte, perm fs.FileMode) error {
	fd, err := open(path, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_CREAT|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, uint32(perm.Perm()))
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && fs.FileMode(st.Mode&0o7777) != perm.Perm() {
		fchmod(fd, perm) // (created under a umask, or loosened since)
	}
	if err := writeAll(fd, data); err != nil {
		syscall.Close(fd)
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: path, Err: err}
	}
	return nil
}

// Kind reports whether something exists at path (without following a symlink there), whether
// it is a directory, and its permission bits: one lstat, with nothing allocated.
func Kind(path string) (exists, isDir bool, perm fs.FileMode) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return false, false, 0
		}
		return true, st.Mode&syscall.S_IFMT == syscall.S_IFDIR, fs.FileMode(st.Mode & 0o777)
	}
}

// Chmod sets the permission bits of the regular file or folder at path to perm, through a
// descriptor opened without following a symlink there (ELOOP) and only when they differ.
func Chmod(path string, perm fs.FileMode) error {
	fd, err := open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	if t := st.Mode & syscall.S_IFMT; t != syscall.S_IFREG && t != syscall.S_IFDIR {
		return &fs.PathError{Op: "chmod", Path: path, Err: ErrNotRegular}
	}
	if fs.FileMode(st.Mode&0o7777) == perm.Perm() {
		return nil
	}
	if err := fchmod(fd, perm); err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	return nil
}
