//go:build linux

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Commit can fail after every byte was handed to the temporary file: in
// its last flush, or in the rename over the name. Whatever fails, the
// error names the file, the temporary file is removed, and what the name
// held is left as it was. The failures are made in ways that work as root
// (file permissions do not stop root): the file size limit, a directory
// where the file was, and an immutable file.

// commitWriters are the two ways to write a file, with a hook run after
// the content was written without an error, just before the commit.
var commitWriters = []struct {
	name  string
	write func(path, content string, beforeCommit func()) error
}{
	{"WriteFile", func(path, content string, beforeCommit func()) error {
		return WriteFile(path, func(w io.Writer) error {
			if err := writePieces(w.(io.StringWriter), content); err != nil {
				return err
			}
			beforeCommit()
			return nil // WriteFile commits
		})
	}},
	{"Create", func(path, content string, beforeCommit func()) error {
		f, err := Create(path)
		if err != nil {
			return err
		}
		defer f.Abort()
		if err := writePieces(f, content); err != nil {
			return err
		}
		beforeCommit()
		return f.Commit()
	}},
}

// writePieces writes content 1000 bytes at a time, as a trace is written.
// Pieces smaller than the buffer keep it from writing through (a large
// write to an empty buffer goes straight to the file), so the file is
// written a whole buffer at a time, and the rest at the commit.
func writePieces(w io.StringWriter, content string) error {
	for len(content) > 0 {
		n := min(len(content), 1000)
		if _, err := w.WriteString(content[:n]); err != nil {
			return err
		}
		content = content[n:]
	}
	return nil
}

// limitFileSize sets this process's file size limit (RLIMIT_FSIZE) to n
// bytes until the test ends: a write past it fails with EFBIG, as a write
// to a full disk fails with ENOSPC, for root too. Go ignores SIGXFSZ, so
// the write fails instead of killing the test.
func limitFileSize(t *testing.T, n uint64) {
	t.Helper()
	var old unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if old.Cur < 2*n {
		t.Skipf("the file size limit is already %d bytes", old.Cur)
	}
	lim := old
	lim.Cur = n
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Setrlimit(unix.RLIMIT_FSIZE, &old) })
}

// The commit's flush fails: every Write succeeded, filling the file a
// buffer at a time exactly up to the size limit, and the last bytes,
// still in the buffer, do not fit. With and without an old file.
func TestCommitFlushFails(t *testing.T) {
	const limit = 16 * bufSize // the writes fill it exactly
	limitFileSize(t, limit)
	content := strings.Repeat("x", limit) + "1,2,3,4,5\n"
	for _, w := range commitWriters {
		for _, old := range []bool{true, false} {
			dir := t.TempDir()
			path := filepath.Join(dir, "trace.csv")
			if old {
				writeFile(t, path, "the old trace\n", 0o644)
			}
			written := false
			err := w.write(path, content, func() { written = true })
			if !written {
				t.Fatalf("%s: a write failed before the commit: %v", w.name, err)
			}
			assertError(t, err, w.name, path, "file too large")
			if !errors.Is(err, syscall.EFBIG) {
				t.Fatalf("%s: %v is not EFBIG", w.name, err)
			}
			if old {
				assertContent(t, path, "the old trace\n")
				assertOnly(t, dir, "trace.csv")
			} else {
				assertOnly(t, dir)
			}
		}
	}
}

// A caller that ignores a failed Write and commits anyway gets the first
// error from Commit, and no file: the partial temporary file is removed,
// the old file kept.
func TestCommitAfterIgnoredWriteError(t *testing.T) {
	const limit = 1 << 20
	limitFileSize(t, limit)
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.csv")
	writeFile(t, path, "the old trace\n", 0o644)
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	line := strings.Repeat("1,2,3,4,5,6,7\n", 1000)
	var first error
	for written := 0; written < 2*limit; written += len(line) {
		if _, err := f.WriteString(line); err != nil && first == nil {
			first = err
		}
	}
	if first == nil {
		t.Fatalf("writing %d bytes under a limit of %d did not fail", 2*limit, limit)
	}
	err = f.Commit()
	if err != first {
		t.Fatalf("Commit returned %v, want the first write error, %v", err, first)
	}
	assertError(t, err, "Commit", path, "file too large")
	assertContent(t, path, "the old trace\n")
	assertOnly(t, dir, "trace.csv")
}

// The rename fails: after the content was written, the name became a
// directory, empty or not. os.Rename will not put a file over a directory
// (it says EEXIST before rename(2) can say EISDIR). The directory and its
// files stay.
func TestCommitRenameOntoDirectory(t *testing.T) {
	for _, w := range commitWriters {
		for _, inside := range [][]string{nil, {"inside"}} {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.json")
			writeFile(t, path, "old", 0o644)
			err := w.write(path, `{"new": true}`, func() {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				mkdir(t, dir, "out.json")
				for _, name := range inside {
					writeFile(t, filepath.Join(path, name), "kept", 0o644)
				}
			})
			assertError(t, err, w.name, path, "file exists")
			if !errors.Is(err, syscall.EEXIST) {
				t.Fatalf("%s: %v is not EEXIST", w.name, err)
			}
			if !mode(t, path).IsDir() {
				t.Fatalf("%s: %s is no longer a directory", w.name, path)
			}
			for _, name := range inside {
				assertContent(t, filepath.Join(path, name), "kept")
			}
			assertOnly(t, path, inside...)
			assertOnly(t, dir, "out.json")
		}
	}
}

// fsImmutable is FS_IMMUTABLE_FL (linux/fs.h), which x/sys/unix does not
// name: an immutable file cannot be changed, renamed, replaced or
// removed, by root either.
const fsImmutable = 0x10

// setImmutable makes path immutable until the test ends, or skips the
// test where that cannot be done (a file system without the flag, such as
// tmpfs, or a process without CAP_LINUX_IMMUTABLE).
func setImmutable(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := int(f.Fd())
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err == nil {
		err = unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags|fsImmutable))
	}
	if err != nil {
		t.Skipf("cannot make %s immutable: %v", path, err)
	}
	// Before t.TempDir's own cleanup, which could not remove the file.
	t.Cleanup(func() {
		f, err := os.Open(path)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if err := unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags)); err != nil {
			t.Error(err)
		}
	})
}

// The rename fails over an old file that became immutable after the
// content was written (EPERM): the old file keeps its content.
func TestCommitRenameOntoImmutableFile(t *testing.T) {
	for _, w := range commitWriters {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state.json")
			writeFile(t, path, "the old state", 0o644)
			err := w.write(path, "the new state", func() { setImmutable(t, path) })
			assertError(t, err, w.name, path, "operation not permitted")
			if !errors.Is(err, syscall.EPERM) {
				t.Fatalf("%v is not EPERM", err)
			}
			assertContent(t, path, "the old state")
			assertOnly(t, dir, "state.json")
		})
	}
}
