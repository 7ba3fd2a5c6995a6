package state

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// MaxLog is the size at which the log is rotated to zoneline.log.1 (one old file is kept).
const MaxLog = 256 << 10

// LogPath returns the log's path.
func (d Dir) LogPath() string { return filepath.Join(d.Root, "zoneline.log") }

// Log appends one line to the state dir's log: time, the command, the message. It never fails
// the caller: a log that cannot be written is dropped. The log is rotated past MaxLog.
func (d Dir) Log(command, format string, args ...any) {
	if d.Root == "" {
		return
	}
	if MkdirPrivate(d.Root) != nil {
		return
	}
	path := d.LogPath()
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return
		}
		if fi.Size() > MaxLog {
			os.Rename(path, path+".1")
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|oNoFollow, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	msg := fmt.Sprintf(format, args...)
	if len(msg) > 2000 {
		msg = msg[:2000] + "…"
	}
	fmt.Fprintf(f, "%s %s: %s\n", time.Now().UTC().Format(time.RFC3339), command, msg)
}
