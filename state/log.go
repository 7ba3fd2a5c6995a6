package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/rawfs"
	"github.com/zoneline/zoneline/internal/redact"
	"github.com/zoneline/zoneline/internal/safetext"
)

// MaxLog is the size at which the log is rotated to LogRotatedName (one old file is kept).
const MaxLog = 256 << 10

// LogPath returns the log's path.
func (d Dir) LogPath() string { return filepath.Join(d.Root, LogName) }

// InfoMark follows the time of a log line that records something ordinary (a warning tier
// crossed, a GC, a compact-flow step), not an error: "<time> info <command>: <message>". Lines
// without it are errors, which `zoneline doctor` warns about.
const InfoMark = "info"

// Log appends one error line to the state dir's log: time, the command, the message. It never
// fails the caller: a log that cannot be written is dropped. The log is rotated past MaxLog.
func (d Dir) Log(command, format string, args ...any) {
	if !d.Usable() {
		return
	}
	d.LogLine(command, fmt.Sprintf(format, args...))
}

// Info is Log for something ordinary, not an error (marked InfoMark).
func (d Dir) Info(command, format string, args ...any) {
	if !d.Usable() {
		return
	}
	d.InfoLine(command, fmt.Sprintf(format, args...))
}

// LogLine is Log with the message built by the caller (no fmt: the statusline logs a warning's
// crossing on its hot path). The line is appended with one write through rawfs.
func (d Dir) LogLine(command, msg string) { d.logLine("", command, msg) }

// InfoLine is Info with the message built by the caller.
func (d Dir) InfoLine(command, msg string) { d.logLine(InfoMark, command, msg) }

// IsInfo reports whether a log line is marked InfoMark (an ordinary entry, not an error).
func IsInfo(line string) bool {
	_, rest, ok := strings.Cut(line, " ")
	return ok && strings.HasPrefix(rest, InfoMark+" ")
}

func (d Dir) logLine(level, command, msg string) {
	if !d.Usable() {
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
			os.Rename(path, filepath.Join(d.Root, LogRotatedName))
		}
	} // (rawfs.Append sets a loose log's mode back to 0600)
	line := time.Now().UTC().AppendFormat(nil, time.RFC3339)
	line = append(line, ' ')
	if level != "" {
		line = append(append(line, level...), ' ')
	}
	line = append(append(append(line, command...), ": "...), logText(msg)...)
	rawfs.Append(path, append(line, '\n'), 0o600)
}

// MaxLogLine is the most bytes of one message the log keeps.
const MaxLogLine = 2000

// logText makes a message safe for the log: credentials redacted (internal/redact), cut to
// MaxLogLine bytes at a rune boundary, valid UTF-8, control characters (C0, DEL, C1) and bidi
// controls escaped (safetext.Escape: \x1b, \u202e), and every line after the first indented, so
// text from a payload (a transcript path with a newline) cannot forge a log entry. A stack
// trace stays readable as indented lines.
func logText(msg string) string {
	msg = redact.String(msg)
	if cut, long := safetext.CutBytes(msg, MaxLogLine); long {
		msg = cut + "…"
	}
	msg = safetext.Escape(msg)
	if strings.IndexByte(msg, '\n') < 0 {
		return msg
	}
	return strings.ReplaceAll(msg, "\n", "\n\t")
}
