package render

import (
	"fmt"
	"github.com/interpdemo/interpdemo/render/adaptive"
	"image"
	"image/color"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/x11test"
)

// diff compares two read-backs: the largest difference of a channel, and
// how many pixels differ at all.
func diff(a, b *image.RGBA) (maxd, n int) {
	for i := 0; i < len(a.Pix); i += 4 {
		d := 0
		for c := 0; c < 3; c++ {
			d = max(d, abs(int(a.Pix[i+c])-int(b.Pix[i+c])))
		}
		if d > 0 {
			n++
		}
		maxd = max(maxd, d)
	}
	return maxd, n
}

// diffIn is diff within the rectangle r of both.
func diffIn(a, b *image.RGBA, r image.Rectangle) (maxd, n int) {
	r = r.Intersect(a.Rect).Intersect(b.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p, q := a.RGBAAt(x, y), b.RGBAAt(x, y)
			d := max(abs(int(p.R)-int(q.R)), abs(int(p.G)-int(q.G)), abs(int(p.B)-int(q.B)))
			if d > 0 {
				n++
			}
			maxd = max(maxd, d)
		}
	}
	return maxd, n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPbufferKeepsItsPixels checks what the retained drawing relies on:
// headless, the drawable is an EGL pbuffer, and a swap leaves its pixels
// as they were.
func TestPbufferKeepsItsPixels(t *testing.T) {
	win := withGL(t, 64, 48)
	if !win.Preserved() {
		t.Fatalf("a headless window (driver %q) does not report its pixels preserved", win.Driver())
	}
	r := newRenderer(t, win, 8)
	gl.Disable(gl.SCISSOR_TEST)
	gl.ClearColor(1, 0, 0, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	win.Swap()
	win.Swap()
	img := r.ReadPixels()
	if c := img.RGBAAt(10, 10); c.R != 255 || c.G != 0 || c.B != 0 {
		t.Errorf("after two swaps the pixel is %v, want the red drawn before them", c)
	}
}

// stripes fills an overlay image with a pattern that depends on k, so each
// upload is new content.
func stripes(img *image.RGBA, k int) { stripesAlpha(img, k, false) }

// stripesAlpha is stripes, translucent or opaque.
func stripesAlpha(img *image.RGBA, k int, opaque bool) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			v := uint8((x + 3*y + 17*k) % 7 * 30)
			a := 160 + v/4
			if opaque {
				a = 255
			}
			img.SetRGBA(x, y, color.RGBA{v / 2, v / 3, v, a}) // premultiplied: colour <= alpha
		}
	}
}

// TestRetainedFramesMatchWholeFrames draws a sequence of frames with the
// retained drawing (only what changed is repainted) and, after each, the
// same frame painted whole: the read-backs must be the same. Balls move
// (ticks now and then, a new percent every frame) and cross the layers;
// the layers get new content, move, resize, appear; ghosts come on. With
// three balls, the repaint follows each ball's sprite (sprites.go); with
// more than spriteMaxBalls, the occupancy grid.
//
// Opaque layers: the balls beneath are not repainted, and the frames must
// still be the whole frames.
//
// Each form of ball (quads.go) in turn, forced: the whole frame drawn for
// the comparison is a frame of its own to the choices, which may draw it
// the other way (a last bit apart at some edges). Points with the
// culling's choice at work (culled and unculled frames alike exact),
// squares without culling (culled balls are points).
func TestRetainedFramesMatchWholeFrames(t *testing.T) {
	for _, form := range []adaptive.Mode{adaptive.On, adaptive.Off} {
		for _, opaque := range []bool{false, true} {
			for _, extra := range []int{0, spriteMaxBalls} {
				name := fmt.Sprint(3+extra, " balls ", map[adaptive.Mode]string{adaptive.On: "points", adaptive.Off: "squares"}[form])
				if opaque {
					name += ", opaque layers"
				}
				t.Run(name, func(t *testing.T) { retainedMatchesWhole(t, withGL(t, 640, 480), extra, opaque, form) })
			}
		}
	}
}

// formConfig is cfg with the balls' form forced to form (quads.go): with
// points (adaptive.On) the culling chosen by measurement, with squares
// (adaptive.Off) no culling.
func formConfig(cfg Config, form adaptive.Mode) Config {
	cfg.Sprites, cfg.Cull = form, adaptive.Auto
	if form == adaptive.Off {
		cfg.Cull = adaptive.Off
	}
	return cfg
}

// The ball programs are made as frames first draw with them, not in New:
// in New the one of frames painted whole, as the first is; a retained
// frame's repaint of parts makes its own, and the ghosts' rings theirs.
// Making all four in New, as before, fails the counts; a program made
// late draws as the others do (the view, the player's colour), which
// retainedMatchesWhole checks.
func TestBallProgramsMadeOnFirstUse(t *testing.T) {
	win := withGL(t, 640, 480)
	// Squares first, where they start (quads.go): the one program of
	// frames painted whole made in New is theirs.
	sq := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true, Sprites: adaptive.Off})
	if len(sq.progs) != 1 || sq.progs[0] != &sq.discWholeQuads {
		t.Fatalf("squares: %d ball programs made in New, want only %q", len(sq.progs), sq.discWholeQuads.src.name)
	}
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true, Sprites: adaptive.On})
	r.Resize(640, 480)
	made := func(stage string, want ...*ballProgram) {
		t.Helper()
		if len(r.progs) != len(want) {
			t.Fatalf("%s: %d ball programs made, want %d", stage, len(r.progs), len(want))
		}
		for i, p := range want {
			if r.progs[i] != p || p.prog == nil {
				t.Fatalf("%s: program %d is %q, want %q", stage, i, r.progs[i].src.name, p.src.name)
			}
		}
	}
	made("after New", &r.discWhole)
	at, moved := []int32{q8(100), q8(100)}, []int32{q8(140), q8(100)}
	r.Sync(at, at, 1, 1)
	r.Draw(&Frame{Alpha: 1})
	made("after a whole frame", &r.discWhole)
	r.Sync(at, moved, 2, 1)
	r.Draw(&Frame{Alpha: 1})
	if p := r.Painted(); len(p) == 0 || p[0] == (Rect{0, 0, 640, 480}) {
		t.Fatalf("the ball's move repainted %v, want parts", p)
	}
	made("after a frame repainting parts", &r.discWhole, &r.disc)
	r.Draw(&Frame{Alpha: 1, Ghosts: true})
	made("after a frame with the ghosts' rings", &r.discWhole, &r.disc, &r.ball)
}

// TestPrepareChoicesMakesTheirPrograms: PrepareChoices makes the ball
// programs of every option the modes allow, and only those, so that the
// comparisons after it make none (at 1,000,000 balls on llvmpipe they
// came after the warm-up, and allocated there).
func TestPrepareChoicesMakesTheirPrograms(t *testing.T) {
	win := withGL(t, 640, 480)
	for _, tc := range []struct {
		name     string
		cfg      Config
		want     func(r *Renderer) []*ballProgram
		drawable bool
	}{
		{"auto", Config{}, func(r *Renderer) []*ballProgram { return []*ballProgram{&r.discWholeQuads, &r.discWhole} }, true},
		{"auto, retained", Config{Retained: true}, func(r *Renderer) []*ballProgram {
			return []*ballProgram{&r.discWholeQuads, &r.discQuads, &r.discWhole, &r.disc}
		}, false},
		{"squares forced, no culling", Config{Sprites: adaptive.Off, Cull: adaptive.Off}, func(r *Renderer) []*ballProgram { return []*ballProgram{&r.discWholeQuads} }, false},
		{"culling forced", Config{Cull: adaptive.On}, func(r *Renderer) []*ballProgram { return []*ballProgram{&r.discWhole} }, false},
	} {
		cfg := tc.cfg
		cfg.WorldW, cfg.WorldH, cfg.Radius, cfg.FracBits = 640, 480, 8, fracBits
		r := newRendererConfig(t, win, cfg)
		r.Resize(640, 480)
		last, next := randomBalls(10_000, 3)
		r.Sync(last, next, 1, 1)
		r.PrepareChoices()
		want := tc.want(r)
		if len(r.progs) != len(want) {
			t.Errorf("%s: %d programs made, want %d", tc.name, len(r.progs), len(want))
		}
		for _, p := range want {
			if p.prog == nil {
				t.Errorf("%s: %q not made", tc.name, p.src.name)
			}
		}
		if !tc.drawable {
			continue
		}
		// Every option drawn in the comparisons: no program more.
		drawn := drawOptions(r, win, optionsFrames)
		if len(r.progs) != len(want) || drawn[optSquares] == 0 || drawn[optPoints] == 0 || drawn[optCulled] == 0 {
			t.Errorf("%s: after frames of each option (%v), %d programs made, want %d", tc.name, drawn, len(r.progs), len(want))
		}
	}
}

// A window that presents only what each frame repainted (no swap: the
// X server keeps what the window showed) shows, after every frame,
// exactly the whole frame: read from the X server, under Xvfb. Only the
// repaint is shown (Config.PaintedOnly), so the back buffer is the frame
// only there.
func TestWindowShowsWholeFramesFromParts(t *testing.T) {
	for _, extra := range []int{0, spriteMaxBalls} {
		t.Run(fmt.Sprint(3+extra, " balls"), func(t *testing.T) {
			retainedMatchesWhole(t, withWindowGL(t, 640, 480), extra, true, adaptive.Off)
		})
	}
}

// withWindowGL opens a window of w x h pixels on an Xvfb of its own, with
// a GL debug context, one that presents parts of its back buffer.
func withWindowGL(t *testing.T, w, h int) *platform.Window {
	t.Helper()
	runtime.LockOSThread()
	// Unlocked when the test ends, after the window closes (cleanups run
	// last first): a goroutine that ends locked ends its OS thread, and
	// the runtime makes another when it next needs one, allocating its
	// structures (5.6 KB). In a benchmark that was a stray allocation in
	// the next one's timed frames, counted as the renderer's (796 B and 1
	// allocation an iteration over 7 iterations).
	t.Cleanup(runtime.UnlockOSThread)
	x11test.Display(t)
	win, err := platform.Open(platform.Options{Title: t.Name(), Width: w, Height: h, Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(win.Close)
	if !win.CanPresentParts() {
		t.Fatalf("Xvfb's GLX presents no parts (GLX_MESA_copy_sub_buffer)")
	}
	return win
}

// checkWhole draws frame f again, whole, and fails the test where got,
// the retained frame's read-back, differs from it (where only the repaint
// is shown, Config.PaintedOnly: within the rectangles painted); then it
// puts the retained state back as it was (the drawable now holds the
// whole frame, which should be the same where it is shown). It returns
// the whole frame.
func checkWhole(t *testing.T, r *Renderer, fr *Frame, got *image.RGBA, f int, painted []Rect) *image.RGBA {
	t.Helper()
	saved, spr := r.ret, r.spr
	r.cfg.Retained = false
	r.Draw(fr)
	want := r.ReadPixels()
	r.cfg.Retained = true
	r.ret, r.spr = saved, spr
	if r.cfg.PaintedOnly {
		for _, p := range painted {
			sub := image.Rect(p.X, p.Y, p.X+p.W, p.Y+p.H)
			if d, n := diffIn(got, want, sub); d > 0 {
				t.Fatalf("frame %d (repainted %d pixels): in %v, %d pixels differ from the whole frame, by up to %d", f, saved.painted, p, n, d)
			}
		}
		return want
	}
	if d, n := diff(got, want); d > 0 {
		t.Fatalf("frame %d (repainted %d pixels): %d pixels differ from the whole frame, by up to %d", f, saved.painted, n, d)
	}
	return want
}

// presentAndCheck presents the parts painted of the retained frame just
// drawn, reads what the X server shows of the window, and fails where it
// differs from want, the whole frame.
func presentAndCheck(t *testing.T, win *platform.Window, painted []Rect, want func() *image.RGBA, f, repainted int) {
	t.Helper()
	var parts []image.Rectangle
	for _, p := range painted {
		parts = append(parts, image.Rect(p.X, p.Y, p.X+p.W, p.Y+p.H))
	}
	win.PresentParts(parts)
	w, h := win.DrawableSize()
	shown, err := x11test.Pixels(os.Getenv("DISPLAY"), win.XWindow(), w, h)
	if err != nil {
		t.Fatal(err)
	}
	whole := want()
	for i, v := range shown {
		px, py := i%w, i/w
		c := whole.RGBAAt(px, py)
		if v != uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B) {
			t.Fatalf("frame %d: the window shows %06x at (%d,%d), the whole frame %v (repainted %d pixels)", f, v, px, py, c, repainted)
		}
	}
}

func retainedMatchesWhole(t *testing.T, win *platform.Window, extra int, opaque bool, form adaptive.Mode) {
	stripes := func(img *image.RGBA, k int) { stripesAlpha(img, k, opaque) }
	inWindow := win.CanPresentParts()
	r := newRendererConfig(t, win, formConfig(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true, PaintedOnly: inWindow}, form))
	// Ball 1 in the player's colour, set before any frame: the programs
	// of the retained frames, made on first use, must show it as the
	// whole frames' does.
	r.SetHighlight(1)
	hud := r.NewOverlay(200, 100)
	graph := r.NewOverlay(640, 60)
	hudImg := image.NewRGBA(image.Rect(0, 0, 200, 100))
	graphImg := image.NewRGBA(image.Rect(0, 0, 640, 60))
	stripes(hudImg, 0)
	stripes(graphImg, 0)
	hud.Upload(hudImg, hudImg.Rect)
	graph.Upload(graphImg, graphImg.Rect)

	// Three balls: one crossing the HUD's corner, one crossing the graph,
	// one in the open; 8 units a tick.
	pos := [][4]float64{{150, 80, 8, 2}, {300, 440, -8, 3}, {400, 200, 5, -6}}
	for i := 0; i < extra; i++ { // more, spread over the world, moving every way
		pos = append(pos, [4]float64{float64(40 + 37*i), float64(60 + 23*i), float64(i%5 - 2), float64(i%3 - 1)})
	}
	last := make([]int32, 2*len(pos))
	next := make([]int32, 2*len(pos))
	set := func(tick int) {
		for i, p := range pos {
			last[2*i], last[2*i+1] = q8(p[0]+p[2]*float64(tick)), q8(p[1]+p[3]*float64(tick))
			next[2*i], next[2*i+1] = q8(p[0]+p[2]*float64(tick+1)), q8(p[1]+p[3]*float64(tick+1))
		}
	}
	tick := 0
	set(tick)
	r.Sync(last, next, 1, 1)
	partial := 0
	const frames = 60
	for f := 0; f < frames; f++ {
		if f%4 == 3 { // a tick every fourth frame
			tick++
			set(tick)
			r.Sync(last, next, uint64(1+tick), 1)
		}
		if f%10 == 5 {
			stripes(hudImg, f)
			hud.Upload(hudImg, hudImg.Rect)
		}
		switch {
		case f%6 == 0:
			stripes(graphImg, f)
			graph.Upload(graphImg, graphImg.Rect)
		case f%3 == 0:
			// Parts, as the sweeping graph uploads them: the texture
			// gets new content only there, and only there may the
			// frame repaint it. Two apart where it wraps.
			stripes(graphImg, f)
			x := f * 37 % 640
			graph.Upload(graphImg, image.Rect(x, 0, x+12, 60))
			if f%9 == 0 {
				graph.Upload(graphImg, image.Rect(0, 0, 5, 60))
				graph.Upload(graphImg, image.Rect(630, 10, 640, 60))
			}
		}
		hudW := 180 + 10*((f/20)%3) // the panel resizes now and then
		fr := Frame{Alpha: float32(f%4) / 4, Ghosts: f >= 45}
		fr.Layers = append(fr.Layers, Layer{Overlay: hud, W: hudW, H: 100, Opaque: opaque})
		if f >= 8 {
			fr.Layers = append(fr.Layers, Layer{Overlay: graph, Y: 420, W: 640, H: 60, Opaque: opaque})
		}
		r.Draw(&fr)
		painted := append([]Rect(nil), r.Painted()...)
		repainted := r.ret.painted
		got := r.ReadPixels()
		if r.RepaintedPixels() < 640*480 {
			partial++
		}
		if !inWindow {
			checkWhole(t, r, &fr, got, f, painted)
			win.Swap()
			continue
		}
		// What the retained frame painted goes to the window before the
		// whole frame is drawn for the comparison.
		presentAndCheck(t, win, painted, func() *image.RGBA { return checkWhole(t, r, &fr, got, f, painted) }, f, repainted)
	}
	if partial < frames/2 {
		t.Errorf("only %d of %d frames repainted part of the window: the retained drawing was not tested", partial, frames)
	}
}

// TestRetainedDrawAtOneBall: at one ball, between the overlays' updates, a
// frame repaints a few thousand pixels, and the overlays none.
func TestRetainedDrawAtOneBall(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true})
	hud := r.NewOverlay(300, 70)
	graph := r.NewOverlay(640, 108)
	pos := []int32{q8(320), q8(200)}
	nxt := []int32{q8(336), q8(200)}
	r.Sync(pos, nxt, 1, 1)
	f := Frame{Layers: []Layer{{Overlay: hud, W: 300, H: 70}, {Overlay: graph, Y: 372, W: 640, H: 108}}}
	for i := 0; i < 5; i++ {
		f.Alpha = float32(i) / 5
		r.Draw(&f)
		win.Swap()
		if i == 0 {
			continue // the first frame is whole
		}
		if px := r.RepaintedPixels(); px == 0 || px > 100*100 {
			t.Errorf("frame %d repainted %d pixels; want the ball's neighbourhood only", i, px)
		}
	}
	// A ball moving under an opaque layer repaints nothing: it is not
	// seen there.
	f.Layers[1].Opaque = true
	under := []int32{q8(320), q8(440)}
	r.Sync(under, []int32{q8(336), q8(440)}, 2, 1)
	for i := 0; i < 3; i++ {
		f.Alpha = float32(i) / 5
		r.Draw(&f) // the first: where the ball was, in the open
		win.Swap()
	}
	if px := r.RepaintedPixels(); px != 0 {
		t.Errorf("a ball moving under an opaque layer repainted %d pixels, want 0", px)
	}
	// A refresh of a few columns of the graph repaints those columns
	// (and the ball), not the graph.
	img := image.NewRGBA(image.Rect(0, 0, 640, 108))
	stripes(img, 1)
	graph.Upload(img, image.Rect(500, 0, 510, 108))
	r.Draw(&f)
	if px, max := r.RepaintedPixels(), 10*108+100*100; px < 10*108 || px > max {
		t.Errorf("after 10 columns of the graph changed, repainted %d pixels; want %d to %d", px, 10*108, max)
	}
}

// TestDrawAllocatesNothing: a frame with two layers, between ticks, and
// the debug log read after it, as the demo reads it every frame.
func TestDrawAllocatesNothing(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true})
	o := r.NewOverlay(100, 100)
	last, next := randomBalls(100, 3)
	r.Sync(last, next, 1, 1)
	layers := []Layer{{Overlay: o, W: 100, H: 50}, {Overlay: o, Y: 400, W: 100, H: 80}}
	f := Frame{Layers: layers}
	i := 0
	allocs := testing.AllocsPerRun(50, func() {
		i++
		f.Alpha = float32(i%10) / 10
		r.Sync(last, next, 1, 1)
		r.Draw(&f)
		if err := r.DebugErr(); err != nil {
			t.Fatal(err)
		}
	})
	if !r.Debugging() {
		t.Fatal("no debug context: the debug log was not read")
	}
	if allocs != 0 {
		t.Errorf("%v allocations per frame", allocs)
	}
}

// TestCullingKeepsThePicture draws the same balls with the reference
// (every ball, ball.frag) and the demo's path (disc.frag, with occlusion
// culling forced on, forced off, and chosen by measurement), and
// compares the read-backs.
func TestCullingKeepsThePicture(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 balls in llvmpipe, four times")
	}
	for _, n := range []int{1000, 100_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			win := withGL(t, 640, 480)
			last, next := randomBalls(n, 5)
			draw := func(painter bool, cull adaptive.Mode) *image.RGBA {
				// Points: the culled balls are (quads.go), and the squares'
				// picture is TestQuadsKeepThePicture's.
				r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Painter: painter, Cull: cull, Sprites: adaptive.On})
				r.Sync(last, next, 1, 1)
				if want := !painter && cull == adaptive.On; r.Culling() != want {
					t.Fatalf("painter %v, cull %v: culling %v at %d balls, want %v", painter, cull, r.Culling(), n, want)
				}
				r.SetHighlightFirst(true)
				r.Clear()
				r.DrawBalls(0.37)
				if r.cells.on && n >= 100_000 {
					// Six balls in seven lie under later ones here.
					if h := r.cells.HiddenCount(); h < n/2 {
						t.Errorf("%d of %d balls culled, want at least half", h, n)
					}
				}
				return r.ReadPixels()
			}
			ref := draw(true, adaptive.Auto)
			for _, cull := range []adaptive.Mode{adaptive.On, adaptive.Off, adaptive.Auto} {
				d, k := diff(ref, draw(false, cull))
				t.Logf("%d balls, cull %v: %d pixels differ, by up to %d", n, cull, k, d)
				// The disc is the same arithmetic in both shaders; the
				// compiler may round a last bit differently.
				if d > 2 || k > 640*480/1000 {
					t.Errorf("%d balls, cull %v: %d pixels differ from the reference, by up to %d", n, cull, k, d)
				}
			}
		})
	}
}

// TestLayersArePlacedExactly draws an opaque layer with Draw, with and
// without balls (which set the viewport to the world's and its margin),
// and finds its pixels exactly where it was placed.
func TestLayersArePlacedExactly(t *testing.T) {
	win := withGL(t, 640, 480)
	for _, n := range []int{0, 1} {
		for _, retained := range []bool{false, true} {
			r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: retained})
			o := r.NewOverlay(64, 32)
			img := image.NewRGBA(image.Rect(0, 0, 64, 32))
			for i := range img.Pix {
				img.Pix[i] = 255 // opaque white
			}
			o.Upload(img, img.Rect)
			pos := []int32{q8(500), q8(100)}
			r.Sync(pos[:2*n], pos[:2*n], 1, 1)
			l := Layer{Overlay: o, X: 100, Y: 300, W: 50, H: 20}
			r.Draw(&Frame{Alpha: 1, Layers: []Layer{l}})
			got := r.ReadPixels()
			for y := 290; y < 330; y++ {
				for x := 90; x < 160; x++ {
					in := x >= l.X && x < l.X+l.W && y >= l.Y && y < l.Y+l.H
					if white := got.RGBAAt(x, y) == (color.RGBA{255, 255, 255, 255}); white != in {
						t.Fatalf("%d balls, retained %v: pixel %d,%d white %v, want %v", n, retained, x, y, white, in)
					}
				}
			}
		}
	}
}

// TestFencesFollowTheLoad: while frames are cheap (fences signalled before
// they are waited for), a fence ends only every few frames; once the GPU
// is behind (a wait blocks), every frame again.
func TestFencesFollowTheLoad(t *testing.T) {
	win := withGL(t, 640, 480)
	// Big balls: each frame is some 20 million fragments, the
	// rasterizer's work, not the binning's on this thread.
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 120, FracBits: fracBits})
	// Frames of 10 µs by the renderer's clock, a fence point 1 µs: fences
	// that would weigh, so that only the GPU decides how often they come.
	clk := &testClock{step: 1000}
	r.clock = clk.read
	for i := 0; i < 400; i++ {
		r.Clear()
		win.Swap()
		clk.now += 10_000
		r.EndFrame()
		r.Finish() // the GPU always done before the next wait
	}
	if r.fenceEvery != maxFenceEvery {
		t.Errorf("cheap frames: a fence every %d frames, want %d", r.fenceEvery, maxFenceEvery)
	}
	last, next := randomBalls(150, 9)
	r.Sync(last, next, 1, 1)
	for i := 0; i < 4*maxFenceEvery; i++ {
		r.Clear()
		r.DrawBalls(0.5)
		win.Swap()
		clk.now += 10_000
		r.EndFrame()
	}
	if r.fenceEvery != 1 {
		t.Errorf("frames of 20 million fragments: a fence every %d frames, want every frame", r.fenceEvery)
	}
	// A stall now and then lets the GPU catch up (llvmpipe waiting for
	// its queue inside a driver call): the fences waited for after it are
	// all done, which must not let the loop run further ahead of frames
	// the GPU is behind on. One frame more between fences at most, once.
	most := 0
	for i := 0; i < 8*maxFenceEvery; i++ {
		if i%8 == 0 {
			r.Finish()
		}
		r.Clear()
		r.DrawBalls(0.5)
		win.Swap()
		clk.now += 10_000
		r.EndFrame()
		most = max(most, r.fenceEvery)
	}
	if most > 2 {
		t.Errorf("frames of 20 million fragments, the GPU caught up every 8: a fence every %d frames at most, want 2", most)
	}
}

// TestComparisonBlocksMeasuredWhole: the balls' choice judges each block
// of a comparison whole (adaptive.Choice.JudgeBlocks): the last frame of
// a block waits for the GPU to finish it, so that once its EndFrame
// returns the GPU is done, and what the block's option queued is in its
// cost, none left to the frames after it, drawn another way. The start's
// first block has no settling frames, and nothing before it in flight:
// each of its frames waits for its own (else they would measure only the
// commands they queue: on an NVIDIA H100 at 1,000,000 balls, 0.2 and
// 0.05 ms among frames of 27 ms). The other frames of a block queue
// behind each other, as frames nobody measures do: a block measured
// frame by frame alone would be each frame's latency, without the
// overlap that pipelining gives an option (on llvmpipe at 10,000 balls of
// radius 1, points as cheap as squares, which are cheaper).
func TestComparisonBlocksMeasuredWhole(t *testing.T) {
	win := withGL(t, 640, 480)
	// Big balls: each frame is millions of fragments, work the
	// rasterizer does after the draw call has returned.
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 24, FracBits: fracBits, Cull: adaptive.Auto})
	last, next := randomBalls(3000, 11)
	r.Sync(last, next, 1, 1)
	idle := func() bool {
		f := gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
		defer gl.DeleteSync(f)
		switch gl.ClientWaitSync(f, gl.SYNC_FLUSH_COMMANDS_BIT, 0) {
		case gl.ALREADY_SIGNALED, gl.CONDITION_SATISFIED:
			return true
		}
		return false
	}
	// frame draws a frame at mix factor alpha and reports whether the
	// comparison measured it, whether it closed a block, and whether the
	// GPU is done with it once EndFrame has returned.
	frame := func(alpha float32) (measured, closes, done bool) {
		before, _ := r.choice.Compared()
		r.Clear()
		r.DrawBalls(alpha)
		after, _ := r.choice.Compared()
		measured, closes = after > before, r.cells.closes
		win.Swap()
		r.EndFrame()
		return measured, closes, idle()
	}
	const start = adaptive.Block - adaptive.Settle // the start's first block
	closed, queued := 0, 0
	for i := range 3 * adaptive.Block {
		measured, closes, done := frame(float32(i) / 16)
		switch {
		case !measured:
			t.Fatalf("frame %d of the start's comparison not measured", i+1)
		case i < start && !closes:
			t.Errorf("frame %d, of the start's first block: not waiting for its own work", i+1)
		case closes && !done:
			t.Errorf("frame %d closes a block: the GPU still at work after EndFrame", i+1)
		case closes:
			closed++
		case !done:
			queued++
		}
	}
	if closed < start+2 {
		t.Errorf("%d frames of the comparison's first %d closed a block or waited for their own, want at least %d", closed, 3*adaptive.Block, start+2)
	}
	if queued == 0 {
		t.Errorf("every frame within the comparison's blocks left the GPU done; want frames queued behind each other")
	}
	// Frames nobody measures queue behind each other too.
	r.SetCull(adaptive.Off)
	r.SetSprites(adaptive.Off)
	busy := 0
	for i := range 8 {
		if measured, _, done := frame(float32(i) / 8); measured {
			t.Fatalf("frame %d measured with the choice forced", i+1)
		} else if !done {
			busy++
		}
	}
	if busy == 0 {
		t.Errorf("8 frames not measured: the GPU done after each EndFrame; want frames queued behind it")
	}
}

// testClock is a renderer's clock (Renderer.clock) driven by a test: each
// reading moves it on by step, what a fence point costs, and the test
// moves it on by what a frame takes.
type testClock struct{ now, step int64 }

func (c *testClock) read() int64 { c.now += c.step; return c.now }

// TestFencesEveryFrameWhereTheyCostLittle: frames that a fence point costs
// under a hundredth of keep a fence every frame, though the GPU keeps up
// (done with every frame before the next): a fence a frame costs them
// nothing, and more frames between fences let the loop run ahead of a GPU
// that falls behind later (10,000 balls of radius 1 on llvmpipe, where a
// tick's upload then waited for 30 frames and more). Frames so cheap that
// fences weigh space them out; dearer frames again bring them back to
// every frame.
func TestFencesEveryFrameWhereTheyCostLittle(t *testing.T) {
	win := withGL(t, 320, 240)
	r := newRendererConfig(t, win, Config{WorldW: 320, WorldH: 240, Radius: 8, FracBits: fracBits})
	clk := &testClock{step: 2000} // a fence point: 2 µs
	r.clock = clk.read
	frames := func(n int, ns int64) (most int) {
		for i := 0; i < n; i++ {
			r.Clear()
			win.Swap()
			clk.now += ns
			r.EndFrame()
			r.Finish() // the GPU done before the next frame's fence point
			most = max(most, r.fenceEvery)
		}
		return most
	}
	if most := frames(200, 2_000_000); most != 1 {
		t.Errorf("frames of 2 ms, fence points of 2 µs: a fence every %d frames at most, want every frame", most)
	}
	if frames(200, 20_000); r.fenceEvery != maxFenceEvery {
		t.Errorf("frames of 20 µs: a fence every %d frames, want %d", r.fenceEvery, maxFenceEvery)
	}
	frames(31, 2_000_000) // halving: after 16 frames, 8, 4, 2, 1
	if r.fenceEvery != 1 {
		t.Errorf("frames of 2 ms again: a fence every %d frames after 31, want every frame", r.fenceEvery)
	}
}

// TestOverlayTexelsHaveValues: NewOverlay uploads nothing (a blank
// upload there cost the demo's start-up 15 ms); every texel still has a
// value when drawn. An overlay drawn before any upload is transparent:
// a layer of it, blended over another that was drawn, leaves that one's
// pixels. The first upload, though it names a part, sends the whole image
// (which has the overlay's size): the texels beside the part are the
// image's, not whatever the new texture held.
func TestOverlayTexelsHaveValues(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	fill := func(img *image.RGBA, c color.RGBA) {
		for i := 0; i < len(img.Pix); i += 4 {
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
	}
	white, blue := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 255, 255}
	under := r.NewOverlay(64, 32)
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	fill(img, white)
	under.Upload(img, img.Rect)
	if got := under.UploadedBytes(); got != 64*32*4 {
		t.Errorf("a whole upload: %d bytes, want %d", got, 64*32*4)
	}
	never := r.NewOverlay(64, 32)
	part := r.NewOverlay(64, 32)
	pimg := image.NewRGBA(image.Rect(0, 0, 64, 32))
	fill(pimg, blue)
	part.Upload(pimg, image.Rect(0, 0, 8, 8))
	if got := part.UploadedBytes(); got != 64*32*4 {
		t.Errorf("the first upload, of an 8x8 part: %d bytes, want the whole image's %d", got, 64*32*4)
	}
	part.Upload(pimg, image.Rect(0, 0, 8, 8))
	if got := part.UploadedBytes(); got != 64*32*4+8*8*4 {
		t.Errorf("the second upload, of an 8x8 part: %d bytes in all, want %d", got, 64*32*4+8*8*4)
	}
	r.Sync(nil, nil, 1, 1)
	r.Draw(&Frame{Alpha: 1, Layers: []Layer{
		{Overlay: under, X: 100, Y: 100, W: 64, H: 32, Opaque: true},
		{Overlay: never, X: 100, Y: 100, W: 64, H: 32},
		{Overlay: part, X: 300, Y: 100, W: 64, H: 32, Opaque: true},
	}})
	got := r.ReadPixels()
	for y := 100; y < 132; y++ {
		for x := 0; x < 64; x++ {
			if c := got.RGBAAt(100+x, y); c != white {
				t.Fatalf("under an overlay never uploaded, pixel %d,%d is %v, want the white beneath", 100+x, y, c)
			}
			if c := got.RGBAAt(300+x, y); c != blue {
				t.Fatalf("an overlay whose first upload named 8x8 texels: pixel %d,%d is %v, want the image's blue", 300+x, y, c)
			}
		}
	}
}

// An overlay's texture holds what its uploads and draws reach, not the
// overlay's whole size: the first upload of a 100x50 part of a 420x520
// overlay allocates 128x64 texels; an upload reaching further grows it,
// filled with all the image has (the texels no upload named included); a
// layer drawn larger than any upload grows it again, from the last
// upload's image. Each stage's picture is read back against the image.
// Allocating the whole size in NewOverlay, as before, fails the sizes.
func TestOverlayStorageGrowsAsUsed(t *testing.T) {
	win := withGL(t, 640, 480)
	r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits})
	o := r.NewOverlay(420, 520)
	img := image.NewRGBA(image.Rect(0, 0, 420, 520))
	for y := 0; y < 520; y++ {
		for x := 0; x < 420; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y), uint8(x>>8 | y>>8<<2 | 0x80), 255})
		}
	}
	r.Sync(nil, nil, 1, 1)
	bytes := int64(0)
	for _, s := range []struct {
		stage  string
		upload image.Rectangle // none where empty
		w, h   int             // the layer drawn
		tw, th int             // the storage then
		bytes  int             // uploaded at this stage
	}{
		{"a first upload of 100x50 texels", image.Rect(0, 0, 100, 50), 100, 50, 128, 64, 128 * 64 * 4},
		{"an upload reaching 300x150", image.Rect(200, 100, 300, 150), 300, 150, 320, 192, 320 * 192 * 4},
		{"a layer of 400x300, uploaded no further", image.Rectangle{}, 400, 300, 420, 320, 420 * 320 * 4},
		{"a layer of 400x300 again", image.Rectangle{}, 400, 300, 420, 320, 0},
	} {
		if !s.upload.Empty() {
			o.Upload(img, s.upload)
		}
		r.Draw(&Frame{Alpha: 1, Layers: []Layer{{Overlay: o, X: 0, Y: 0, W: s.w, H: s.h, Opaque: true}}})
		if o.tw != s.tw || o.th != s.th {
			t.Errorf("%s: storage %dx%d texels, want %dx%d", s.stage, o.tw, o.th, s.tw, s.th)
		}
		if got := o.UploadedBytes() - bytes; got != int64(s.bytes) {
			t.Errorf("%s: %d bytes uploaded, want %d", s.stage, got, s.bytes)
		}
		bytes = o.UploadedBytes()
		got := r.ReadPixels()
		for y := 0; y < s.h; y++ {
			for x := 0; x < s.w; x++ {
				if c, want := got.RGBAAt(x, y), img.RGBAAt(x, y); c != want {
					t.Fatalf("%s: pixel %d,%d is %v, want the image's %v", s.stage, x, y, c, want)
				}
			}
		}
	}
}

// The HUD as a window shows it lights exactly the pixels its glyphs
// light, whatever it showed before: texts of other lengths one after the
// other, each uploaded where it changed as the demo does, read back from
// the drawable and compared pixel for pixel with the text rendered on the
// CPU. A stray dot between words (an old glyph's texel, a filtered
// neighbour, a ball beneath) fails it.
func TestHUDReadBackLightsOnlyItsGlyphs(t *testing.T) {
	win := withGL(t, 900, 600)
	for _, retained := range []bool{false, true} {
		r := newRendererConfig(t, win, Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: retained})
		r.ResizeArea(900, 600, Rect{420, 0, 480, 600})
		text := hud.NewTextImage(420, 460)
		o := r.NewOverlay(420, 460)
		pos := []int32{q8(20), q8(20), q8(600), q8(400)}
		r.Sync(pos, pos, 1, 1)
		for i, s := range []string{
			"FPS 58.0  TPS 24.0  ticks this frame 1\npacing smooth  refresh 16.7ms  step error p99 0.059ms\nlog scale 0.1 ms - 1 s; bar colour = ticks in the frame",
			"step error log scale",
			"a, b. c; d: e\n\nH hud   ? or F1 help   F graph   G ghosts\narrows, WASD move your ball   Q, Escape quit",
		} {
			panel := text.Render([]byte(s))
			o.Upload(text.Img, panel)
			l := Layer{Overlay: o, W: panel.Dx(), H: panel.Dy(), Opaque: true}
			r.Draw(&Frame{Alpha: 0.5, Layers: []Layer{l}})
			got := r.ReadPixels()
			for y := 0; y < panel.Dy(); y++ {
				for x := 0; x < panel.Dx(); x++ {
					want, g := text.Img.RGBAAt(x, y), got.RGBAAt(x, y)
					if want.R != g.R || want.G != g.G || want.B != g.B {
						t.Fatalf("retained %v, text %d: pixel %d,%d is %v, the text's %v", retained, i, x, y, g, want)
					}
				}
			}
		}
	}
}

// With the overlays beside the world and too many balls to repaint in
// parts, a retained frame repaints the world's part of the window and
// what the overlays changed, not the overlays whole, and shows the same
// pixels as a whole frame.
func TestRetainedWorldAreaMatchesWholeFrames(t *testing.T) {
	for _, form := range []adaptive.Mode{adaptive.On, adaptive.Off} {
		retainedWorldAreaMatchesWhole(t, withGL(t, 900, 600), form)
	}
}

// The same in a window that presents only what each frame repainted: the
// world's area is repainted with the whole drawable cleared first
// (Config.PaintedOnly), which leaves the overlays' part of the back
// buffer cleared too; the window, read from the X server, shows the
// whole frame all the same.
func TestWindowShowsWholeFramesWhenTheWorldIsRepainted(t *testing.T) {
	retainedWorldAreaMatchesWhole(t, withWindowGL(t, 900, 600), adaptive.Off)
}

func retainedWorldAreaMatchesWhole(t *testing.T, win *platform.Window, form adaptive.Mode) {
	inWindow := win.CanPresentParts()
	r := newRendererConfig(t, win, formConfig(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: true, PaintedOnly: inWindow}, form))
	area := Rect{260, 0, 640, 480}
	r.ResizeArea(900, 600, area)
	hud, graph := r.NewOverlay(250, 600), r.NewOverlay(640, 100)
	hudImg, graphImg := image.NewRGBA(image.Rect(0, 0, 250, 600)), image.NewRGBA(image.Rect(0, 0, 640, 100))
	stripesAlpha(hudImg, 0, true)
	stripesAlpha(graphImg, 0, true)
	hud.Upload(hudImg, hudImg.Rect)
	graph.Upload(graphImg, graphImg.Rect)
	const n = 1000
	last, next := make([]int32, 2*n), make([]int32, 2*n)
	set := func(tick int) {
		for i := range n {
			x, y := float64(20+(i*37)%600), float64(20+(i*53)%440)
			dx, dy := float64(i%7-3), float64(i%5-2)
			last[2*i], last[2*i+1] = q8(x+dx*float64(tick)), q8(y+dy*float64(tick))
			next[2*i], next[2*i+1] = q8(x+dx*float64(tick+1)), q8(y+dy*float64(tick+1))
		}
	}
	set(0)
	r.Sync(last, next, 1, 1)
	inArea := 0
	for f := range 24 {
		if f%3 == 2 {
			set(f)
			r.Sync(last, next, uint64(2+f), 1)
		}
		if f%5 == 4 { // the graph's sweep changes a few columns
			stripesAlpha(graphImg, f, true)
			x := f * 41 % 620
			graph.Upload(graphImg, image.Rect(x, 0, x+20, 100))
		}
		fr := Frame{Alpha: float32(f%3) / 3, Layers: []Layer{
			{Overlay: hud, W: 250, H: 600, Opaque: true},
			{Overlay: graph, X: 260, Y: 490, W: 640, H: 100, Opaque: true},
		}}
		r.Draw(&fr)
		painted := append([]Rect(nil), r.Painted()...)
		got := r.ReadPixels()
		if p := r.Painted(); f > 0 && len(p) > 0 && p[0] == area {
			inArea++
			if r.ret.clearAll != inWindow {
				t.Fatalf("frame %d: the world's area repainted with the whole drawable cleared %v, want %v", f, r.ret.clearAll, inWindow)
			}
		}
		if !inWindow {
			checkWhole(t, r, &fr, got, f, painted)
			win.Swap()
			continue
		}
		presentAndCheck(t, win, painted, func() *image.RGBA { return checkWhole(t, r, &fr, got, f, painted) }, f, r.ret.painted)
	}
	if inArea < 12 {
		t.Errorf("only %d of 24 frames repainted the world's area: the plan was not tested", inArea)
	}
}

// With the world in a window of its own (the platform's SplitWorld): the
// world's renderer draws there as in a window of the world's size, and a
// renderer of the layers alone (Config.LayersOnly), in a second context,
// draws them around it in the window, only when they change; each
// presents only what it repainted. After every frame the window, read
// from the X server, shows exactly the whole frame one renderer draws in
// one drawable: the balls cross the world's edges, the layers get new
// contents in parts, and the window is covered and exposed once.
func TestSplitWindowShowsWholeFrames(t *testing.T) { splitWindowFrames(t, false) }

// The same by swaps alone, as where GLX cannot present parts (NVIDIA's):
// the world's window swapped every frame, drawn whole, and the window
// around it swapped, drawn whole, only in the frames where the layers
// change or were lost. Between those, the X server keeps what the
// window showed, and the world's window's swaps leave it alone.
func TestSplitWindowBySwapsShowsWholeFrames(t *testing.T) { splitWindowFrames(t, true) }

func splitWindowFrames(t *testing.T, swaps bool) {
	const winW, winH = 900, 600
	win := withWindowGL(t, winW, winH)
	display := os.Getenv("DISPLAY")
	area := Rect{260, 0, 640, 480}
	fresh, err := win.SplitWorld(image.Rect(area.X, area.Y, area.X+area.W, area.Y+area.H))
	if err != nil || !fresh {
		t.Fatalf("SplitWorld: fresh %v, %v", fresh, err)
	}
	// The world's renderer and the overlays' textures, in the window's
	// context, on the world's window.
	win.UseWorld()
	mk := func(cfg Config) *Renderer {
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	parts := !swaps // the renderers keep and present only what changed
	world := mk(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Retained: parts, PaintedOnly: parts, Cull: adaptive.Off, Sprites: adaptive.Off})
	world.Resize(area.W, area.H)
	hud, graph := world.NewOverlay(250, 600), world.NewOverlay(640, 100)
	// The layers' renderer, and the reference (whole frames, one
	// drawable: the window's back buffer, never shown), in the second
	// context, on the window.
	if err := win.UseLayers(); err != nil {
		t.Fatal(err)
	}
	lay := mk(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, LayersOnly: true, Retained: parts, PaintedOnly: parts})
	lay.ResizeArea(winW, winH, area)
	ref := mk(Config{WorldW: 640, WorldH: 480, Radius: 8, FracBits: fracBits, Cull: adaptive.Off, Sprites: adaptive.Off})
	ref.ResizeArea(winW, winH, area)
	t.Cleanup(func() {
		if win.UseLayers() == nil {
			for _, r := range []*Renderer{lay, ref} {
				if err := r.DebugErr(); err != nil {
					t.Errorf("the driver reported: %v", err)
				}
				r.Delete()
			}
		}
		win.UseWorld()
		if err := world.DebugErr(); err != nil {
			t.Errorf("the driver reported: %v", err)
		}
		world.Delete()
		win.UseWindow()
	})

	hudImg, graphImg := image.NewRGBA(image.Rect(0, 0, 250, 600)), image.NewRGBA(image.Rect(0, 0, 640, 100))
	stripesAlpha(hudImg, 0, true)
	stripesAlpha(graphImg, 0, true)
	const n = 60
	last, next := make([]int32, 2*n), make([]int32, 2*n)
	set := func(tick int) {
		for i := range n {
			// Some run off the world's edges: into the bars' row below
			// it, which a sprite must not reach in the window.
			x, y := float64(-10+(i*37)%660), float64(-10+(i*53)%500)
			dx, dy := float64(i%7-3), float64(i%5-2)
			last[2*i], last[2*i+1] = q8(x+dx*float64(tick)), q8(y+dy*float64(tick))
			next[2*i], next[2*i+1] = q8(x+dx*float64(tick+1)), q8(y+dy*float64(tick+1))
		}
	}
	layers := []Layer{{Overlay: hud, W: 250, H: 600, Opaque: true}, {Overlay: graph, X: 260, Y: 490, W: 640, H: 100, Opaque: true}}
	layerFrames := 0
	for f := range 30 {
		if f%4 == 0 {
			set(f)
		}
		step := uint64(1 + f/4)
		alpha := float32(f%4) / 4
		// Where swaps present, the layers are drawn where they change
		// or were lost, as the demo does.
		changed := f == 0 || f == 17
		upload := func() {
			if f%5 == 0 {
				stripesAlpha(hudImg, f, true)
				hud.Upload(hudImg, image.Rect(0, 0, 250, 60))
				changed = true
			}
			if f%3 == 1 {
				stripesAlpha(graphImg, f, true)
				x := f * 41 % 620
				graph.Upload(graphImg, image.Rect(x, 0, x+20, 100))
				changed = true
			}
		}
		if f == 17 {
			// Covered and uncovered: both windows lost what they showed.
			if err := x11test.Cover(display, win.XWindow(), image.Rect(0, 0, winW, winH), 0xff00ff); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(5 * time.Second); !win.WorldExposed() && time.Now().Before(deadline); {
			}
			world.Invalidate()
			lay.Invalidate()
		}
		win.UseWorld()
		world.Sync(last, next, step, 1)
		world.Draw(&Frame{Alpha: alpha})
		var rects []image.Rectangle
		for _, p := range world.Painted() {
			rects = append(rects, image.Rect(p.X, p.Y, p.X+p.W, p.Y+p.H))
		}
		if f == 0 || swaps {
			win.SwapWorld()
		} else {
			win.PresentWorldParts(rects)
		}
		if err := win.UseLayers(); err != nil {
			t.Fatal(err)
		}
		upload()
		switch {
		case swaps && changed:
			lay.Draw(&Frame{Layers: layers})
			win.Swap()
			layerFrames++
		case !swaps:
			lay.Draw(&Frame{Layers: layers})
			if len(lay.Painted()) > 0 {
				layerFrames++
			}
			rects = rects[:0]
			for _, p := range lay.Painted() {
				rects = append(rects, image.Rect(p.X, p.Y, p.X+p.W, p.Y+p.H))
			}
			win.PresentParts(rects)
		}

		ref.Sync(last, next, step, 1)
		ref.Draw(&Frame{Alpha: alpha, Layers: layers})
		want := ref.ReadPixels()
		shown, err := x11test.Pixels(display, win.XWindow(), winW, winH)
		if err != nil {
			t.Fatal(err)
		}
		// The world is rasterized at another offset in its own window
		// than in the reference's: a disc's edge may round a level
		// apart (pixels read from the GPU might include errors). Any
		// other difference is a pixel the window lost.
		differ := 0
		for i, v := range shown {
			px, py := i%winW, i/winW
			c := want.RGBAAt(px, py)
			d := max(abs(int(v>>16)-int(c.R)), abs(int(v>>8&255)-int(c.G)), abs(int(v&255)-int(c.B)))
			if d > 0 {
				differ++
			}
			if d > 2 {
				t.Fatalf("frame %d: the window shows %06x at (%d,%d), the whole frame %v (world repainted %d pixels, layers %d)", f, v, px, py, c, world.RepaintedPixels(), lay.RepaintedPixels())
			}
		}
		if differ > winW*winH/200 {
			t.Fatalf("frame %d: %d pixels a level or two off the whole frame", f, differ)
		}
	}
	if layerFrames < 10 || layerFrames > 25 {
		t.Errorf("the layers were repainted in %d frames of 30, want about 15 (when they changed)", layerFrames)
	}
}
