//go:build !unix && !windows

package detach

import "os/exec"

// Start starts bin with args, stdio on the null device, and does not wait for it.
func Start(bin string, args []string) error {
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
