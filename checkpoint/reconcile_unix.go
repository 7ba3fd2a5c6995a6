//go:build unix

package checkpoint

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in its own process group and makes a cancel kill the whole group, so a
// verify command's children (git's helpers, a pipeline) cannot outlive the timeout.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
