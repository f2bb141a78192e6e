// Package atomicfile writes output files so that a reader never sees a
// half-written one, and so that nothing the name points at is destroyed.
//
// What happens depends on what the name is when writing starts:
//
//   - A regular file, or nothing yet: the data goes to a temporary file in
//     the same directory, which is synced, closed and renamed over the name;
//     then the directory is synced. A crash, a kill or an error at any point
//     leaves either the old file or the new one, never a mix. A replaced
//     file keeps its permission bits; a new one gets 0666 less the umask, as
//     os.Create would give it.
//   - A symbolic link, or a chain of them: the links are followed and what
//     the last one points to is replaced (or created, if the link dangles)
//     as above, in its own directory. The links stay links. A loop of links
//     is an error.
//   - A device, a FIFO, or a process's open file (/dev/stdout, /dev/fd/N,
//     anything under /proc or /sys): the data is written straight to it,
//     with no temporary file and no rename. Such a target cannot be updated
//     atomically, and replacing it would destroy it: renaming a file over
//     /dev/null would turn the system's null device into a text file.
//     A FIFO takes a writer only while a reader has it open: writing one
//     waits for a reader to open it, but only for FIFOWait (10 seconds),
//     and then fails ("cannot write fifo: no reader opened the FIFO within
//     10s") rather than hang; CreateContext and WriteFileContext end that
//     wait early too, when their context is done (the user's Ctrl-C).
//     One of this process's own descriptors
//     (/dev/stdout is /proc/self/fd/1 on Linux) is written through a
//     duplicate of it, so that what is written there lands in order with
//     what the process prints, even when its output is a file.
//
// Every write, sync or close error is returned, as one line naming the file
// ("cannot write /dev/full: no space left on device"), and where a regular
// file was being replaced the old one is left as it was. The only errors
// ignored are refusals to sync by what cannot (pipes, terminals and
// /dev/null; a directory on a file system that does not sync directories):
// they say nothing about whether the data arrived.
//
// Write through a File when the output is produced bit by bit, and with
// WriteFile when a function produces it all:
//
//	err := atomicfile.WriteFile(path, func(w io.Writer) error {
//		return json.NewEncoder(w).Encode(v)
//	})
//
// CheckWritable tells early, before any work is done, whether a later write
// can succeed.
//
// The package is a module of its own,
// github.com/interpdemo/interpdemo/atomicfile, and needs nothing but
// golang.org/x/sys: any program can use it.
package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// File is a file being written. Write to it, then Commit to finish, or
// Abort to give up. Writes are buffered.
//
// For a regular file (see the package documentation) nothing is visible
// under the name until Commit, and Abort leaves the old file, or no file,
// as before. For a device or FIFO the data goes out as the buffer fills, so
// Abort cannot take back what was already written; it only stops.
type File struct {
	name string   // the name the caller gave, for errors
	t    target   // what the name resolved to
	f    *os.File // the temporary file, or the device itself
	buf  *bufio.Writer
	err  error // the first write error, naming the file
	done bool  // Commit or Abort was called
}

// bufSize is the size of a File's write buffer.
const bufSize = 64 << 10

// FIFOWait is how long writing a FIFO waits for a reader to open it
// before it fails. Zero or less fails at once when no reader has it open.
// Set it before writing starts, not while a write may be under way.
var FIFOWait = 10 * time.Second

// Create starts writing name. For a regular file or a new one it creates
// the temporary file; for a device or FIFO it opens the target for writing
// (for a FIFO, waiting up to FIFOWait for a reader to open it).
func Create(name string) (*File, error) {
	return CreateContext(context.Background(), name)
}

// CreateContext is Create, with ctx ending its one wait: for a FIFO's
// reader. When ctx is done before a reader has opened the FIFO, it fails
// at once ("cannot write fifo: gave up waiting for a reader to open the
// FIFO: CAUSE", CAUSE being context.Cause(ctx)); a reader that has it
// open already still gets the data, ctx done or not. Nothing else is cut
// short by ctx: a regular file, a device or a descriptor is written
// whole, since what ends early there is only data lost, and the caller
// that gives up waiting on one FIFO (a Ctrl-C while a program's files
// are written) still wants the others.
func CreateContext(ctx context.Context, name string) (*File, error) {
	t, err := resolve(name)
	if err != nil {
		return nil, pathError(name, err)
	}
	var f *os.File
	switch {
	case t.fd >= 0:
		f, err = dupFile(t.fd, t.path)
	case t.fifo:
		f, err = openFIFO(ctx, t.path, t.openFlags(), FIFOWait)
	case t.direct:
		f, err = os.OpenFile(t.path, t.openFlags(), 0)
	default:
		f, err = createTemp(t.path, ".tmp-")
		if err == nil && t.exists {
			if err = f.Chmod(t.perm); err != nil {
				f.Close()
				os.Remove(f.Name())
			}
		}
	}
	if err != nil {
		return nil, pathError(name, err)
	}
	return &File{name: name, t: t, f: f, buf: bufio.NewWriterSize(f, bufSize)}, nil
}

// Write implements io.Writer. After an error every later Write, and
// Commit, returns that first error.
func (f *File) Write(p []byte) (int, error) {
	if err := f.writable(); err != nil {
		return 0, err
	}
	n, err := f.buf.Write(p)
	if err != nil {
		return n, f.fail(err)
	}
	return n, nil
}

// WriteString implements io.StringWriter.
func (f *File) WriteString(s string) (int, error) {
	if err := f.writable(); err != nil {
		return 0, err
	}
	n, err := f.buf.WriteString(s)
	if err != nil {
		return n, f.fail(err)
	}
	return n, nil
}

func (f *File) writable() error {
	if f.err != nil {
		return f.err
	}
	if f.done {
		return fmt.Errorf("cannot write %s: write after commit or abort", f.name)
	}
	return nil
}

// fail records err, the first error, as one line naming the file, and
// returns what it recorded.
func (f *File) fail(err error) error {
	if f.err == nil {
		f.err = pathError(f.name, err)
	}
	return f.err
}

// Commit finishes the write and reports the first error of any write,
// flush, sync or close.
//
// For a regular file it flushes, syncs and closes the temporary file,
// renames it over the target and syncs the directory. On any error before
// the rename the temporary file is removed and the target left as it was.
//
// For a device or FIFO it flushes, syncs (a device that cannot sync is not
// an error) and closes it.
func (f *File) Commit() error {
	if f.done {
		if f.err != nil {
			return f.err
		}
		return fmt.Errorf("cannot write %s: commit after commit or abort", f.name)
	}
	f.done = true
	if f.err != nil {
		f.f.Close()
		f.removeTemp()
		return f.err
	}
	err := f.buf.Flush()
	if err == nil {
		err = f.f.Sync()
		if f.t.direct && cannotSync(err) {
			err = nil
		}
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !f.t.direct {
		err = os.Rename(f.f.Name(), f.t.path)
	}
	if err != nil {
		f.removeTemp()
		return f.fail(err)
	}
	if !f.t.direct {
		if err := syncDir(filepath.Dir(f.t.path)); err != nil {
			// The new file is in place; only its durability is in doubt.
			return f.fail(fmt.Errorf("syncing its directory: %w", err))
		}
	}
	return nil
}

// Abort gives up: it closes the file and, for a regular file, removes the
// temporary file, leaving the target as it was. Data already written to a
// device or FIFO stays written; what is still buffered is dropped. Abort is
// safe to call after Commit (it then does nothing), so `defer f.Abort()`
// is the usual pattern.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	f.removeTemp()
}

func (f *File) removeTemp() {
	if !f.t.direct {
		os.Remove(f.f.Name())
	}
}

// WriteFile writes what write produces to name (see the package
// documentation for what that means for each kind of target). If write
// fails, or writing does, nothing is committed and the error names name.
func WriteFile(name string, write func(w io.Writer) error) error {
	return WriteFileContext(context.Background(), name, write)
}

// WriteFileContext is WriteFile, with ctx ending the wait for a FIFO's
// reader as CreateContext's does, and nothing else.
func WriteFileContext(ctx context.Context, name string, write func(w io.Writer) error) error {
	f, err := CreateContext(ctx, name)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		if f.err != nil {
			return f.err // the file's own error is the cause
		}
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	return f.Commit()
}

// CheckWritable reports, without changing anything, whether name can be
// written: for a regular file or a new one, that its directory (the final
// target's, for a symbolic link) exists and takes new files; for a device,
// that it opens for writing (without blocking); for one of this process's
// descriptors (/dev/stdout), that it is open for writing; for a FIFO, that
// its permissions allow writing. A FIFO is not opened: that would wait for
// a reader (see FIFOWait) or, if one is waiting, hand it an early end of
// file. A program can check the output files its flags name with it
// before it starts its work.
//
// A device that opens but fails every write (/dev/full) passes the check;
// the write reports the error.
func CheckWritable(name string) error {
	t, err := resolve(name)
	if err != nil {
		return pathError(name, err)
	}
	switch {
	case t.fd >= 0:
		err = fdWritable(t.fd)
	case t.fifo:
		err = canWrite(t.path)
	case t.direct:
		var f *os.File
		if f, err = os.OpenFile(t.path, t.openFlags()|nonBlock, 0); err == nil {
			f.Close()
		}
	default:
		var f *os.File
		if f, err = createTemp(t.path, ".check-"); err == nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	if err != nil {
		return pathError(name, err)
	}
	return nil
}

// createTemp creates a new file next to path, named ".BASE" + infix +
// random digits, for writing. Unlike os.CreateTemp, which makes it 0600, it
// asks for 0666 and lets the umask take its bits, as os.Create does: the
// file becomes path, and should get the permissions a new file would.
func createTemp(path, infix string) (*os.File, error) {
	dir, base := filepath.Split(path)
	if len(base) > 200 { // leave room for the affixes under NAME_MAX (255)
		base = base[:200]
	}
	var err error
	for range 100 {
		name := dir + "." + base + infix + strconv.FormatUint(uint64(rand.Uint32()), 36)
		var f *os.File
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, err
}

// sleep waits d between tries to open a FIFO, or less if done is closed
// first; tests replace it to see the tries.
var sleep = func(done <-chan struct{}, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-done:
	}
}

// openFIFO opens the FIFO path for writing with flags, waiting up to wait
// for a reader, or until ctx is done. A plain open would wait as long as
// it takes, with no way to give up, in a system call that no signal ends:
// it is opened without blocking instead, which fails at once while no
// reader has it open, and tried again, the waits between tries growing
// from a millisecond to 20, until one is, wait has passed or ctx is done.
// It is always tried once: a reader already there gets the data whatever
// ctx says.
//
// Once open, its writes block as they would have: where the runtime polls
// the FIFO (epoll on Linux), a full pipe parks the writing goroutine until
// the reader makes room; where it does not (kqueue on Darwin), the
// descriptor is made blocking again, as a write that found the pipe full
// would otherwise fail with EAGAIN.
func openFIFO(ctx context.Context, path string, flags int, wait time.Duration) (*os.File, error) {
	end := time.Now().Add(wait)
	pause := time.Millisecond
	for {
		f, err := os.OpenFile(path, flags|nonBlock, 0)
		if err == nil {
			if err = blockUnpolled(f); err != nil {
				f.Close()
				return nil, err
			}
			return f, nil
		}
		if !noReader(err) {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, gaveUpError{cause: context.Cause(ctx), ctxErr: ctx.Err()}
		}
		left := time.Until(end)
		if left <= 0 {
			return nil, noReaderError{wait: max(wait, 0)}
		}
		sleep(ctx.Done(), min(pause, left))
		pause = min(2*pause, 20*time.Millisecond)
	}
}

// noReaderError is the error of a FIFO that no reader opened within wait.
// It is an os.ErrDeadlineExceeded.
type noReaderError struct{ wait time.Duration }

func (e noReaderError) Error() string {
	return "no reader opened the FIFO within " + e.wait.String()
}

func (noReaderError) Is(target error) bool { return target == os.ErrDeadlineExceeded }

// gaveUpError is the error of a wait for a FIFO's reader that its context
// ended: it says the context's cause (the caller's word on why: "interrupted
// by SIGINT"), and is both that cause and the context's error
// (context.Canceled) to errors.Is.
type gaveUpError struct{ cause, ctxErr error }

func (e gaveUpError) Error() string {
	return "gave up waiting for a reader to open the FIFO: " + e.cause.Error()
}

func (e gaveUpError) Unwrap() []error { return []error{e.cause, e.ctxErr} }

// blockUnpolled makes f's descriptor, opened without blocking, blocking
// again if the runtime does not poll it; a polled one (for which setting a
// deadline works) stays as it is, and its writes wait in the poller.
func blockUnpolled(f *os.File) error {
	if err := f.SetWriteDeadline(time.Time{}); !errors.Is(err, os.ErrNoDeadline) {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	if cerr := rc.Control(func(fd uintptr) { err = setBlocking(fd) }); cerr != nil {
		return cerr
	}
	return err
}

// cannotSync reports whether err is a device's refusal to sync, not a
// failure: fsync of a pipe, a terminal or /dev/null fails with EINVAL, and
// some devices say it is not supported.
func cannotSync(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported)
}

// syncDir syncs directory dir, so that a rename in it survives a crash. A
// directory that cannot be opened (no read permission) or synced (some
// file systems refuse) is not an error: there is nothing more to do.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !cannotSync(err) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return err
	}
	return nil
}

// pathError returns err as one line naming name: "cannot write NAME:
// CAUSE". It drops *fs.PathError and *os.LinkError wrappers, whose paths
// are temporary files or resolved targets, not what the user asked for;
// the cause stays reachable with errors.Is (fs.ErrNotExist, syscall.ENOSPC).
func pathError(name string, err error) error {
	switch e := err.(type) {
	case *fs.PathError:
		err = e.Err
	case *os.LinkError:
		err = e.Err
	}
	return fmt.Errorf("cannot write %s: %w", name, err)
}
