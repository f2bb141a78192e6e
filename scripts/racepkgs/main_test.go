package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Folders that start a goroutine each way the doc names are printed,
// relative and in their order; the others are not.
func TestPrintsTheFoldersThatStartGoroutines(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	src := map[string]string{
		"plain/a.go":          "package plain\n\nfunc F() int { return 1 }\n",
		"plain/a_test.go":     "package plain\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { t.Run(\"x\", func(*testing.T) {}) }\n",
		"gostmt/a.go":         "package gostmt\n\nfunc F() { go func() {}() }\n",
		"parallel/a_test.go":  "package parallel\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { t.Parallel(); t.Log(1) }\n",
		"afterfunc/a.go":      "package afterfunc\n\nimport \"time\"\n\nfunc F() { time.AfterFunc(0, func() {}) }\n",
		"exec/a.go":           "package exec\n\nimport _ \"os/exec\"\n",
		"execout/a_test.go":   "package execout\n\nimport \"os/exec\"\n\nfunc F() { exec.Command(\"true\").Run() }\n",
		"execstart/a_test.go": "package execstart\n\nimport \"os/exec\"\n\nfunc F() { exec.Command(\"true\").Start() }\n",
	}
	for name, text := range src {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var in strings.Builder
	for _, d := range []string{"plain", "gostmt", "parallel", "afterfunc", "exec", "execout", "execstart"} {
		in.WriteString(filepath.Join(root, d) + "\n")
	}
	var out, errs bytes.Buffer
	if code := run(strings.NewReader(in.String()), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if got, want := out.String(), "./gostmt\n./parallel\n./afterfunc\n./exec\n./execstart\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}

// A file that does not parse: exit 2 and the file named, not a silent
// pass that would leave its package out of the race detector's run.
func TestUnparsableFileFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\nfunc {"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(strings.NewReader(dir+"\n"), &out, &errs); code != 2 || !strings.Contains(errs.String(), "a.go") {
		t.Errorf("exit %d, %q; want 2 naming a.go", code, errs.String())
	}
}
