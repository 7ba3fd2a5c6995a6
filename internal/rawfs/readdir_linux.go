//go:build linux

package rawfs

import (
	"io/fs"
	"syscall"
)

// ReadDirNames returns the names in folder dir (without "." and ".."), in directory order.
// A symlink at dir is refused (ELOOP). (getdents64 on one descriptor; elsewhere os, because
// darwin's ReadDirent reopens the folder at every call and can skip names that racing
// processes create and remove between calls.)
func ReadDirNames(dir string) ([]string, error) {
	fd, err := open(dir, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	var names []string
	// A small buffer, read as often as needed: a session folder holds a few dozen names, and a
	// bigger one on the stack made every render grow its goroutine's stack once more.
	buf := make([]byte, 1024)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return names, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
}
