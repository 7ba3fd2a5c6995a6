//go:build unix

package snapshot

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a new process group, and its cancellation kill that group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills what is left of cmd's process group once cmd has exited (a child it started
// and did not wait for). The group's id cannot be reused while a member lives.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
