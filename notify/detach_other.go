//go:build !unix

package notify

import "os/exec"

// start starts bin with stdio on the null device and does not wait for it.
func start(bin string, args []string) error {
	cmd := exec.Command(bin, args...)
	cmd.Dir = `\`
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
