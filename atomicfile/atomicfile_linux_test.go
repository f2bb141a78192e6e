package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// mknod makes a character device with Linux's numbers major:minor in dir,
// or skips the test when this process may not (it is not root).
func mknod(t *testing.T, dir, name string, major, minor uint32) string {
	t.Helper()
	path := filepath.Join(dir, name)
	err := unix.Mknod(path, unix.S_IFCHR|0o666, int(unix.Mkdev(major, minor)))
	if errors.Is(err, syscall.EPERM) && os.Geteuid() != 0 {
		t.Skipf("making a device node needs root: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// assertDevice checks that path is still the character device
// major:minor.
func assertDevice(t *testing.T, path string, major, minor uint32) {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR || st.Rdev != unix.Mkdev(major, minor) {
		t.Fatalf("%s is no longer the character device %d:%d (mode %#o, size %d)", path, major, minor, st.Mode, st.Size)
	}
}

// A device with the numbers of /dev/full fails every write with ENOSPC:
// the error is reported, naming the file, and the device is not replaced.
// (Before, the temporary file was renamed over it: a 36 KB CSV file where
// /dev/full had been, and exit status 0.)
func TestFullDevice(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			full := mknod(t, dir, "full", 1, 7)
			link := filepath.Join(dir, "link")
			symlink(t, "full", link)
			if err := CheckWritable(full); err != nil {
				t.Fatalf("CheckWritable: %v (it opens; only writes fail)", err)
			}
			for _, p := range []string{full, link} {
				for _, size := range []int{10, 200 << 10} { // in Commit's flush, in Write
					err := w.write(p, strings.Repeat("x", size))
					assertError(t, err, w.name, p, "no space left on device")
					if !errors.Is(err, syscall.ENOSPC) {
						t.Fatalf("%v is not ENOSPC", err)
					}
				}
			}
			assertDevice(t, full, 1, 7)
			assertLink(t, link, "full")
			assertOnly(t, dir, "full", "link")
		})
	}
}

// A device with the numbers of /dev/null takes the writes (and cannot
// sync, which is not an error) and stays a device.
func TestNullDevice(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			null := mknod(t, dir, "null", 1, 3)
			if err := CheckWritable(null); err != nil {
				t.Fatal(err)
			}
			if err := w.write(null, strings.Repeat("trace,line\n", 10000)); err != nil {
				t.Fatal(err)
			}
			assertDevice(t, null, 1, 3)
			assertOnly(t, dir, "null")
		})
	}
}

// /dev/stdout is a link to /proc/self/fd/1, which the kernel alone can
// follow. Writing through such a link (here to a pipe's descriptor, by
// the same two links /dev/stdout takes) writes to the pipe.
func TestProcessDescriptorPipe(t *testing.T) {
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer pw.Close()
	// A write that went elsewhere fails the test instead of hanging it.
	if err := r.SetReadDeadline(time.Now().Add(deadline)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stdout := filepath.Join(dir, "stdout")
	symlink(t, fmt.Sprintf("/proc/self/fd/%d", pw.Fd()), stdout)
	for _, p := range []string{stdout, fmt.Sprintf("/dev/fd/%d", pw.Fd())} {
		if err := CheckWritable(p); err != nil {
			t.Fatalf("CheckWritable(%s): %v", p, err)
		}
		for _, w := range writers {
			want := w.name + " " + p + "\n"
			if err := w.write(p, want); err != nil { // less than the pipe holds
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			if _, err := io.ReadFull(r, got); err != nil || string(got) != want {
				t.Fatalf("read %q, %v from the pipe; want %q", got, err, want)
			}
		}
	}
	assertLink(t, stdout, fmt.Sprintf("/proc/self/fd/%d", pw.Fd()))
	assertOnly(t, dir, "stdout")
}

// /dev/stdout of a process whose output goes to a file (`> out.json`):
// what is written goes into that same file, after what the process
// printed before and before what it prints after, as with the shell's
// `2>&1`; the file is not replaced by another, and the descriptor stays
// open.
func TestProcessDescriptorFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	f, err := os.Create(out) // as the shell's `>`: no O_APPEND
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("printed before\n"); err != nil {
		t.Fatal(err)
	}
	before := inode(t, out)
	stdout := filepath.Join(dir, "stdout")
	symlink(t, fmt.Sprintf("/proc/self/fd/%d", f.Fd()), stdout)
	for _, p := range []string{fmt.Sprintf("/proc/self/fd/%d", f.Fd()), stdout} {
		if err := CheckWritable(p); err != nil {
			t.Fatal(err)
		}
		for _, w := range writers {
			if err := w.write(p, w.name+"\n"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := f.WriteString("printed after\n"); err != nil {
		t.Fatalf("the descriptor was closed: %v", err)
	}
	assertContent(t, out, "printed before\nWriteFile\nCreate\nWriteFile\nCreate\nprinted after\n")
	if inode(t, out) != before {
		t.Fatal("the file was replaced: it is no longer the one the descriptor is open on")
	}
	assertOnly(t, dir, "out.txt", "stdout")
}

// /dev/stdin, or any descriptor open only for reading, is an error.
func TestProcessDescriptorReadOnly(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	writeFile(t, in, "input", 0o644)
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	for name, check := range map[string]func(string) error{
		"CheckWritable": CheckWritable,
		"WriteFile":     func(p string) error { return writers[0].write(p, "x") },
	} {
		assertError(t, check(p), name, p, "open for reading only")
	}
	assertContent(t, in, "input")
}

// CheckWritable does not open a FIFO: a reader waiting on it would take
// the check's close as the end of the data. inotify sees every open.
func TestCheckWritableDoesNotOpenFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	defer unix.Close(in)
	if _, err := unix.InotifyAddWatch(in, fifo, unix.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	opens := func() int {
		buf := make([]byte, 4096)
		n, err := unix.Read(in, buf)
		if errors.Is(err, unix.EAGAIN) {
			return 0
		}
		if err != nil {
			t.Fatal(err)
		}
		return n / unix.SizeofInotifyEvent // no names: events on the file itself
	}
	// Prove the watch works: an open that cannot block is seen.
	if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
		f.Close()
	}
	if n := opens(); n != 1 {
		t.Fatalf("inotify saw %d opens of the FIFO, want 1", n)
	}
	if err := CheckWritable(fifo); err != nil {
		t.Fatal(err)
	}
	if n := opens(); n != 0 {
		t.Fatalf("CheckWritable opened the FIFO (%d opens)", n)
	}
}

// A write that fails part way (here the file size limit, RLIMIT_FSIZE,
// which fails writes with EFBIG as a full disk fails them with ENOSPC)
// is reported, naming the file, and the old file is left intact.
func TestFailingWriteKeepsOldFile(t *testing.T) {
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	const limit = 1 << 20
	if old.Cur < 2*limit {
		t.Skipf("the file size limit is already %d bytes", old.Cur)
	}
	// Go ignores SIGXFSZ, so the write fails instead of killing the test.
	lim := old
	lim.Cur = limit
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	defer unix.Setrlimit(unix.RLIMIT_FSIZE, &old)

	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "trace.csv")
			writeFile(t, path, "the old trace\n", 0o644)
			err := w.write(path, strings.Repeat("1,2,3,4,5,6,7\n", 2*limit/14))
			assertError(t, err, w.name, path, "file too large")
			if !errors.Is(err, syscall.EFBIG) {
				t.Fatalf("%v is not EFBIG", err)
			}
			assertContent(t, path, "the old trace\n")
			assertOnly(t, dir, "trace.csv")
		})
	}
}

func inode(t *testing.T, path string) uint64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Sys().(*syscall.Stat_t).Ino
}
