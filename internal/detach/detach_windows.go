//go:build windows

package detach

import (
	"errors"
	"os/exec"
	"syscall"
)

// Process creation flags (winbase.h).
const (
	detachedProcess        = 0x00000008 // no console: none inherited, none created
	createNewProcessGroup  = 0x00000200 // Ctrl+C and Ctrl+Break meant for Claude Code's group do not reach it
	createBreakawayFromJob = 0x01000000 // out of Claude Code's job: it survives the job being closed
	createNoWindow         = 0x08000000 // no console window flashes (ignored beside detachedProcess; kept for a console-less parent)
)

// flags returns the creation flags of a detached start, with or without the job breakaway.
func flags(breakaway bool) uint32 {
	f := uint32(detachedProcess | createNewProcessGroup | createNoWindow)
	if breakaway {
		f |= createBreakawayFromJob
	}
	return f
}

// Start starts bin with args detached: no console and no window, its own process group, out
// of the caller's job object when the job allows it (a job that forbids breakaway fails the
// start with access denied: it is retried inside the job), stdio on NUL, in the drive's root;
// it does not wait for it.
func Start(bin string, args []string) error {
	err := start(bin, args, flags(true))
	if errors.Is(err, syscall.ERROR_ACCESS_DENIED) {
		err = start(bin, args, flags(false))
	}
	return err
}

func start(bin string, args []string, creation uint32) error {
	cmd := exec.Command(bin, args...)
	cmd.Dir = `\`
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: creation, HideWindow: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
