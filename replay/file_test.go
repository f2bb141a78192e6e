package replay

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWriteReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.rec")
	rec := goldenRecording()
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rec) {
		t.Fatalf("read back %+v", got)
	}
	assertOnly(t, filepath.Dir(path), "demo.rec")
}

// failAfter is a writer that fails once n bytes went through: a full disk
// in the middle of writing the recording.
type failAfter struct {
	w io.Writer
	n int
}

var errDiskFull = errors.New("no space left on device")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n, _ := f.w.Write(p[:f.n])
		f.n = 0
		return n, errDiskFull
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// TestWriteFileFailureKeepsOldFile writes over a good recording with a
// writer that fails half way, and with a recording that cannot be encoded:
// the good file stays as it was, and no temporary file is left.
func TestWriteFileFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "demo.rec")
	if err := goldenRecording().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)

	bigger, _ := randomScript(newRng(1), 5000).record(10)
	err := bigger.writeFile(path, func(w io.Writer) io.Writer { return &failAfter{w: w, n: 100} })
	if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want the disk-full error naming %s", err, path)
	}
	invalid := goldenRecording()
	invalid.Inputs[0].Count = 0
	if err := invalid.WriteFile(path); err == nil || !strings.Contains(err.Error(), "input run 0 is empty") {
		t.Fatalf("err = %v, want the validation error", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, good) {
		t.Fatal("the good file changed")
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatalf("the good file no longer reads: %v", err)
	}
	assertOnly(t, dir, "demo.rec")
}

func TestWriteFileToDirectory(t *testing.T) {
	dir := t.TempDir()
	err := goldenRecording().WriteFile(dir)
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("err = %v", err)
	}
}

// assertOnly checks that dir holds exactly the named files.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if !reflect.DeepEqual(got, names) {
		t.Fatalf("directory holds %q, want %q", got, names)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.rec")
	bad := filepath.Join(dir, "bad.rec")
	if err := os.WriteFile(bad, []byte("IDRP\x01\x3f\x00\x00\x00short"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.rec")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	empty := filepath.Join(dir, "empty.rec")
	os.WriteFile(empty, nil, 0o644)

	for _, tc := range []struct {
		path, want string
	}{
		{missing, "replay file " + missing + ": no such file or directory"},
		{dir, "replay file " + dir + ": is a directory"},
		{bad, "replay file " + bad + ": truncated: 14 bytes, the header says 76"},
		{huge, "replay file " + huge + ": 67108865 bytes, more than the 67108864-byte limit"},
		{empty, "replay file " + empty + ": empty file"},
	} {
		rec, err := ReadFile(tc.path)
		if err == nil {
			t.Errorf("%s: read %+v", tc.path, rec)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("err = %q\nwant  %q", err, tc.want)
		}
	}
	if _, err := ReadFile(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v is not fs.ErrNotExist", err)
	}
}

// A recording written through a symbolic link replaces what the link
// points to; the link stays a link.
func TestWriteFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.rec")
	link := filepath.Join(dir, "demo.rec")
	if err := os.Symlink("real.rec", link); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	rec := goldenRecording()
	for range 2 { // create the target, then replace it
		if err := rec.WriteFile(link); err != nil {
			t.Fatal(err)
		}
		if to, err := os.Readlink(link); err != nil || to != "real.rec" {
			t.Fatalf("the link is now %q, %v", to, err)
		}
		got, err := ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rec) {
			t.Fatalf("read back %+v", got)
		}
	}
	assertOnly(t, dir, "demo.rec", "real.rec")
}

// ReadBytes says what ReadFile says of the same bytes, under the name it
// is given.
func TestReadBytesMatchesReadFile(t *testing.T) {
	dir := t.TempDir()
	good, err := goldenRecording().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tampered := append([]byte(nil), good...)
	tampered[len(tampered)/2] ^= 1
	for _, b := range [][]byte{good, tampered, []byte("IDRP\x01\x3f\x00\x00\x00short"), nil} {
		path := filepath.Join(dir, "x.rec")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		fromFile, ferr := ReadFile(path)
		fromBytes, berr := ReadBytes(path, b)
		if (ferr == nil) != (berr == nil) || (ferr != nil && ferr.Error() != berr.Error()) {
			t.Errorf("ReadFile: %v; ReadBytes: %v", ferr, berr)
		}
		if ferr == nil && !reflect.DeepEqual(fromFile, fromBytes) {
			t.Error("ReadBytes decoded another recording")
		}
	}
	if _, err := ReadBytes("big", make([]byte, MaxFileSize+1)); err == nil || err.Error() != "replay file big: more than the 67108864-byte limit" {
		t.Errorf("too big: %v", err)
	}
}
