package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writer is one of the two ways to write a file: WriteFile, or the
// streaming Create, Write, Commit.
type writer struct {
	name  string
	write func(path, content string) error
}

var writers = []writer{
	{"WriteFile", func(path, content string) error {
		return WriteFile(path, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		})
	}},
	{"Create", func(path, content string) error {
		f, err := Create(path)
		if err != nil {
			return err
		}
		defer f.Abort()
		// In pieces, as a trace is written: a line at a time.
		for len(content) > 0 {
			n := min(len(content), 1000)
			if _, err := f.WriteString(content[:n]); err != nil {
				return err
			}
			content = content[n:]
		}
		return f.Commit()
	}},
}

func TestWriteFileReplacesContent(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.txt")
			writeFile(t, path, "old", 0o644)
			if err := w.write(path, "new content"); err != nil {
				t.Fatal(err)
			}
			assertContent(t, path, "new content")
			assertOnly(t, dir, "out.txt")
		})
	}
}

func TestWriteMissingFile(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "new.csv")
			if err := w.write(path, "a,b\n1,2\n"); err != nil {
				t.Fatal(err)
			}
			assertContent(t, path, "a,b\n1,2\n")
			assertOnly(t, dir, "new.csv")
		})
	}
}

// A relative name is taken from the working directory, and the temporary
// file is made there too.
func TestRelativeName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, w := range writers {
		if err := w.write("rel.txt", w.name); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		assertContent(t, filepath.Join(dir, "rel.txt"), w.name)
	}
	assertOnly(t, dir, "rel.txt")
}

func TestFailedWriteKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	writeFile(t, path, "good", 0o644)
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("half", 1<<15)) // more than the buffer
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want it to wrap boom and name %s", err, path)
	}
	assertContent(t, path, "good")
	assertOnly(t, dir, "out.txt")
}

func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.csv")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.Repeat("partial", 1<<15))
	f.Abort()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("destination exists after abort: %v", err)
	}
	assertOnly(t, dir)
	if _, err := f.Write([]byte("x")); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("write after abort: err = %v, want an error naming %s", err, path)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("commit after abort succeeded")
	}
	f.Abort() // again: nothing happens
}

func TestAbortAfterCommitKeepsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stats.json")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	assertContent(t, path, "{}")
	if err := f.Commit(); err == nil {
		t.Fatal("second commit succeeded")
	}
}

func TestDestinationIsDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x", 0o644)
	for _, tc := range []struct{ path, want string }{
		{dir, "is a directory"},
		{dir + string(filepath.Separator), "is a directory"},
		{filepath.Join(dir, "."), "is a directory"},
		{file + string(filepath.Separator), "not a directory"},
	} {
		for name, check := range map[string]func(string) error{
			"CheckWritable": CheckWritable,
			"Create":        func(p string) error { _, err := Create(p); return err },
			"WriteFile":     func(p string) error { return writers[0].write(p, "x") },
		} {
			assertError(t, check(tc.path), name, tc.path, tc.want)
		}
	}
	assertContent(t, file, "x")
	assertOnly(t, dir, "file")
}

func TestEmptyName(t *testing.T) {
	for _, err := range []error{CheckWritable(""), writers[0].write("", "x"), writers[1].write("", "x")} {
		if err == nil || !strings.Contains(err.Error(), "empty file name") {
			t.Errorf("err = %v, want 'empty file name'", err)
		}
	}
}

func TestMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "f.json")
	for name, check := range map[string]func(string) error{
		"CheckWritable": CheckWritable,
		"WriteFile":     func(p string) error { return writers[0].write(p, "x") },
	} {
		err := check(path)
		assertError(t, err, name, path, "no such file or directory")
		if strings.Contains(err.Error(), ".check-") || strings.Contains(err.Error(), ".tmp-") {
			t.Fatalf("error names the temporary file: %v", err)
		}
	}
}

func TestCheckWritableChangesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stats.json")
	if err := CheckWritable(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("CheckWritable created the file")
	}
	writeFile(t, path, "old", 0o600)
	if err := CheckWritable(path); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "old")
	assertOnly(t, dir, "stats.json")
}

// A long name still leaves room for the temporary file's affixes.
func TestLongName(t *testing.T) {
	dir := t.TempDir()
	base := strings.Repeat("n", 250)
	if err := writers[0].write(filepath.Join(dir, base), "long"); err != nil {
		t.Fatal(err)
	}
	assertContent(t, filepath.Join(dir, base), "long")
	assertOnly(t, dir, base)
}

func TestZeroAllocsPerWrite(t *testing.T) {
	f, err := Create(filepath.Join(t.TempDir(), "trace.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	line := []byte("12,34,56,78\n")
	if a := testing.AllocsPerRun(10000, func() { f.Write(line) }); a != 0 {
		t.Errorf("Write: %v allocations per call, want 0", a)
	}
	if a := testing.AllocsPerRun(10000, func() { f.WriteString("12,34,56,78\n") }); a != 0 {
		t.Errorf("WriteString: %v allocations per call, want 0", a)
	}
}

// writeFile makes path hold content, with permissions perm exactly.
func writeFile(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // past the umask
		t.Fatal(err)
	}
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		if len(got) > 80 {
			got = append(got[:80:80], "..."...)
		}
		t.Fatalf("%s holds %q, want %q", path, got, want)
	}
}

// assertError checks that err is one line naming path, and says want.
func assertError(t *testing.T, err error, what, path, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s(%s): no error, want %q", what, path, want)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "cannot write "+path+": ") || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Fatalf("%s(%s): err = %q, want one line \"cannot write %s: ...%s...\"", what, path, msg, path, want)
	}
}

// assertOnly checks that dir holds exactly the named entries (so no
// temporary file was left behind).
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
	if strings.Join(got, "\x00") != strings.Join(names, "\x00") {
		t.Fatalf("%s holds %q, want %q", dir, got, names)
	}
}
