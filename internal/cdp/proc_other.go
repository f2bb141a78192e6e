//go:build !unix

package cdp

import "os/exec"

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the browser; its helpers end with it.
func killProcessGroup(cmd *exec.Cmd) {
	cmd.Process.Kill()
}
