//go:build !unix

package snapshot

import "os/exec"

func ownGroup(cmd *exec.Cmd)  {}
func killGroup(cmd *exec.Cmd) {}
