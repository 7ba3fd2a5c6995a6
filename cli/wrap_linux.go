package cli

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// wrapComm is the name a wrapping zoneline (the refresher, a hand render that wraps) gives
// itself (/proc/self/comm, at most 15 bytes): what a zoneline under its wrapped command finds
// among its ancestors, whatever the command did to its environment.
const wrapComm = "zl-wrap-refresh"

// wrapMaxDepth bounds the walk up the ancestry.
const wrapMaxDepth = 64

// markWrapping names this process wrapComm, and makes it the subreaper of what its wrapped
// command starts: a process that leaves the command's group and whose parent dies (a double
// fork, setsid) is reparented here, not to init, so it stays under this process in the
// ancestry (insideWrap) and is found by sweepDescendants.
func markWrapping() {
	if fd, err := syscall.Open("/proc/self/comm", syscall.O_WRONLY|syscall.O_CLOEXEC, 0); err == nil {
		syscall.Write(fd, []byte(wrapComm))
		syscall.Close(fd)
	}
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER

// insideWrap reports whether a wrapping zoneline (named wrapComm) is among this process's
// ancestors: one read of /proc/<pid>/stat per level, up to init or wrapMaxDepth.
func insideWrap() bool {
	pid := syscall.Getppid()
	for i := 0; i < wrapMaxDepth && pid > 1; i++ {
		comm, ppid, ok := procStat(pid)
		if !ok {
			return false
		}
		if comm == wrapComm {
			return true
		}
		pid = ppid
	}
	return false
}

// procStat reads the command name and the parent of pid from /proc/<pid>/stat.
func procStat(pid int) (comm string, ppid int, ok bool) {
	var buf [512]byte
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", 0, false
	}
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return "", 0, false
	}
	b := buf[:n]
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return "", 0, false
	}
	f := bytes.Fields(b[end+1:]) // state, ppid, …
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(string(f[1]))
	return string(b[open+1 : end]), ppid, err == nil
}

// sweepDescendants kills every child of this process and reaps it, round after round, until
// none is left: as a subreaper (markWrapping) each orphan of the wrapped command comes back as
// a child here, so whatever the command started, in its group or out of it, is gone.
func sweepDescendants() {
	self := os.Getpid()
	for round := 0; round < wrapMaxDepth; round++ {
		kids := childrenOf(self)
		if len(kids) == 0 {
			return
		}
		for _, k := range kids {
			syscall.Kill(k, syscall.SIGKILL)
		}
		for _, k := range kids {
			var ws syscall.WaitStatus
			for {
				if _, err := syscall.Wait4(k, &ws, 0, nil); err != syscall.EINTR {
					break
				}
			}
		}
		time.Sleep(time.Millisecond) // for the orphans of those just killed to be reparented
	}
}

// childrenOf lists the processes whose parent is pid (a scan of /proc).
func childrenOf(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var kids []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p == pid {
			continue
		}
		if _, ppid, ok := procStat(p); ok && ppid == pid {
			kids = append(kids, p)
		}
	}
	return kids
}

// wrapSysProcAttr: the wrapped command in its own process group, killed when the thread that
// started it (and so this process) dies.
func wrapSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
