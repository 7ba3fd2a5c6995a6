package cli

import (
	"bytes"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// wrapMaxDepth bounds the walk up the ancestry.
const wrapMaxDepth = 64

// markWrapping: nothing on macOS (a process cannot rename itself there); insideWrap reads the
// ancestors' arguments instead.
func markWrapping() {}

// insideWrap reports whether a wrapping zoneline is among this process's ancestors: a process
// of the same name as this one (kern.proc.pid) running `statusline` or `wrap-refresh`
// (kern.procargs2), found up to init or wrapMaxDepth levels up.
func insideWrap() bool {
	self, err := unix.SysctlKinfoProc("kern.proc.pid", os.Getpid())
	if err != nil {
		return false
	}
	name := cString(self.Proc.P_comm[:])
	pid := syscall.Getppid()
	for i := 0; i < wrapMaxDepth && pid > 1; i++ {
		k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil {
			return false
		}
		if cString(k.Proc.P_comm[:]) == name {
			if sub := argv1(pid); sub == "statusline" || sub == "wrap-refresh" {
				return true
			}
		}
		pid = int(k.Eproc.Ppid)
	}
	return false
}

// argv1 is the first argument of pid's command line ("" when it cannot be read): the buffer
// of kern.procargs2 is argc, the executable's path, padding NULs, then argv.
func argv1(pid int) string {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(b) < 4 {
		return ""
	}
	b = b[4:]
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return ""
	}
	b = bytes.TrimLeft(b[i:], "\x00")
	for n := 0; n < 2; n++ { // argv[0], then argv[1]
		j := bytes.IndexByte(b, 0)
		if j < 0 {
			return ""
		}
		if n == 1 {
			return string(b[:j])
		}
		b = b[j+1:]
	}
	return ""
}

func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// sweepDescendants: on macOS the wrapped command's process group is what is killed (no
// subreaper: a process that leaves the group and its parent escapes it).
func sweepDescendants() {}

// wrapSysProcAttr: the wrapped command in its own process group.
func wrapSysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
