package desktop

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// watched ends the process only where the call it watches has not
// returned: at its deadline, or at the user's signal; a call that returns
// in time gives its result and ends nothing, a signal after it too.
func TestWatchedEndsOnlyAStuckCall(t *testing.T) {
	exits := make(chan int, 1)
	old := exitProcess
	exitProcess = func(code int) { exits <- code }
	defer func() { exitProcess = old }()
	run := func(deadline time.Duration, stop context.Context, open func() error) (log string, aborted bool, err error) {
		var b strings.Builder
		err = watched(deadline, stop, &b, "interpdemo", "opening the window", "no answer", func() { aborted = true }, open)
		return b.String(), aborted, err
	}
	noExit := func(what string) {
		t.Helper()
		select {
		case code := <-exits:
			t.Errorf("%s: the process was ended (%d)", what, code)
		case <-time.After(50 * time.Millisecond):
		}
	}

	want := errors.New("no GL")
	if log, aborted, err := run(time.Hour, context.Background(), func() error { return want }); err != want || log != "" || aborted {
		t.Errorf("a call that returns: %v, log %q, aborted %v", err, log, aborted)
	}
	noExit("a call that returned")

	stop, cancel := context.WithCancelCause(context.Background())
	if _, _, err := run(time.Hour, stop, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	cancel(errors.New("interrupted by SIGINT"))
	noExit("a signal after the call returned")

	for _, c := range []struct {
		name     string
		deadline time.Duration
		signal   bool
		line     string
	}{
		{"deadline", 20 * time.Millisecond, false, "interpdemo: opening the window took over 20ms: no answer\n"},
		{"signal", time.Hour, true, "interpdemo: interrupted by SIGTERM while opening the window\n"},
	} {
		stop, cancel := context.WithCancelCause(context.Background())
		release := make(chan struct{})
		var log string
		var aborted bool
		returned := make(chan struct{})
		go func() {
			defer close(returned)
			log, aborted, _ = run(c.deadline, stop, func() error { <-release; return nil })
		}()
		if c.signal {
			cancel(errors.New("interrupted by SIGTERM"))
		}
		select {
		case code := <-exits:
			if code != 1 {
				t.Errorf("%s: exit status %d, want 1", c.name, code)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: a stuck call was not ended", c.name)
		}
		close(release)
		<-returned
		if log != c.line || !aborted {
			t.Errorf("%s: log %q, aborted %v; want %q, aborted", c.name, log, aborted, c.line)
		}
		cancel(nil)
	}
}
