//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// The ioctls that read and set a terminal's attributes (tcgetattr and
// tcsetattr with TCSANOW).
const ioctlGetTermios, ioctlSetTermios = unix.TIOCGETA, unix.TIOCSETA
