//go:build !linux

package rawfs

import (
	"io/fs"
	"os"
)

// ReadDirNames returns the names in folder dir, through os (one directory stream). A symlink
// at dir is refused.
func ReadDirNames(dir string) ([]string, error) {
	if fi, err := os.Lstat(dir); err != nil {
		return nil, err
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: ErrNotRegular}
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
