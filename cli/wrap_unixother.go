//go:build unix && !linux && !darwin

package cli

import "syscall"

// On the other Unix systems only ZONELINE_WRAPPED marks a wrap (no ancestry read), and the
// wrapped command's process group is what is killed.
func markWrapping()                         {}
func insideWrap() bool                      { return false }
func sweepDescendants()                     {}
func wrapSysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
