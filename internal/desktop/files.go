package desktop

import (
	"io"

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
