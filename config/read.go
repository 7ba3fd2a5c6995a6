package config

import (
	"fmt"
	"io"
	"os"
)

// readFile reads the config at path, at most MaxSize+1 bytes (Parse refuses more), and only if
// it is a regular file (a symlink to one is fine): a FIFO would block the statusline in open,
// and /dev/zero would never end.
func readFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("zoneline: %s is not a regular file (%s); point ZONELINE_CONFIG at a TOML file", path, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxSize+1))
}
