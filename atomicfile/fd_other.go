//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// dupFile and fdWritable serve /proc/<pid>/fd/N, which resolve finds only
// on Linux. (Elsewhere /dev/fd/N is a device whose opening duplicates the
// descriptor already.)
func dupFile(fd int, name string) (*os.File, error) { return nil, errors.ErrUnsupported }

func fdWritable(fd int) error { return errors.ErrUnsupported }
