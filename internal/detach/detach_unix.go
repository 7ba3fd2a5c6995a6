//go:build unix

package detach

import (
	"os"
	"syscall"
)

// Start starts bin with args detached: in its own session (it outlives the statusline and
// gets no signal meant for Claude Code's process group), in /, with stdio on /dev/null and
// the caller's environment, and does not wait for it. It forks through the syscall package:
// os.StartProcess first probes pidfd support by forking a throwaway child, which doubled the
// cost of a render that starts one.
func Start(bin string, args []string) error {
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: os.DevNull, Err: err}
	}
	defer syscall.Close(null)
	fd := uintptr(null)
	_, err = syscall.ForkExec(bin, append([]string{bin}, args...), &syscall.ProcAttr{
		Dir:   "/",
		Env:   syscall.Environ(),
		Files: []uintptr{fd, fd, fd},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return &os.PathError{Op: "fork/exec", Path: bin, Err: err}
	}
	return nil
}
