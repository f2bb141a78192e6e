//go:build unix

package atomicfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// mkfifo makes the FIFO "pipe" in a new temporary directory.
func mkfifo(t *testing.T) (dir, fifo string) {
	t.Helper()
	dir = t.TempDir()
	fifo = filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, fifo
}

// setFIFOWait sets FIFOWait for the test.
func setFIFOWait(t *testing.T, d time.Duration) {
	old := FIFOWait
	FIFOWait = d
	t.Cleanup(func() { FIFOWait = old })
}

// bounded runs write and returns its error, or fails the test if it takes
// longer than deadline, unblocking the FIFO so that no goroutine is left
// waiting in open.
func bounded(t *testing.T, fifo string, write func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- write() }()
	select {
	case err := <-done:
		return err
	case <-time.After(deadline):
		unblockFIFO(fifo)
		t.Fatal("writing the FIFO did not finish")
		return nil
	}
}

// readAll reads fifo whole, opening it after start is closed, pausing
// after each read of at most chunk bytes for pause, and sends what it got.
func readAll(fifo string, start <-chan struct{}, chunk int, pause time.Duration) <-chan []byte {
	got := make(chan []byte, 1)
	go func() {
		<-start
		f, err := os.Open(fifo) // waits for the writer, if it is not there yet
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		var b bytes.Buffer
		p := make([]byte, chunk)
		for {
			n, err := f.Read(p)
			b.Write(p[:n])
			if err != nil {
				break
			}
			time.Sleep(pause)
		}
		got <- b.Bytes()
	}()
	return got
}

// receive returns what readAll sent, or fails the test after deadline.
func receive(t *testing.T, fifo string, got <-chan []byte) []byte {
	t.Helper()
	select {
	case b := <-got:
		return b
	case <-time.After(deadline):
		unblockFIFO(fifo)
		t.Fatal("the reader did not finish")
		return nil
	}
}

// A FIFO that no reader opens fails the write after FIFOWait, with one
// line saying so, and stays a FIFO. (Before, the open waited forever, in
// a system call that no signal ended.)
func TestFIFONoReader(t *testing.T) {
	for _, wait := range []time.Duration{200 * time.Millisecond, 0} {
		setFIFOWait(t, wait)
		for _, w := range writers {
			t.Run(w.name+"/"+wait.String(), func(t *testing.T) {
				dir, fifo := mkfifo(t)
				link := filepath.Join(dir, "link")
				symlink(t, "pipe", link)
				for _, p := range []string{fifo, link} {
					start := time.Now()
					err := bounded(t, fifo, func() error { return w.write(p, "x") })
					took := time.Since(start)
					assertError(t, err, w.name, p, "no reader opened the FIFO within "+wait.String())
					if !errors.Is(err, os.ErrDeadlineExceeded) {
						t.Errorf("%v is not os.ErrDeadlineExceeded", err)
					}
					if took < wait {
						t.Errorf("it failed after %v, before FIFOWait (%v)", took, wait)
					}
				}
				if mode := lmode(t, fifo); mode&fs.ModeNamedPipe == 0 {
					t.Fatalf("%s is now %v, not a FIFO", fifo, mode)
				}
				assertOnly(t, dir, "link", "pipe")
			})
		}
	}
}

// A FIFO that no reader opens, written with a context that is cancelled
// 100 ms into the wait (a Ctrl-C), fails at once then, not after
// FIFOWait, with one line giving the context's cause; the FIFO stays, and
// a regular file written with the same, cancelled, context is written
// whole: only the wait for a reader ends early. A reader already there
// when the context is done gets the data. (Before, nothing ended the
// wait but FIFOWait.)
func TestFIFOWaitEndsWithContext(t *testing.T) {
	setFIFOWait(t, deadline)
	interrupted := errors.New("interrupted by SIGINT")
	write := func(ctx context.Context, name, path, content string) error {
		if name == "WriteFileContext" {
			return WriteFileContext(ctx, path, func(w io.Writer) error {
				_, err := io.WriteString(w, content)
				return err
			})
		}
		f, err := CreateContext(ctx, path)
		if err != nil {
			return err
		}
		defer f.Abort()
		if _, err := f.WriteString(content); err != nil {
			return err
		}
		return f.Commit()
	}
	for _, name := range []string{"WriteFileContext", "CreateContext"} {
		t.Run(name, func(t *testing.T) {
			dir, fifo := mkfifo(t)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			timer := time.AfterFunc(100*time.Millisecond, func() { cancel(interrupted) })
			defer timer.Stop()
			start := time.Now()
			err := bounded(t, fifo, func() error { return write(ctx, name, fifo, "x") })
			took := time.Since(start)
			assertError(t, err, name, fifo, "gave up waiting for a reader to open the FIFO: interrupted by SIGINT")
			if !errors.Is(err, interrupted) || !errors.Is(err, context.Canceled) {
				t.Errorf("%v is not the context's cause and context.Canceled", err)
			}
			if took > 5*time.Second {
				t.Errorf("it failed after %v, want at once after the cancel (100 ms)", took)
			}
			if mode := lmode(t, fifo); mode&fs.ModeNamedPipe == 0 {
				t.Fatalf("%s is now %v, not a FIFO", fifo, mode)
			}
			// The context is done: a regular file is still written.
			plain := filepath.Join(dir, "plain")
			if err := write(ctx, name, plain, "kept"); err != nil {
				t.Fatalf("a regular file with a cancelled context: %v", err)
			}
			assertContent(t, plain, "kept")
			assertOnly(t, dir, "pipe", "plain")
			// A reader that has the FIFO open already gets the data.
			opened := make(chan struct{})
			close(opened)
			got := readAll(fifo, opened, 64<<10, 0)
			want := randomText(100 << 10)
			// The reader's goroutine may not be in its open yet: the
			// test tries again, within the deadline, until it is.
			for end := time.Now().Add(deadline); ; {
				err = bounded(t, fifo, func() error { return write(ctx, name, fifo, string(want)) })
				if err == nil || !errors.Is(err, interrupted) || time.Now().After(end) {
					break
				}
				time.Sleep(time.Millisecond)
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := receive(t, fifo, got); !bytes.Equal(b, want) {
				t.Fatalf("reader got %d bytes, want %d (or not the same)", len(b), len(want))
			}
		})
	}
}

// A reader that opens the FIFO after the writer found none (and 50 ms
// later) gets all the data.
func TestFIFOLateReader(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			_, fifo := mkfifo(t)
			refused := make(chan struct{})
			var once sync.Once
			real := sleep
			sleep = func(done <-chan struct{}, d time.Duration) {
				once.Do(func() { close(refused) })
				real(done, d)
			}
			t.Cleanup(func() { sleep = real })
			late := make(chan struct{})
			go func() {
				<-refused
				time.Sleep(50 * time.Millisecond) // the reader is late, not the test's synchronization
				close(late)
			}()
			got := readAll(fifo, late, 64<<10, 0)
			want := randomText(300 << 10)
			if err := bounded(t, fifo, func() error { return w.write(fifo, string(want)) }); err != nil {
				t.Fatal(err)
			}
			select {
			case <-refused:
			default:
				t.Fatal("the writer was never refused: the reader was not late")
			}
			if b := receive(t, fifo, got); !bytes.Equal(b, want) {
				t.Fatalf("reader got %d bytes, want %d (or not the same)", len(b), len(want))
			}
		})
	}
}

// A slow reader of more than a pipe holds gets it all, intact: a write
// that finds the pipe full waits for room (the FIFO is opened without
// blocking, but it must not fail with EAGAIN).
func TestFIFOSlowReader(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			_, fifo := mkfifo(t)
			start := make(chan struct{})
			close(start)
			got := readAll(fifo, start, 4<<10, 200*time.Microsecond)
			want := randomText(1 << 20)
			if err := bounded(t, fifo, func() error { return w.write(fifo, string(want)) }); err != nil {
				t.Fatal(err)
			}
			if b := receive(t, fifo, got); !bytes.Equal(b, want) {
				t.Fatalf("reader got %d bytes, want %d (or not the same)", len(b), len(want))
			}
		})
	}
}

// A descriptor opened without blocking that the runtime does not poll is
// made blocking, so that a full pipe cannot fail a write with EAGAIN; a
// polled one (a FIFO, on Linux) stays non-blocking, its writes waiting in
// the poller.
func TestBlockUnpolled(t *testing.T) {
	dir, fifo := mkfifo(t)
	// A regular file: never polled, by epoll or kqueue.
	f, err := os.OpenFile(filepath.Join(dir, "file"), os.O_WRONLY|os.O_CREATE|nonBlock, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := blockUnpolled(f); err != nil {
		t.Fatal(err)
	}
	if nonblocking(t, f) {
		t.Error("an unpolled descriptor is still non-blocking")
	}
	if runtime.GOOS != "linux" {
		return
	}
	r, err := os.OpenFile(fifo, os.O_RDWR, 0) // a reader, so that the open succeeds
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := openFIFO(context.Background(), fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !nonblocking(t, p) {
		t.Error("a FIFO polled by epoll was made blocking")
	}
}

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var fl int
	rc.Control(func(fd uintptr) { fl, err = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if err != nil {
		t.Fatal(err)
	}
	return fl&unix.O_NONBLOCK != 0
}

// randomText returns n bytes that differ from place to place, so that a
// lost, doubled or reordered piece shows.
func randomText(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(r.IntN(26))
	}
	return b
}
