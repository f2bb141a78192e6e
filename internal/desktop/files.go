package desktop

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/interpdemo/interpdemo/atomicfile"
	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/replay"
)

// diskFiles are the demo's files on disk, each written atomically
// (package atomicfile). Writing a FIFO waits for a reader; sig's signals
// end that wait (interrupts.filesContext), nil: only atomicfile.FIFOWait.
type diskFiles struct{ sig *interrupts }

var _ demo.Files = diskFiles{}

func (diskFiles) CheckWritable(path string) error { return atomicfile.CheckWritable(path) }

func (d diskFiles) Create(path string) (demo.File, error) {
	f, err := atomicfile.CreateContext(d.context(), path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (d diskFiles) WriteFile(path string, write func(io.Writer) error) error {
	return atomicfile.WriteFileContext(d.context(), path, write)
}

// context is what ends a write's wait for a FIFO's reader now.
func (d diskFiles) context() context.Context {
	if d.sig == nil {
		return context.Background()
	}
	return d.sig.filesContext()
}

func (diskFiles) ReadRecording(path string) (*replay.Recording, error) {
	return replay.ReadFile(path)
}

// SameFile: one regular file (hard or symbolic links to it included), or
// one path where nothing is yet.
func (diskFiles) SameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return sa.Mode().IsRegular() && os.SameFile(sa, sb)
	case errors.Is(errA, fs.ErrNotExist) && errors.Is(errB, fs.ErrNotExist):
		pa, errA := filepath.Abs(a)
		pb, errB := filepath.Abs(b)
		return errA == nil && errB == nil && pa == pb
	}
	return false
}
