package atomicfile_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/interpdemo/interpdemo/atomicfile"
)

// Write a file whole with WriteFile: a reader sees the old content or the
// new, never a part; if the function fails, the old file stays.
func ExampleWriteFile() {
	dir, _ := os.MkdirTemp("", "atomicfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state.json")

	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, `{"ticks": 25}`)
		return err
	})
	b, _ := os.ReadFile(path)
	fmt.Println(string(b), err)

	err = atomicfile.WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, `{"ti`)
		return fmt.Errorf("encoder failed")
	})
	b, _ = os.ReadFile(path)
	fmt.Println(string(b))
	fmt.Println(err != nil)
	// Output:
	// {"ticks": 25} <nil>
	// {"ticks": 25}
	// true
}

// Stream a file with Create: write as the data comes, then Commit.
// `defer f.Abort()` throws the temporary file away on any early return.
func ExampleCreate() {
	dir, _ := os.MkdirTemp("", "atomicfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "trace.csv")

	f, err := atomicfile.Create(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Abort()
	f.WriteString("tick,x,y\n")
	for i := range 3 {
		fmt.Fprintf(f, "%d,%d,%d\n", i, 16*i, 12*i)
	}
	if err := f.Commit(); err != nil {
		fmt.Println(err) // "cannot write trace.csv: no space left on device"
		return
	}
	b, _ := os.ReadFile(path)
	fmt.Print(string(b))
	// Output:
	// tick,x,y
	// 0,0,0
	// 1,16,12
	// 2,32,24
}
