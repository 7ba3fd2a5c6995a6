//go:build unix

package notify

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own session, so it outlives the statusline and gets no signal
// meant for Claude Code's process group.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
