//go:build !unix

package notify

import "os/exec"

func detach(cmd *exec.Cmd) {}
