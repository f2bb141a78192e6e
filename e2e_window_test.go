package main

import (
	"fmt"
	"image"
	"strconv"
	"testing"
	"time"

	core "github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/x11test"
)

// shown is what the X server shows of a window: 0xRRGGBB pixels.
type shown struct {
	w, h int
	px   []uint32
}

func (s shown) at(x, y int) uint32 { return s.px[y*s.w+x] }

// count is how many pixels of r satisfy ok.
func (s shown) count(r image.Rectangle, ok func(r, g, b uint32) bool) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			v := s.at(x, y)
			if ok(v>>16, v>>8&255, v&255) {
				n++
			}
		}
	}
	return n
}

// look reads what the demo's window shows now.
func (d *demo) look(w, h int) shown {
	d.t.Helper()
	id, err := strconv.ParseUint(d.window(), 10, 64)
	if err != nil {
		d.t.Fatal(err)
	}
	px, err := x11test.Pixels(d.display, id, w, h)
	if err != nil {
		d.t.Fatal(err)
	}
	return shown{w, h, px}
}

// Text pixels (the HUD's near-white glyphs), ball pixels (saturated
// colours) and the cover's magenta.
func text(r, g, b uint32) bool    { return r > 200 && g > 200 && b > 200 }
func ball(r, g, b uint32) bool    { return max(r, g, b) > 150 && max(r, g, b)-min(r, g, b) > 80 }
func magenta(r, g, b uint32) bool { return r > 240 && g < 16 && b > 240 }

// How the window presents, as -stats says it: in parts (Mesa's GLX,
// Xvfb's included: GLX_MESA_copy_sub_buffer), and by swaps alone, as
// where GLX cannot present parts (NVIDIA's), which INTERPDEMO_RENDER=swap
// makes the demo do here.
var windowPresents = []struct {
	name, present string
	env           []string
}{
	{"parts", "split", nil},
	{"swaps", "split-swap", []string{"INTERPDEMO_RENDER=swap"}},
}

// The window as a user sees it, by default (HUD and graph on, vsync off
// and refused by Xvfb's GLX): the world in a window of its own, presented
// in parts (-stats says "split"), or swapped every frame where parts
// cannot be presented ("split-swap"), the HUD's text beside it and the
// graph below, read from the X server. Covered by another window and
// uncovered, every part is drawn again; Space, pressed with the pointer
// over the world, reaches the demo through the world's window; a resize
// moves the world's window with the layout; Q quits.
func TestWindowShowsTheDemo(t *testing.T) {
	for _, p := range windowPresents {
		t.Run(p.name, func(t *testing.T) { testWindowShowsTheDemo(t, p.env, p.present) })
	}
}

func testWindowShowsTheDemo(t *testing.T, env []string, present string) {
	display := xvfb(t)
	// A few balls: a frame repaints only where they were and are, so
	// what a cover took from the world comes back only by being told.
	// (Where the world's window swaps, every frame draws it whole, and
	// the window around it, which swaps only where the layers change,
	// is the one told.)
	d := startDemoEnv(t, display, env, "-stats", "-balls", "3", "-vsync", "off")
	d.waitTicking(10 * time.Second)
	cfg := &core.Config{Width: 640, Height: 480, HUD: true, Graph: true}
	w, h := cfg.WindowSize()
	world, hud, graph := core.Layout(w, h, cfg.HUDColumn(), true)
	worldR := image.Rect(world.X, world.Y, world.X+world.W, world.Y+world.H)
	hudR := image.Rect(hud.X, hud.Y, hud.X+hud.W, hud.Y+120)
	graphR := image.Rect(graph.X, graph.Y, graph.X+graph.W, graph.Y+graph.H)
	check := func(step string) {
		t.Helper()
		var s shown
		var nText, nBall, nGraph, nMagenta int
		// Until a frame after the change has been shown: some
		// presents later, within a second.
		for deadline := time.Now().Add(3 * time.Second); ; {
			s = d.look(w, h)
			nText, nBall = s.count(hudR, text), s.count(worldR, ball)
			nGraph = s.count(graphR, func(r, g, b uint32) bool { return g > 80 && max(r, g, b)-min(r, g, b) < 60 || g > 150 })
			nMagenta = s.count(image.Rect(0, 0, w, h), magenta)
			if (nText > 300 && nBall > 200 && nGraph > 200 && nMagenta == 0) || time.Now().After(deadline) {
				break
			}
		}
		if nText <= 300 || nBall <= 200 || nGraph <= 200 || nMagenta != 0 {
			t.Fatalf("%s: the window shows %d text pixels in the HUD's corner, %d ball pixels in the world, %d graph pixels, %d pixels of the cover left", step, nText, nBall, nGraph, nMagenta)
		}
	}
	check("running")

	// Covered: the world alone (its window is told), the HUD alone (the
	// window is), both.
	id, _ := strconv.ParseUint(d.window(), 10, 64)
	for _, c := range []struct {
		name string
		r    image.Rectangle
	}{
		{"the world", worldR.Inset(100)},
		{"the HUD", image.Rect(0, 0, hud.W, hud.H)},
		{"the window", image.Rect(0, 0, w, h)},
	} {
		if err := x11test.Cover(display, id, c.r, 0xff00ff); err != nil {
			t.Fatal(err)
		}
		check(c.name + " covered and uncovered")
	}

	// Space over the world: its window takes no input of its own.
	d.xdo("mousemove", "--window", d.window(), fmt.Sprint(world.X+world.W/2), fmt.Sprint(world.Y+world.H/2))
	d.keys("space")
	d.waitTitle("interp off", 3*time.Second, func(w winTitle) bool { return w.draw == "interp off" })

	// A wider window (on the screen: the X server reads only what is
	// there): the world's window follows the layout.
	w += 200
	d.xdo("windowmove", "--sync", d.window(), "0", "0")
	d.xdo("windowsize", "--sync", d.window(), fmt.Sprint(w), fmt.Sprint(h))
	d.keys("p")
	d.waitTitle("paused", 3*time.Second, func(w winTitle) bool { return w.paused })
	world, hud, graph = core.Layout(w, h, cfg.HUDColumn(), true)
	worldR = image.Rect(world.X, world.Y, world.X+world.W, world.Y+world.H)
	graphR = image.Rect(graph.X, graph.Y, graph.X+graph.W, graph.Y+graph.H)
	check("resized")

	d.keys("q")
	d.mustSucceed(5 * time.Second)
	if s := d.stats(); s.Present != present {
		t.Errorf("present %q, want %s: the world in a window of its own", s.Present, present)
	}
}

// In a window, by default, a frame allocates nothing once warmed up, at
// one ball (the sprites repainted) and at many (the world repainted
// whole), the overlays changing all the while.
func TestWindowAllocatesNothing(t *testing.T) {
	display := xvfb(t)
	for _, p := range windowPresents {
		for _, balls := range []string{"1", "300"} {
			d := startDemoEnv(t, display, p.env, "-stats", "-balls", balls, "-vsync", "off", "-duration", "2500ms")
			d.mustExit(20 * time.Second)
			if d.code() != 0 {
				t.Fatalf("%s, %s balls: exit status %d: %s", p.name, balls, d.code(), d.stderr.String())
			}
			s := d.stats()
			if s.Present != p.present {
				t.Errorf("%s, %s balls: present %q, want %s", p.name, balls, s.Present, p.present)
			}
			if s.AllocsAfterWarmup == nil || *s.AllocsAfterWarmup != 0 || s.GCAfterWarmup == nil || *s.GCAfterWarmup != 0 {
				t.Errorf("%s, %s balls: allocations and GC cycles after warm-up: %v, %v; want 0, 0", p.name, balls, intOr(s.AllocsAfterWarmup), intOr(s.GCAfterWarmup))
			}
		}
	}
}

// intOr is *p, or "none" where p is nil.
func intOr[T any](p *T) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}
