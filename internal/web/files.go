package web

import (
	"errors"
	"fmt"
	"io"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/replay"
)

// errNoFiles refuses the flags that write files: a page has no files.
var errNoFiles = errors.New("a page writes no files; the native demo does")

// pageFiles are the page's files: none to write; the one recording that
// ?replay names, fetched before the flags are checked (data, or the
// fetch's error err).
type pageFiles struct {
	url  string
	data []byte
	err  error
}

var _ demo.Files = (*pageFiles)(nil)

func (*pageFiles) CheckWritable(string) error                    { return errNoFiles }
func (*pageFiles) Create(string) (demo.File, error)              { return nil, errNoFiles }
func (*pageFiles) WriteFile(string, func(io.Writer) error) error { return errNoFiles }
func (*pageFiles) SameFile(string, string) bool                  { return false } // none is written

// ReadRecording decodes the fetched recording, with the errors the
// native demo gives for a file.
func (f *pageFiles) ReadRecording(path string) (*replay.Recording, error) {
	switch {
	case path != f.url:
		return nil, fmt.Errorf("replay file %s: not fetched", path)
	case f.err != nil:
		return nil, fmt.Errorf("replay file %s: %v", path, f.err)
	}
	return replay.ReadBytes(path, f.data)
}
