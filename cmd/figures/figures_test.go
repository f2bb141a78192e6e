package main

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/internal/trace"
)

// writeTrace writes a synthetic trace: a ball moving 16 units a tick of
// 40 ms, drawn at 60 FPS at the given mix factor.
func writeTrace(t *testing.T, dir, name string, alpha func(pct float64) float64) string {
	t.Helper()
	b := []byte(trace.Header)
	tick := 40 * time.Millisecond
	ticks := 0
	for i := 0; i < 90; i++ {
		start := time.Duration(i) * time.Second / 60
		due := int((start+tick-1)/tick) - 1 // the loop's ceil(e/tick)-1
		n := max(0, due-ticks)
		ticks += n
		pct := float64(start-time.Duration(ticks)*tick) / float64(tick)
		last, next := float64(16*max(0, ticks-1)), float64(16*ticks)
		b = trace.AppendRow(b, &trace.Row{Frame: int64(i), Start: start, Dur: time.Second / 60, Ticks: n, Percent: pct, Mode: "fixed",
			Ball0X: last + alpha(pct)*(next-last), Ball0NextX: next})
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPositionsPlot(t *testing.T) {
	dir := t.TempDir()
	off := writeTrace(t, dir, "off.csv", func(float64) float64 { return 1 })
	on := writeTrace(t, dir, "on.csv", func(p float64) float64 { return p })
	out := filepath.Join(dir, "p.png")
	var stderr bytes.Buffer
	if code := run([]string{"positions", "-o", out, "-from", "200ms", "-to", "1s", "off=" + off, "on=" + on}, &stderr); code != 0 {
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
	// The two runs' colours are in the picture.
	seen := map[color.RGBA]int{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}]++
		}
	}
	for _, c := range seriesColors[:2] {
		if seen[c] < 50 {
			t.Errorf("series colour %v: %d pixels", c, seen[c])
		}
	}
	// The logic ticks: one per 40 ms in the window.
	rows, err := readTrace(off)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(logicTicks(rows, 40*time.Millisecond, 200*time.Millisecond, time.Second)); n < 19 || n > 21 {
		t.Errorf("%d logic ticks in 0.8 s of 40 ms ticks", n)
	}
	// Errors: one line, non-zero.
	for _, args := range [][]string{
		{"positions", "-o", out, "nolabel.csv"},
		{"positions", "-o", out, "-from", "2s", "-to", "1s", "x=" + off},
		{"positions", "-o", out, "x=" + filepath.Join(dir, "missing.csv")},
		{"positions", "-o", out, "-from", "10s", "-to", "11s", "x=" + off},
		{"nope"},
		{},
	} {
		stderr.Reset()
		if code := run(args, &stderr); code == 0 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q", args, code, stderr.String())
		}
	}
}

func TestGifcatJoinsInOrder(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, n int, delay int, idx uint8) string {
		g := &gif.GIF{}
		for i := 0; i < n; i++ {
			p := image.NewPaletted(image.Rect(0, 0, 8, 6), palette.Plan9)
			for j := range p.Pix {
				p.Pix[j] = idx
			}
			g.Image = append(g.Image, p)
			g.Delay = append(g.Delay, delay)
		}
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := gif.EncodeAll(f, g); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
	a, b := mk("a.gif", 3, 4, 10), mk("b.gif", 2, 7, 200)
	out := filepath.Join(dir, "ab.gif")
	var stderr bytes.Buffer
	if code := run([]string{"gifcat", "-o", out, a, b}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	g, err := readGIF(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 5 {
		t.Fatalf("%d frames, want 5", len(g.Image))
	}
	for i, want := range []int{4, 4, 4, 7, 7} {
		if g.Delay[i] != want {
			t.Errorf("frame %d delay %d, want %d", i, g.Delay[i], want)
		}
	}
	if g.Image[0].ColorIndexAt(0, 0) == g.Image[4].ColorIndexAt(0, 0) {
		t.Error("the second animation's frames are not the second's")
	}
	c := mk("c.gif", 1, 4, 3)
	// Another size is refused.
	gg := &gif.GIF{Image: []*image.Paletted{image.NewPaletted(image.Rect(0, 0, 9, 6), palette.Plan9)}, Delay: []int{1}}
	f, _ := os.Create(c)
	gif.EncodeAll(f, gg)
	f.Close()
	stderr.Reset()
	if code := run([]string{"gifcat", "-o", out, a, c}, &stderr); code != 1 || !strings.Contains(stderr.String(), "size") {
		t.Errorf("sizes differ: exit %d, %q", code, stderr.String())
	}
}
