//go:build unix

package cdp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the browser lead a process group of its own, so
// that Close can end its helper processes (GPU, renderers) with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the browser and whatever is left of its helpers.
func killProcessGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
