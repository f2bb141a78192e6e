package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/interpdemo/interpdemo/atomicfile"
)

// WriteFile writes rec to path atomically: to a temporary file in the same
// directory, synced, then renamed over path. A crash, a kill or an error at
// any point leaves either the old file or the new one, never a mix, and no
// temporary file behind (except after a crash). A symbolic link at path is
// followed and what it points to is replaced; the link stays. A device or
// FIFO (/dev/stdout, a pipe to another program) is written straight to,
// never replaced.
func (rec *Recording) WriteFile(path string) error {
	return rec.writeFile(path, nil)
}

// writeFile is WriteFile with a hook that wraps the temporary file's
// writer, for tests to make the write fail part way.
func (rec *Recording) writeFile(path string, wrap func(io.Writer) io.Writer) error {
	b, err := rec.MarshalBinary()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		if wrap != nil {
			w = wrap(w)
		}
		_, err := w.Write(b)
		return err
	})
}

// ReadFile reads and decodes the recording at path. It checks the file's
// size before reading, and reads at most MaxFileSize bytes whatever the
// file claims. The error is one line naming the file and the problem:
//
//	replay file demo.rec: truncated: 57 bytes, the header says 181
//	replay file demo.rec: no such file or directory
func ReadFile(path string) (*Recording, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	rec, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("replay file %s: %v", path, err)
	}
	return rec, nil
}

// ReadBytes decodes a recording read from elsewhere (a web page fetches
// one by URL) with ReadFile's errors and limits: name is what the errors
// call it.
//
//	replay file http://127.0.0.1:8080/demo.rec: checksum mismatch ...
func ReadBytes(name string, b []byte) (*Recording, error) {
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("replay file %s: more than the %d-byte limit", name, MaxFileSize)
	}
	rec, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("replay file %s: %v", name, err)
	}
	return rec, nil
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fileError(path, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("replay file %s: is a directory", path)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("replay file %s: %d bytes, more than the %d-byte limit", path, st.Size(), MaxFileSize)
	}
	// The size may be wrong (a file still growing, a pipe, a device):
	// read one byte past the limit to tell.
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fileError(path, err)
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("replay file %s: more than the %d-byte limit", path, MaxFileSize)
	}
	return b, nil
}

// fileError names path once: it drops the *PathError wrapper, which would
// name it again, and keeps the cause for errors.Is (fs.ErrNotExist).
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("replay file %s: %w", path, err)
}
