package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const header = "frame,start_ns,duration_ns,ticks,percent_within_tick,discarded_ns,max_loops_hit,render_load_ns,mode\n"

func TestReadTrace(t *testing.T) {
	in := header +
		"0,1000,200000000,0,0.0010,0,false,200000000,fixed\n" +
		"1,200001000,300000000,5,1.0000,60000000,true,300000000,fixed\n"
	frames, err := readTrace(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 2 {
		t.Fatalf("%d frames", len(frames))
	}
	f := frames[1]
	if f.index != 1 || f.start != 200001000 || f.dur != 300*time.Millisecond || f.ticks != 5 || f.percent != 1 ||
		f.discarded != 60*time.Millisecond || !f.capped || f.renderLoad != 300*time.Millisecond || f.mode != "fixed" {
		t.Errorf("frame 1 = %+v", f)
	}
}

func TestReadTraceErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty trace"},
		{"a,b,c,d,e,f,g,h,i\n", "not an interpdemo -trace file"},
		{header, "no frames"},
		{header + "0,1,2,x,0,0,false,0,fixed\n", "line 2"},
		{header + "0,1,2,3\n", "wrong number of fields"},
		{header + "0,1,-2,3,0,0,false,0,fixed\n", "negative"},
	} {
		_, err := readTrace(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestPlotWritesAPNG(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	var b strings.Builder
	b.WriteString(header)
	for i := 0; i < 40; i++ {
		ticks, capped, disc := 5, "true", "0"
		if i%3 == 0 {
			disc = "12000000"
		}
		b.WriteString(strings.Join([]string{itoa(i), itoa(i * 300_000_000), "300000000", itoa(ticks), "1.0", disc, capped, "300000000", "fixed"}, ",") + "\n")
	}
	os.WriteFile(trace, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "t.png")
	var stderr bytes.Buffer
	if code := run([]string{"-o", out, trace}, &stderr); code != 0 {
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
