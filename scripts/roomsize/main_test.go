package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goFile returns a Go file of exactly lines lines (lines >= 3) whose
// function f runs from line 3 for funcLines lines (0: no function), the
// rest comment lines.
func goFile(t *testing.T, lines, funcLines int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("package p\n\n")
	n := 2
	if funcLines > 0 {
		b.WriteString("func f() {\n")
		for i := 0; i < funcLines-2; i++ {
			b.WriteString("\t_ = 0\n")
		}
		b.WriteString("}\n")
		n += funcLines
	}
	for ; n < lines; n++ {
		b.WriteString("// filler\n")
	}
	if n != lines {
		t.Fatalf("goFile(%d, %d): %d lines", lines, funcLines, n)
	}
	return b.String()
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs the command on dir as make lint does (from the folder, on
// "."), and returns its exit status and its lines.
func runIn(t *testing.T, dir string) (int, []string, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var stdout, stderr bytes.Buffer
	code := run(nil, &stdout, &stderr)
	var lines []string
	if s := strings.TrimSpace(stdout.String()); s != "" {
		lines = strings.Split(s, "\n")
	}
	return code, lines, stderr.String()
}

func TestLimitsPass(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.go":     goFile(t, 800, 80),
		"sub/b.go": goFile(t, 800, 0),
		// Not counted: tests, testdata, vendor, hidden and _ folders.
		"a_test.go":          goFile(t, 900, 100),
		"testdata/big.go":    goFile(t, 900, 100),
		"vendor/big.go":      goFile(t, 900, 100),
		".hidden/big.go":     goFile(t, 900, 100),
		"_old/big.go":        goFile(t, 900, 100),
		"sub/notgo.txt":      goFile(t, 900, 100),
		"sub/c_test.go":      goFile(t, 900, 100),
		"sub/testdata/x.go":  "not Go at all",
		"sub/.git/broken.go": "not Go at all",
	})
	code, lines, stderr := runIn(t, dir)
	if code != 0 || len(lines) != 0 {
		t.Errorf("a file of 800 lines and a function of 80: exit %d, %q, stderr %q; want 0 and nothing", code, lines, stderr)
	}
}

func TestLimitsFail(t *testing.T) {
	methods := "package p\n\ntype T[E any] struct{}\n\n" +
		"func (t *T[E]) m() {\n" + strings.Repeat("\t_ = 0\n", 79) + "}\n\n" +
		"func (T[E]) n() {\n" + strings.Repeat("\t_ = 0\n", 78) + "}\n"
	dir := writeFiles(t, map[string]string{
		"big.go":     goFile(t, 801, 0),
		"sub/f.go":   goFile(t, 100, 81),
		"sub/m.go":   methods,
		"sub/ok.go":  goFile(t, 800, 80),
		"x/nonl.go":  strings.TrimSuffix(goFile(t, 801, 0), "\n"), // the last line without its newline
		"x/none.go":  "package p\n",
		"x/empty.go": "package p\n\nfunc g()\n", // no body: assembly's
	})
	code, lines, stderr := runIn(t, dir)
	want := []string{
		"big.go:1: 801 lines (limit 800)",
		"sub/f.go:3: func f is 81 lines (limit 80)",
		"sub/m.go:5: func (*T).m is 81 lines (limit 80)",
		"x/nonl.go:1: 801 lines (limit 800)",
	}
	if code != 1 || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, lines:\n%s\nwant exit 1, lines:\n%s", code, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(stderr, "4 too big") {
		t.Errorf("stderr %q: want the count, 4 too big", stderr)
	}
}

func TestUnparsable(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.go": "package p\n\nfunc {\n"})
	code, lines, stderr := runIn(t, dir)
	if code != 2 || len(lines) != 0 || !strings.HasPrefix(stderr, "roomsize: bad.go:3:") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("a file that does not parse: exit %d, %q, stderr %q; want 2 and one line naming bad.go:3", code, lines, stderr)
	}
}
