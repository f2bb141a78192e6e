package desktop

import (
	"image"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/render"
)

// How a frame reaches the screen, as -stats reports it (present).
const (
	presentSwap  = "swap"  // the whole frame, swapped
	presentParts = "parts" // what changed, presented (GLX_MESA_copy_sub_buffer)
	presentSplit = "split" // the same, the world in a window of its own
	// The world in a window of its own, swapped whole every frame, and
	// the window around it swapped where the overlays change: where GLX
	// cannot present parts (NVIDIA's).
	presentSplitSwap = "split-swap"
)

// show draws the frame's scene and puts it on the screen: swapped whole,
// or only what changed presented, with the world in a window of its own
// where the platform can.
func (a *app) show(sc *demo.Scene, now time.Duration) {
	d := a.d
	// A resized window's next frame is swapped, not presented in parts:
	// the GL driver learns a window's new size at a swap (Mesa's software
	// GLX keeps the old back buffer until then, and a part of the new
	// size beyond it is an X error).
	resized := a.resized
	a.resized = false
	parts := a.presentsParts()
	if a.splits() && a.showSplit(sc, resized, parts) {
		return
	}
	inParts := parts && !resized
	a.leaveSplit()
	a.rend.SetRetained(inParts || (a.win.Preserved() && !a.redraw))
	// Presenting parts, only the repaint is shown; a picture taken of
	// the drawable needs all of it.
	a.rend.SetPaintedOnly(inParts && !a.captures())
	if err := a.ov.draw(a.rend, sc, a.winW, a.winH); err != nil {
		a.drawErr = err
		d.Stop()
	}
	a.drawn()
	if d.Done() && a.cfg.Screenshot != "" {
		a.capture.last = a.rend.ReadPixels()
	}
	if a.capture.gif != nil {
		a.capture.gif.add(a.rend.ReadPixels(), now)
	}
	if inParts {
		a.win.PresentParts(a.partsOf(a.rend.Painted()))
		a.presented = presentParts
	} else {
		a.win.Swap()
		a.presented = presentSwap
	}
}

// drawn ends a frame's drawing: a GL error stops the run, and the render
// load is burnt.
func (a *app) drawn() {
	if err := a.rend.DebugErr(); err != nil {
		a.d.Stop() // finish reports it: exit status 1
	}
	busy(a.clock, a.d.RenderLoad())
}

// presentsParts says whether the frame shows only what it repainted,
// without a swap: a window that can present parts of its back buffer
// (platform.Window.CanPresentParts), which then keeps what it shows from
// one frame to the next, so that the renderer repaints only what changed.
// Not where the display's vsync is in force: only a swap waits for the
// vblank. Not with INTERPDEMO_RENDER=redraw.
func (a *app) presentsParts() bool {
	return a.win.CanPresentParts() && !a.redraw && !a.d.DisplayVsync()
}

// captures says whether pictures are taken of the drawable (-screenshot,
// -gif): they need the whole frame in one drawable.
func (a *app) captures() bool { return a.cfg.Screenshot != "" || a.capture.gif != nil }

// splits says whether the world gets a window of its own: where the
// platform can (X11 with GLX), unless pictures are taken of the drawable.
// Not where the display's vsync is in force (a frame's one swap waits for
// the vblank; two would wait twice), nor with INTERPDEMO_RENDER=redraw.
func (a *app) splits() bool {
	return a.win.CanSplitWorld() && !a.captures() && !a.splitFailed && !a.redraw && !a.d.DisplayVsync()
}

// showSplit draws and presents a frame with the world in a window of its
// own: the world, drawn by the renderer as in a window of the world's
// size, and the layers, drawn around it in the window by a renderer of
// their own, only when they change. Where the window presents parts,
// each presents only what it repainted; elsewhere (NVIDIA's GLX) the
// world's window is swapped every frame, whole, and the window where
// the layers change, whole: a frame's present is the world's pixels, not
// the window's, which the overlays make twice as many. It returns false,
// having drawn nothing, where the world cannot have its window.
func (a *app) showSplit(sc *demo.Scene, resized, parts bool) bool {
	w := sc.World
	area := image.Rect(w.X, w.Y, w.X+w.W, w.Y+w.H)
	fresh, err := a.win.SplitWorld(area)
	if err != nil {
		return false
	}
	if a.lay == nil && !a.newLayers(parts) {
		return false
	}
	if !a.split {
		// From one drawable to two: neither holds what the other drew.
		a.split, fresh = true, true
		a.lay.Invalidate()
	}
	a.win.UseWorld()
	if fresh {
		a.rend.Invalidate()
	}
	a.rend.SetRetained(parts)
	a.rend.SetPaintedOnly(parts)
	if err := a.ov.drawWorld(a.rend, sc, w.W, w.H, render.Rect{W: w.W, H: w.H}, nil); err != nil {
		a.drawErr = err
		a.d.Stop()
	}
	lf := a.ov.layerFrame(sc)
	a.lay.ResizeArea(a.winW, a.winH, render.Rect(sc.World))
	a.drawn()
	if fresh || !parts {
		a.win.SwapWorld() // fresh: the driver learns the world's window's size
	} else {
		a.win.PresentWorldParts(a.partsOf(a.rend.Painted()))
	}
	a.showLayers(sc, lf, resized, parts)
	a.presented = presentSplit
	if !parts {
		a.presented = presentSplitSwap
	}
	return true
}

// newLayers makes the layers' renderer, in a context of its own (sharing
// the overlays' textures), current on the window for good. Where that
// fails, the window draws the world itself from now on, and it returns
// false.
func (a *app) newLayers(parts bool) bool {
	if err := a.win.UseLayers(); err != nil {
		a.splitFailed = true
		a.win.UnsplitWorld()
		return false
	}
	cfg := renderConfig(a.d.World().Config(), a.win.Window, renderChoice{})
	cfg.LayersOnly, cfg.Retained, cfg.PaintedOnly = true, parts, parts
	var err error
	if a.lay, err = render.New(cfg); err != nil {
		a.lay, a.splitFailed = nil, true
		a.win.UnsplitWorld()
		return false
	}
	return true
}

// showLayers draws and presents the layers of a split window, lf, where
// they changed: new contents (uploaded in the layers' context, which
// draws them), moved, or lost. A resized window's are drawn whole and
// swapped (see show), as are all where the window presents no parts; a
// swap leaves the world's window alone.
func (a *app) showLayers(sc *demo.Scene, lf *render.Frame, resized, parts bool) {
	if resized {
		a.lay.Invalidate()
		a.layShown = false
	}
	a.lay.SetRetained(parts)
	a.lay.SetPaintedOnly(parts)
	shown := a.lay.Holds()
	if !parts {
		shown = a.layShown // a swapped frame is whole: it holds nothing for the next
	}
	if (a.ov.changed(sc) || a.ov.moved || !shown) && a.win.UseLayers() == nil {
		a.ov.moved = false
		a.ov.upload(sc)
		a.lay.Draw(lf)
		if err := a.lay.DebugErr(); err != nil {
			a.d.Stop()
		}
		if resized || !parts {
			a.win.Swap()
		} else {
			a.win.PresentParts(a.partsOf(a.lay.Painted()))
		}
		a.layShown = true
		a.win.UseWorld()
	}
}

// leaveSplit draws the world in the window again, if it had a window of
// its own: hidden, and the window's frame whole.
func (a *app) leaveSplit() {
	if !a.split {
		return
	}
	a.split, a.layShown = false, false
	a.win.UnsplitWorld()
	a.rend.Invalidate()
}

// exposed is told that the window lost what it showed: the next frame is
// drawn whole, the world's and the layers'.
func (a *app) exposed() {
	a.rend.Invalidate()
	if a.lay != nil {
		a.lay.Invalidate()
	}
	a.layShown = false
}

// partsOf converts the renderer's rectangles into the platform's, in a
// buffer reused from frame to frame.
func (a *app) partsOf(rects []render.Rect) []image.Rectangle {
	a.parts = a.parts[:0]
	for _, r := range rects {
		a.parts = append(a.parts, image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H))
	}
	return a.parts
}
