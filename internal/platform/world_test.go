package platform

import (
	"fmt"
	"image"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/internal/x11test"
)

// openOnXvfb opens a w x h window on an Xvfb of its own, with a GL
// context current, for a test.
func openOnXvfb(t *testing.T, w, h int) (*Window, string) {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	display := x11test.Display(t)
	win, err := Open(Options{Title: t.Name(), Width: w, Height: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(win.Close)
	if err := gl.Init(); err != nil {
		t.Fatal(err)
	}
	return win, display
}

// The world in a window of its own: what the window's context draws
// there, and what the second context draws in the window around it,
// are what the X server shows, each where it belongs; each keeps what
// it showed while the other presents; the world's window moves, grows,
// hides and shows as asked; and when something covers it, it says so.
func TestWorldHasAWindowOfItsOwn(t *testing.T) {
	const w, h = 96, 64
	win, display := openOnXvfb(t, w, h)
	if !win.CanSplitWorld() {
		t.Fatalf("driver %s: Xvfb's windows present parts, the world can have a window of its own", win.Driver())
	}
	// fill clears the current drawable's rectangle r (its pixels, from
	// the top left; dh its height) to colour c (0xRRGGBB).
	fill := func(r image.Rectangle, dh int, c uint32) {
		gl.Enable(gl.SCISSOR_TEST)
		gl.Scissor(int32(r.Min.X), int32(dh-r.Max.Y), int32(r.Dx()), int32(r.Dy()))
		gl.ClearColor(float32(c>>16)/255, float32(c>>8&255)/255, float32(c&255)/255, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.Disable(gl.SCISSOR_TEST)
	}
	// check fails where the window shows other than world inside area
	// and around outside it.
	check := func(step string, area image.Rectangle, world, around uint32) {
		t.Helper()
		shown, err := x11test.Pixels(display, win.XWindow(), w, h)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range shown {
			p := image.Pt(i%w, i/w)
			want := around
			if p.In(area) {
				want = world
			}
			if v != want {
				t.Fatalf("%s: the window shows %06x at %v, want %06x (the world at %v)", step, v, p, want, area)
			}
		}
	}
	const red, green, blue, grey = 0xff0000, 0x00ff00, 0x0000ff, 0x808080
	whole := image.Rect(0, 0, w, h)

	area := image.Rect(30, 0, 96, 48)
	fresh, err := win.SplitWorld(area)
	if err != nil || !fresh {
		t.Fatalf("the world's first window: fresh %v, %v; want fresh", fresh, err)
	}
	if !win.WorldSplit() {
		t.Fatal("the world's window is not shown")
	}
	win.UseWorld()
	fill(image.Rect(0, 0, area.Dx(), area.Dy()), area.Dy(), red)
	win.SwapWorld()
	if err := win.UseLayers(); err != nil {
		t.Fatal(err)
	}
	fill(whole, h, blue)
	win.PresentParts([]image.Rectangle{whole}) // the window's own pixels do not cover the world's window
	check("first frame", area, red, blue)

	// Each presents a part; the other's pixels stay.
	win.UseWorld()
	fill(image.Rect(0, 0, 10, 10), area.Dy(), green)
	win.PresentWorldParts([]image.Rectangle{image.Rect(0, 0, 10, 10)})
	if err := win.UseLayers(); err != nil {
		t.Fatal(err)
	}
	fill(image.Rect(0, 50, 20, 64), h, grey)
	win.PresentParts([]image.Rectangle{image.Rect(0, 50, 20, 64)})
	shown, err := x11test.Pixels(display, win.XWindow(), w, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		x, y int
		want uint32
	}{{30, 0, green}, {39, 9, green}, {40, 10, red}, {95, 47, red}, {0, 50, grey}, {19, 63, grey}, {20, 63, blue}, {29, 0, blue}, {30, 48, blue}} {
		if got := shown[p.y*w+p.x]; got != p.want {
			t.Errorf("parts: the window shows %06x at (%d,%d), want %06x", got, p.x, p.y, p.want)
		}
	}

	// Moved, the same size: not fresh, its pixels go with it.
	moved := image.Rect(20, 10, 86, 58)
	if fresh, err := win.SplitWorld(moved); err != nil || fresh {
		t.Errorf("moved: fresh %v, %v; want neither", fresh, err)
	}
	win.UseWorld()
	fill(image.Rect(0, 0, moved.Dx(), moved.Dy()), moved.Dy(), red)
	win.PresentWorldParts([]image.Rectangle{image.Rect(0, 0, moved.Dx(), moved.Dy())})
	if err := win.UseLayers(); err != nil {
		t.Fatal(err)
	}
	fill(whole, h, blue)
	win.PresentParts([]image.Rectangle{whole})
	check("moved", moved, red, blue)

	// Grown: fresh, swapped whole at its new size.
	grown := image.Rect(10, 5, 90, 60)
	if fresh, err := win.SplitWorld(grown); err != nil || !fresh {
		t.Errorf("grown: fresh %v, %v; want fresh", fresh, err)
	}
	win.UseWorld()
	fill(image.Rect(0, 0, grown.Dx(), grown.Dy()), grown.Dy(), green)
	win.SwapWorld()
	if err := win.UseLayers(); err != nil {
		t.Fatal(err)
	}
	fill(whole, h, grey)
	win.PresentParts([]image.Rectangle{whole})
	check("grown", grown, green, grey)

	// Covered and uncovered: it says so, once.
	win.WorldExposed() // the exposures so far
	if win.WorldExposed() {
		t.Error("exposed twice for one exposure")
	}
	if err := x11test.Cover(display, win.XWindow(), image.Rect(20, 10, 40, 30), 0x123456); err != nil {
		t.Fatal(err)
	}
	exposed := false
	for deadline := time.Now().Add(5 * time.Second); !exposed && time.Now().Before(deadline); {
		exposed = win.WorldExposed()
	}
	if !exposed {
		t.Error("covered and uncovered, the world's window did not say it was exposed")
	}

	// Hidden: the window draws the world itself again.
	win.UnsplitWorld()
	if win.WorldSplit() {
		t.Fatal("hidden, the world's window still shown")
	}
	fill(whole, h, red) // the window's own context, on the window
	win.PresentParts([]image.Rectangle{whole})
	check("hidden", image.Rectangle{}, 0, red)

	// Shown again: fresh.
	if fresh, err := win.SplitWorld(grown); err != nil || !fresh {
		t.Errorf("shown again: fresh %v, %v; want fresh", fresh, err)
	}
	win.UseWorld()
	fill(image.Rect(0, 0, grown.Dx(), grown.Dy()), grown.Dy(), blue)
	win.SwapWorld()
	check("shown again", grown, blue, red)
	if err := gl.GetError(); err != gl.NO_ERROR {
		t.Errorf("GL error 0x%x", err)
	}
}

// Where there are no parts to present (headless), the world has no
// window of its own, and asking for one says why.
func TestNoWorldWindowHeadless(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	win := openHeadless(t, 64, 48)
	defer win.Close()
	if win.CanSplitWorld() {
		t.Fatal("a headless window says the world can have a window of its own")
	}
	if _, err := win.SplitWorld(image.Rect(0, 0, 10, 10)); err == nil {
		t.Fatal("SplitWorld succeeded headless")
	} else if s := fmt.Sprint(err); s == "" {
		t.Fatal("an empty error")
	}
	win.UseWorld() // harmless: nothing to switch to
	win.UseWindow()
	if win.WorldSplit() || win.WorldExposed() || win.WorldXWindow() != 0 {
		t.Fatal("a headless window reports a world window")
	}
}
