package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// These tests give the example a real terminal, a pseudo-terminal, as
// stdin: it must switch it to raw mode while it runs and put the old
// settings back when it exits, by Q or by Ctrl-C (SIGINT).

// openPTY returns the two ends of a new pseudo-terminal; the test skips
// where the system has none.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal's slave: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

func lflag(t *testing.T, f *os.File) uint32 {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag
}

// runOnTerminal runs the example with the terminal slave as stdin, waits
// until the terminal is in raw mode, calls stop, and checks the exit and
// the terminal's settings afterwards.
func runOnTerminal(t *testing.T, stop func(master *os.File)) {
	master, slave := openPTY(t)
	before := lflag(t, slave)
	if before&(unix.ICANON|unix.ECHO) != unix.ICANON|unix.ECHO {
		t.Fatalf("a new terminal is not canonical with echo: lflag %#x", before)
	}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run([]string{"-fps", "60"}, slave, io.Discard, &stderr) }()

	// Wait, with a deadline, for what can be observed: the terminal
	// switching to raw mode (the example catches Ctrl-C before that).
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	deadline := time.After(10 * time.Second)
	for lflag(t, slave)&unix.ICANON != 0 {
		select {
		case code := <-done:
			t.Fatalf("the example exited (status %d) without setting raw mode; stderr: %s", code, stderr.String())
		case <-deadline:
			t.Fatal("the terminal was not switched to raw mode within 10 s")
		case <-poll.C:
		}
	}
	if got := lflag(t, slave); got&unix.ECHO != 0 {
		t.Errorf("raw mode keeps echo: lflag %#x", got)
	}
	stop(master)
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit status %d; stderr: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the example did not exit within 10 s")
	}
	if after := lflag(t, slave); after != before {
		t.Errorf("terminal not restored: lflag %#x before, %#x after", before, after)
	}
}

func TestRawModeRestoredOnQ(t *testing.T) {
	runOnTerminal(t, func(master *os.File) {
		if _, err := master.Write([]byte("q")); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRawModeRestoredOnCtrlC(t *testing.T) {
	runOnTerminal(t, func(*os.File) {
		// What Ctrl-C does: SIGINT to the process, which the example
		// has been catching since before it set raw mode.
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	})
}
