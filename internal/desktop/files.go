package desktop

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/interpdemo/interpdemo/internal/atomicfile"
	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/replay"
)

// diskFiles are the demo's files on disk, each written atomically
// (package atomicfile).
type diskFiles struct{}

var _ demo.Files = diskFiles{}

func (diskFiles) CheckWritable(path string) error { return atomicfile.CheckWritable(path) }

func (diskFiles) Create(path string) (demo.File, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (diskFiles) WriteFile(path string, write func(io.Writer) error) error {
	return atomicfile.WriteFile(path, write)
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
