package main

import "golang.org/x/sys/unix"

// The ioctls that read and set a terminal's attributes (tcgetattr and
// tcsetattr with TCSANOW).
const ioctlGetTermios, ioctlSetTermios = unix.TCGETS, unix.TCSETS
