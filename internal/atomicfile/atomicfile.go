// Package atomicfile writes files so that a reader never sees a half-written
// one: the data goes to a temporary file in the same directory, which is
// synced and then renamed over the destination. A crash or a kill at any
// point leaves either the old file or the new one, never a mix.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is a file being written atomically. Write to it, then Commit to put
// it in place, or Abort to throw it away. Writes are buffered.
type File struct {
	path string
	tmp  *os.File
	buf  *bufio.Writer
	done bool
}

// Create starts an atomic write of path. The temporary file lives in the
// same directory as path, so the final rename never crosses file systems.
func Create(path string) (*File, error) {
	if err := checkTarget(path); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPathError(err))
	}
	return &File{path: path, tmp: tmp, buf: bufio.NewWriterSize(tmp, 64<<10)}, nil
}

// Write implements io.Writer.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, errors.New("atomicfile: write after commit or abort")
	}
	return f.buf.Write(p)
}

// WriteString implements io.StringWriter.
func (f *File) WriteString(s string) (int, error) {
	if f.done {
		return 0, errors.New("atomicfile: write after commit or abort")
	}
	return f.buf.WriteString(s)
}

// Commit flushes, syncs and closes the temporary file, renames it over the
// destination and syncs the directory. On any error the temporary file is
// removed and the destination is left as it was.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: commit after commit or abort")
	}
	f.done = true
	name := f.tmp.Name()
	err := f.buf.Flush()
	if err == nil {
		err = f.tmp.Chmod(0o644)
	}
	if err == nil {
		err = f.tmp.Sync()
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, f.path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("cannot write %s: %w", f.path, unwrapPathError(err))
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// Abort throws the temporary file away. It is safe to call after Commit
// (it then does nothing), so `defer f.Abort()` is the usual pattern.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	name := f.tmp.Name()
	f.tmp.Close()
	os.Remove(name)
}

// WriteFile writes what write produces to path atomically.
func WriteFile(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return f.Commit()
}

// CheckWritable reports, without changing anything, whether path can be
// written atomically: its directory exists and takes new files, and path
// itself is not a directory. Flags naming output files are checked with it
// before any window opens.
func CheckWritable(path string) error {
	if err := checkTarget(path); err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPathError(err))
	}
	name := tmp.Name()
	tmp.Close()
	os.Remove(name)
	return nil
}

func checkTarget(path string) error {
	if path == "" {
		return errors.New("empty file name")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write %s: is a directory", path)
	}
	return nil
}

// unwrapPathError drops the *PathError wrapper, whose path is the temporary
// file's name, so that messages name the file the user asked for.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
