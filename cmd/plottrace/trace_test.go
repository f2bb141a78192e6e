package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/internal/trace"
)

func TestPlotWritesAPNG(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.csv")
	var b strings.Builder
	b.WriteString(trace.Header)
	for i := 0; i < 40; i++ {
		ticks, capped, disc := 5, "true", "0"
		if i%3 == 0 {
			disc = "12000000"
		}
		b.WriteString(strings.Join([]string{itoa(i), itoa(i * 300_000_000), "300000000", itoa(ticks), "1.0", disc, capped, "300000000", "fixed", "320", "320"}, ",") + "\n")
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "t.png")
	var stderr bytes.Buffer
	if code := run([]string{"-o", out, path}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 500 || b.Dy() < 300 {
		t.Errorf("image %v too small", b)
	}
	// Bad input: one line on stderr, status 1, no output file.
	stderr.Reset()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("nope\n"), 0o644)
	if code := run([]string{"-o", filepath.Join(dir, "bad.png"), bad}, &stderr); code != 1 || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("bad trace: exit %d, %q", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.png")); !os.IsNotExist(err) {
		t.Error("a PNG was written for a bad trace")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
