//go:build unix

package gitcache

import (
	"os"
	"syscall"
)

// Start starts bin with args detached: its own session, in /, stdio on /dev/null, not waited
// for (syscall.ForkExec: os.StartProcess would first fork a throwaway child to probe pidfd).
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
