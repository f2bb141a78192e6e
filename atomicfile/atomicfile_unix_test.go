//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// deadline bounds the tests that wait on a FIFO: a writer that never
// meets its reader fails the test instead of hanging it.
const deadline = 20 * time.Second

func TestReplaceKeepsPermissions(t *testing.T) {
	for _, w := range writers {
		for _, perm := range []os.FileMode{0o600, 0o640, 0o604, 0o755, 0o444} {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.txt")
			writeFile(t, path, "old", perm)
			if err := w.write(path, "new"); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			assertContent(t, path, "new")
			if got := mode(t, path); got != perm {
				t.Errorf("%s: replaced %v file has mode %v", w.name, perm, got)
			}
		}
	}
}

// A new file gets 0666 less the umask, as os.Create gives it (the
// temporary file os.CreateTemp makes is 0600).
func TestNewFileFollowsUmask(t *testing.T) {
	old := unix.Umask(0o027)
	defer unix.Umask(old)
	dir := t.TempDir()
	for _, w := range writers {
		path := filepath.Join(dir, w.name)
		if err := w.write(path, "x"); err != nil {
			t.Fatal(err)
		}
		ref := filepath.Join(dir, w.name+".ref")
		f, err := os.Create(ref)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got, want := mode(t, path), mode(t, ref); got != want {
			t.Errorf("%s: new file has mode %v, os.Create's has %v", w.name, got, want)
		}
	}
}

func TestSymlinkToFile(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			root := t.TempDir()
			links, data := mkdir(t, root, "links"), mkdir(t, root, "data")
			target := filepath.Join(data, "trace.csv")
			writeFile(t, target, "old", 0o640)
			link := filepath.Join(links, "trace.csv")
			symlink(t, "../data/trace.csv", link)

			if err := CheckWritable(link); err != nil {
				t.Fatal(err)
			}
			if err := w.write(link, "new"); err != nil {
				t.Fatal(err)
			}
			assertLink(t, link, "../data/trace.csv")
			assertContent(t, target, "new")
			if got := mode(t, target); got != 0o640 {
				t.Errorf("target mode %v, want 0640", got)
			}
			assertOnly(t, links, "trace.csv")
			assertOnly(t, data, "trace.csv")
		})
	}
}

// A chain of links, relative and absolute, through a linked directory, is
// followed to its end; every link stays as it was.
func TestSymlinkChain(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			root := t.TempDir()
			a, b, real := mkdir(t, root, "a"), mkdir(t, root, "b"), mkdir(t, root, "real")
			writeFile(t, filepath.Join(real, "f"), "old", 0o600)
			symlink(t, "real", filepath.Join(root, "dirlink")) // a linked directory
			chain := []struct{ link, to string }{
				{filepath.Join(a, "l1"), "../b/l2"},
				{filepath.Join(b, "l2"), filepath.Join(root, "dirlink", "l3")},
				{filepath.Join(real, "l3"), "./sub/../f"},
			}
			mkdir(t, real, "sub")
			for _, l := range chain {
				symlink(t, l.to, l.link)
			}
			if err := CheckWritable(chain[0].link); err != nil {
				t.Fatal(err)
			}
			if err := w.write(chain[0].link, "new"); err != nil {
				t.Fatal(err)
			}
			for _, l := range chain {
				assertLink(t, l.link, l.to)
			}
			assertContent(t, filepath.Join(real, "f"), "new")
			if got := mode(t, filepath.Join(real, "f")); got != 0o600 {
				t.Errorf("target mode %v, want 0600", got)
			}
			assertOnly(t, a, "l1")
			assertOnly(t, b, "l2")
			assertOnly(t, real, "f", "l3", "sub")
		})
	}
}

// A relative link whose target climbs out of a linked directory: ".." is
// taken from where the directory really is, as the kernel takes it, not
// from the name.
func TestSymlinkDotDotThroughLinkedDirectory(t *testing.T) {
	root := t.TempDir()
	deep := mkdir(t, mkdir(t, root, "x"), "deep")
	symlink(t, "x/deep", filepath.Join(root, "d")) // root/d -> root/x/deep
	symlink(t, "../f", filepath.Join(deep, "l"))   // root/d/l -> root/x/f
	if err := writers[0].write(filepath.Join(root, "d", "l"), "x"); err != nil {
		t.Fatal(err)
	}
	assertContent(t, filepath.Join(root, "x", "f"), "x")
	if _, err := os.Lstat(filepath.Join(root, "f")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("wrote %s, which the link does not point to", filepath.Join(root, "f"))
	}
}

func TestDanglingSymlink(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			root := t.TempDir()
			links, data := mkdir(t, root, "links"), mkdir(t, root, "data")
			link := filepath.Join(links, "state.json")
			symlink(t, filepath.Join(data, "state.json"), link)
			if err := CheckWritable(link); err != nil {
				t.Fatal(err)
			}
			assertOnly(t, data)
			if err := w.write(link, "{}"); err != nil {
				t.Fatal(err)
			}
			assertLink(t, link, filepath.Join(data, "state.json"))
			assertContent(t, filepath.Join(data, "state.json"), "{}")
			assertOnly(t, links, "state.json")
			assertOnly(t, data, "state.json")
		})
	}
}

func TestDanglingSymlinkIntoMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "l")
	symlink(t, "no/such/dir/f", link)
	for name, check := range map[string]func(string) error{
		"CheckWritable": CheckWritable,
		"WriteFile":     func(p string) error { return writers[0].write(p, "x") },
	} {
		assertError(t, check(link), name, link, "no such file or directory")
	}
	assertLink(t, link, "no/such/dir/f")
}

func TestSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	symlink(t, "b", filepath.Join(dir, "a"))
	symlink(t, "a", filepath.Join(dir, "b"))
	symlink(t, "self", filepath.Join(dir, "self"))
	for _, path := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "self")} {
		for name, check := range map[string]func(string) error{
			"CheckWritable": CheckWritable,
			"WriteFile":     func(p string) error { return writers[0].write(p, "x") },
			"Create":        func(p string) error { return writers[1].write(p, "x") },
		} {
			err := check(path)
			assertError(t, err, name, path, "too many levels of symbolic links")
			if !errors.Is(err, syscall.ELOOP) {
				t.Errorf("%s: %v is not ELOOP", name, err)
			}
		}
	}
	assertLink(t, filepath.Join(dir, "a"), "b")
	assertLink(t, filepath.Join(dir, "b"), "a")
	assertOnly(t, dir, "a", "b", "self")
}

// A link to a directory is a directory.
func TestSymlinkToDirectory(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "l")
	symlink(t, ".", link)
	assertError(t, CheckWritable(link), "CheckWritable", link, "is a directory")
	assertError(t, writers[0].write(link, "x"), "WriteFile", link, "is a directory")
}

// A FIFO is written straight to, as a stream: the reader gets every byte,
// and the FIFO stays a FIFO.
func TestFIFO(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "pipe")
			if err := unix.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			// More than the buffer and the pipe's capacity: the writer
			// must stream, with the reader reading at the same time.
			want := strings.Repeat("0123456789abcdef", 1<<14)
			got := make(chan []byte, 1)
			go func() {
				b, _ := os.ReadFile(fifo) // opens, waiting for the writer
				got <- b
			}()
			wrote := make(chan error, 1)
			go func() { wrote <- w.write(fifo, want) }()
			timeout := time.After(deadline)
			select {
			case err := <-wrote:
				if err != nil {
					t.Fatal(err)
				}
			case <-timeout:
				unblockFIFO(fifo)
				t.Fatal("writing the FIFO did not finish")
			}
			select {
			case b := <-got:
				if string(b) != want {
					t.Fatalf("reader got %d bytes, want %d", len(b), len(want))
				}
			case <-timeout:
				unblockFIFO(fifo)
				t.Fatal("the reader did not finish")
			}
			if mode := lmode(t, fifo); mode&fs.ModeNamedPipe == 0 {
				t.Fatalf("%s is now %v, not a FIFO", fifo, mode)
			}
			assertOnly(t, dir, "pipe")
		})
	}
}

// CheckWritable on a FIFO with no reader returns at once, with no error.
func TestCheckWritableFIFONoReader(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	symlink(t, "pipe", link)
	for _, p := range []string{fifo, link} {
		done := make(chan error, 1)
		go func() { done <- CheckWritable(p) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("CheckWritable(%s) = %v", p, err)
			}
		case <-time.After(deadline):
			unblockFIFO(fifo)
			t.Fatalf("CheckWritable(%s) is blocked", p)
		}
	}
	if mode := lmode(t, fifo); mode&fs.ModeNamedPipe == 0 {
		t.Fatalf("%s is now %v, not a FIFO", fifo, mode)
	}
	assertOnly(t, dir, "link", "pipe")
}

func TestSocketIsNotReplaced(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrUnix{Name: sock}); err != nil {
		t.Skipf("cannot bind a unix socket in %s: %v", dir, err)
	}
	for name, check := range map[string]func(string) error{
		"CheckWritable": CheckWritable,
		"WriteFile":     func(p string) error { return writers[0].write(p, "x") },
	} {
		assertError(t, check(sock), name, sock, "is a socket")
	}
	if mode := lmode(t, sock); mode&fs.ModeSocket == 0 {
		t.Fatalf("%s is now %v, not a socket", sock, mode)
	}
	assertOnly(t, dir, "s")
}

// The write error of a device reaches the caller: here the EPIPE of a
// FIFO whose reader went away after reading a little.
func TestFIFOReaderGone(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			return
		}
		io.ReadFull(f, make([]byte, 10))
		f.Close()
	}()
	// SIGPIPE from a write to a pipe without a reader is ignored by Go
	// for descriptors other than 1 and 2: the write fails with EPIPE.
	done := make(chan error, 1)
	go func() { done <- writers[1].write(fifo, strings.Repeat("x", 1<<22)) }()
	select {
	case err := <-done:
		assertError(t, err, "Create", fifo, "broken pipe")
		if !errors.Is(err, syscall.EPIPE) {
			t.Fatalf("%v is not EPIPE", err)
		}
	case <-time.After(deadline):
		unblockFIFO(fifo)
		t.Fatal("writing the FIFO did not finish")
	}
}

// unblockFIFO opens fifo for reading and writing, which never blocks, so
// that a test that timed out leaves no goroutine waiting in open.
func unblockFIFO(fifo string) {
	if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
		f.Close()
	}
}

func mkdir(t *testing.T, parent, name string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func symlink(t *testing.T, to, link string) {
	t.Helper()
	if err := os.Symlink(to, link); err != nil {
		t.Fatal(err)
	}
}

// assertLink checks that link is still a symbolic link to to.
func assertLink(t *testing.T, link, to string) {
	t.Helper()
	got, err := os.Readlink(link)
	if err != nil {
		t.Fatalf("%s is no longer a symbolic link: %v", link, err)
	}
	if got != to {
		t.Fatalf("%s points to %s, want %s", link, got, to)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode()
}

func lmode(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode()
}
