//go:build unix

package e2e

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// statFields returns the fields of /proc/<pid>/stat after the command name: state, ppid, …
func statFields(pid string) ([]string, error) {
	st, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil, err
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parens.
	s := string(st)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:]), nil
}

// childrenMap maps each PID to its direct children, read from /proc.
func childrenMap() map[int][]int {
	kids := map[int][]int{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return kids
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, err := statFields(e.Name())
		if err != nil || len(f) < 2 {
			continue
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		kids[ppid] = append(kids[ppid], pid)
	}
	return kids
}

// descendants returns every process below pid (children, grandchildren, …).
func descendants(pid int) []int {
	if pid <= 0 {
		return nil
	}
	kids := childrenMap()
	var out []int
	todo := []int{pid}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, c := range kids[p] {
			out = append(out, c)
			todo = append(todo, c)
		}
	}
	return out
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	f, err := statFields(strconv.Itoa(pid))
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat("/proc/self/stat"); serr == nil {
			return false // /proc works, so the process is gone
		}
		return syscall.Kill(pid, 0) == nil // no /proc (e.g. macOS): ask the kernel
	}
	return err == nil && (len(f) == 0 || f[0] != "Z")
}

// killPIDs sends sig to each PID, ignoring processes that are already gone.
func killPIDs(pids []int, sig syscall.Signal) {
	for _, p := range pids {
		if p > 0 {
			_ = syscall.Kill(p, sig)
		}
	}
}
