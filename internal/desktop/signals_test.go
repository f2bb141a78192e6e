package desktop

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeKill records the signals that would have killed the process.
type fakeKill struct {
	mu     sync.Mutex
	killed []os.Signal
}

func (k *fakeKill) kill(sig os.Signal) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.killed = append(k.killed, sig)
}

func (k *fakeKill) signals() []os.Signal {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]os.Signal(nil), k.killed...)
}

// waitDone waits up to 10 s for ctx to be done and returns its cause.
func waitDone(t *testing.T, what string, ctx context.Context) error {
	t.Helper()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: not done within 10 s of the signal", what)
		return nil
	}
}

// waitKilled waits up to 10 s for the n-th kill.
func waitKilled(t *testing.T, k *fakeKill, n int) []os.Signal {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if got := k.signals(); len(got) >= n {
			return got
		}
	}
	t.Fatalf("%d kills within 10 s, want %d", len(k.signals()), n)
	return nil
}

// The stages of a run's signals: the first ends the waits before the
// loop and the loop (stop, "interrupted by SIGINT"), a second kills;
// once the files are written, the next one ends a wait for a FIFO's
// reader (the files' context), even where one ended the loop, and one
// more kills.
func TestInterruptsStages(t *testing.T) {
	t.Run("ended by Q", func(t *testing.T) {
		k := &fakeKill{}
		s := newInterrupts(k.kill)
		defer s.close()
		if s.filesContext() != s.stop {
			t.Error("before the end, the files' waits end with stop")
		}
		s.finish()
		files := s.filesContext()
		s.c <- os.Interrupt
		if err := waitDone(t, "the files' context", files); err == nil || err.Error() != "interrupted by SIGINT" {
			t.Errorf("cause %v, want interrupted by SIGINT", err)
		}
		if s.stop.Err() != nil || len(k.signals()) != 0 {
			t.Errorf("a signal while the files are written did more than end their waits: stop %v, killed %v", s.stop.Err(), k.signals())
		}
		s.c <- syscall.SIGTERM
		if got := waitKilled(t, k, 1); got[0] != syscall.SIGTERM {
			t.Errorf("killed by %v, want SIGTERM", got)
		}
	})
	t.Run("ended by a signal", func(t *testing.T) {
		k := &fakeKill{}
		s := newInterrupts(k.kill)
		defer s.close()
		s.c <- syscall.SIGTERM
		if err := waitDone(t, "stop", s.stop); err == nil || err.Error() != "interrupted by SIGTERM" {
			t.Errorf("cause %v, want interrupted by SIGTERM", err)
		}
		s.finish()
		files := s.filesContext()
		if files.Err() != nil {
			t.Fatal("the signal that ended the loop ended the files' waits before they began")
		}
		s.c <- os.Interrupt
		if err := waitDone(t, "the files' context", files); err == nil || err.Error() != "interrupted by SIGINT" {
			t.Errorf("cause %v, want interrupted by SIGINT", err)
		}
		if len(k.signals()) != 0 {
			t.Errorf("killed by %v", k.signals())
		}
		s.c <- os.Interrupt
		waitKilled(t, k, 1)
	})
	t.Run("a second before the end", func(t *testing.T) {
		k := &fakeKill{}
		s := newInterrupts(k.kill)
		defer s.close()
		s.c <- os.Interrupt
		waitDone(t, "stop", s.stop)
		s.c <- os.Interrupt
		if got := waitKilled(t, k, 1); got[0] != os.Interrupt {
			t.Errorf("killed by %v, want SIGINT", got)
		}
	})
}
