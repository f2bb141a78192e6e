//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether f is a terminal: whether it has terminal
// attributes to read.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}

// rawMode switches the terminal f off canonical (line-buffered) input and
// echo, so that every key press can be read as it happens, and returns the
// function that puts the old settings back. Signals stay on: Ctrl-C still
// sends SIGINT, which the game catches to stop and restore the terminal.
// When f is not a terminal it changes nothing.
func rawMode(f *os.File) (restore func(), err error) {
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return func() {}, nil // not a terminal: keys arrive as they are
	}
	raw := *old
	raw.Lflag &^= unix.ICANON | unix.ECHO
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0 // a read returns each byte at once
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &raw); err != nil {
		return nil, fmt.Errorf("setting the terminal to raw mode: %w", err)
	}
	return func() { unix.IoctlSetTermios(fd, ioctlSetTermios, old) }, nil
}
