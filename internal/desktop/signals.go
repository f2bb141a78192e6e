package desktop

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupts are SIGINT (Ctrl-C) and SIGTERM (a polite kill), caught from
// the very start of a run, before anything waits. A process that started
// with SIGINT ignored (a script's `cmd &`, in a shell without job
// control) gets a handler too: os/signal's Notify installs one for a
// signal ignored at start. Were they caught only once the loop ran, one
// that came while a joiner waited for its host, or a host for its
// players, would be lost (ignored) or kill the process with nothing said.
//
// What a signal does depends on when it comes:
//
//   - Before the files are written at the end, the first one makes stop
//     done, its cause "interrupted by SIGINT". A wait before the loop (a
//     joiner's for the host, a spectator's, a lobby's room, a FIFO's
//     reader) ends with it, with an error; in the loop it ends the run
//     like Q (demo.Interrupt). A second one kills.
//   - Once the files are being written (finishing), the next one makes
//     the files' context done: a wait for a FIFO's reader ends at once,
//     and the other files are still written. One more kills.
//
// A signal that kills is delivered again with os/signal's handling reset,
// so the process ends by it, as it would have without the demo's
// handling: the way out of a run stuck where no wait can be ended (a
// pipe that a reader opened and does not read).
type interrupts struct {
	c    chan os.Signal
	quit chan struct{} // closed by close: the goroutine returns
	done chan struct{} // closed when it has
	// kill ends the process by sig; tests replace it.
	kill func(sig os.Signal)

	stop       context.Context
	cancelStop context.CancelCauseFunc

	mu          sync.Mutex
	acted       bool // a signal made stop, or files once finishing, done
	finishing   bool // finish was called
	files       context.Context
	cancelFiles context.CancelCauseFunc
}

// catchInterrupts starts catching SIGINT and SIGTERM. Call close when the
// run is over.
func catchInterrupts() *interrupts {
	s := newInterrupts(killBy)
	signal.Notify(s.c, os.Interrupt, syscall.SIGTERM)
	return s
}

// newInterrupts makes the interrupts that act on what arrives on s.c.
func newInterrupts(kill func(os.Signal)) *interrupts {
	s := &interrupts{c: make(chan os.Signal, 4), quit: make(chan struct{}), done: make(chan struct{}), kill: kill}
	s.stop, s.cancelStop = context.WithCancelCause(context.Background())
	go s.loop()
	return s
}

func (s *interrupts) loop() {
	defer close(s.done)
	for {
		select {
		case sig := <-s.c:
			s.receive(sig)
		case <-s.quit:
			return
		}
	}
}

// receive acts on one signal (see interrupts).
func (s *interrupts) receive(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.acted:
		s.kill(sig)
	case s.finishing:
		s.acted = true
		s.cancelFiles(interruptedBy(sig))
	default:
		s.acted = true
		s.cancelStop(interruptedBy(sig))
	}
}

// finish says the run's files are about to be written: the next signal
// ends a wait for a FIFO's reader (filesContext), even where one ended
// the loop.
func (s *interrupts) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finishing, s.acted = true, false
	s.files, s.cancelFiles = context.WithCancelCause(context.Background())
}

// filesContext is the context a file's write is given: what ends its wait
// for a FIFO's reader. It is stop until finish, the files' own context
// after.
func (s *interrupts) filesContext() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finishing {
		return s.files
	}
	return s.stop
}

// close stops catching the signals: from here on they do what they do by
// default.
func (s *interrupts) close() {
	signal.Stop(s.c)
	close(s.quit)
	<-s.done
	s.cancelStop(nil)
	if s.cancelFiles != nil {
		s.cancelFiles(nil)
	}
}

// killBy ends the process by sig: with the demo's handling of the
// signals reset, it is delivered again and does what it does by default
// (for SIGINT started ignored, nothing: it stays ignored, as before).
// Where a process cannot signal itself, it exits with status 1.
func killBy(sig os.Signal) {
	signal.Reset(os.Interrupt, syscall.SIGTERM)
	if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
		return
	}
	os.Exit(1)
}

// interruptedBy is the cause of a wait or a run that sig ended:
// "interrupted by SIGINT".
func interruptedBy(sig os.Signal) error {
	return errors.New("interrupted by " + signalName(sig))
}

// signalName is sig's name as a person types it to kill(1): SIGINT, not
// Go's "interrupt".
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
