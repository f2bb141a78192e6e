//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package main

import "os"

// Elsewhere the terminal is left as it is: keys arrive after Enter.

func isTerminal(*os.File) bool { return false }

func rawMode(*os.File) (restore func(), err error) { return func() {}, nil }
