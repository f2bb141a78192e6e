package desktop

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// openDeadline bounds the opening of the window and its GL context. Their
// waits are in C, with no deadline of their own: an X server that takes
// the connection and never answers (a DISPLAY over TCP to a host that is
// gone, a server that hangs) would hold the demo for good, and a Ctrl-C,
// caught from the start of the run, would not be heard until they
// return. Opening takes milliseconds, a second or two on a loaded machine
// with a cold cache.
const openDeadline = 20 * time.Second

// exitProcess ends the process; tests replace it.
var exitProcess = os.Exit

// watched runs open (a call into C that cannot be cut short) and ends the
// process, with one line on log and status 1, if it has not returned
// within deadline, or when stop (the user's Ctrl-C) is done first. abort
// runs before, to close what the run began (a CPU profile). what names
// the call ("opening the window"); why says what may be the matter when
// it is late.
func watched(deadline time.Duration, stop context.Context, log io.Writer, name, what, why string, abort func(), open func() error) error {
	done := make(chan struct{})
	go func() {
		t := time.NewTimer(deadline)
		defer t.Stop()
		var msg string
		select {
		case <-done:
			return
		case <-t.C:
			msg = fmt.Sprintf("%s took over %v: %s", what, deadline, why)
		case <-stop.Done():
			select {
			case <-done:
				return // it returned: the loop hears the signal
			default:
			}
			msg = fmt.Sprintf("%v while %s", context.Cause(stop), what)
		}
		if abort != nil {
			abort()
		}
		fmt.Fprintf(log, "%s: %s\n", name, msg)
		exitProcess(1)
	}()
	defer close(done)
	return open()
}

// displayHint says which display a window that does not open waits for.
func displayHint(headless bool) string {
	switch d := os.Getenv("DISPLAY"); {
	case headless:
		return "no answer from the GL driver"
	case os.Getenv("SDL_VIDEODRIVER") == "" && d != "":
		return fmt.Sprintf("no answer from the X display %q (DISPLAY)", d)
	}
	return "no answer from the display"
}
