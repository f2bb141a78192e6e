//go:build js && wasm

package web

import (
	"image"
	"strconv"
	"syscall/js"
	"time"

	"github.com/interpdemo/interpdemo/internal/demo"
)

// The page's window is a box of the window's size (demo.Layout) holding
// three canvases: the world's, drawn with WebGL2 each frame, and one for
// each overlay, a 2D canvas written only where its image changed. The
// browser composites the page on every frame, and each canvas costs it
// by its size when it changed: a WebGL canvas is handed to the
// compositor whole each frame it draws (with SwiftShader, a copy of every
// pixel on the CPU), so the world's canvas is as large as the world's
// view, letterboxed in its part, and no larger (the page's background is
// the bars), and the overlays' canvases are written only in the
// frames where their images changed, both together, at most 10 times a
// second (overlayRefresh): each frame that changes one costs the browser
// that canvas again, whatever the change's size (docs/WEB.md, "Where a
// frame goes"). The canvases show the overlays' images pixel for pixel,
// as the window's textures do.

// layout is the page's window: the box, the world's canvas, and the
// overlays' canvases.
type layout struct {
	place      js.Value // placeJS's function
	world      js.Value // the world's canvas
	worldAt    demo.Rect
	hud, graph panelCanvas
	bytes      int64         // overlay bytes written into the canvases
	nextWrite  time.Duration // when the overlays' changes may next be written
}

// overlayRefresh is how often at most the overlays' canvases are
// written with what changed in their images: a person reads the HUD's
// numbers a few times a second, and each frame that changes a canvas
// costs the browser that canvas again (with SwiftShader, a copy of it on
// the CPU, and its compositing). The demo redraws the graph 30 times a
// second and the HUD's text 10; the page writes both, together, at most
// 10 times: what changed since, its latest pixels.
const overlayRefresh = 100 * time.Millisecond

// panelCanvas is an overlay's canvas.
type panelCanvas struct {
	el, ctx js.Value
	// img is an ImageData whose rows are as long as the panel image's
	// (its Stride): a changed rectangle's pixels are copied into it from
	// the first to the last, unpacked, then written into the canvas.
	img, data js.Value
	imgW      int // img's width in pixels; 0: none yet
	imgLen    int // data's length in bytes
	// narrow is an ImageData narrowW pixels wide, and its bytes: a
	// rectangle at most that wide (a few columns of the graph's sweep)
	// is packed into stage in Go and copied alone, not its rows whole.
	narrow, narrowData js.Value
	stage              []byte
	at                 demo.Rect // where the canvas is shown; zero: hidden
	changed            dirty     // what changed in the image since the canvas was written
}

// narrowW is the widest rectangle put packs.
const narrowW = 64

// placeJS is the body of a function that returns a function placing an
// element at x, y, w×h CSS pixels in its box, or hiding it where w or h
// is 0: called with numbers, it costs the loop no allocation (a string
// handed over from Go would).
const placeJS = `
return (el, x, y, w, h) => {
	const s = el.style;
	if (w <= 0 || h <= 0) { s.display = "none"; return; }
	s.display = "block";
	s.left = x + "px"; s.top = y + "px"; s.width = w + "px"; s.height = h + "px";
};
`

// newLayout makes the window, w×h pixels, around the world's canvas: a
// box in its place in the page, the canvas and the overlays' canvases in
// it, placed by place.
func newLayout(doc, world js.Value, w, h int) *layout {
	l := &layout{place: js.Global().Get("Function").New(placeJS).Invoke(), world: world}
	box := doc.Call("createElement", "div")
	box.Set("id", "window")
	st := box.Get("style")
	// No background of its own: where nothing is drawn the page's shows,
	// the letterbox bars' colour (cmd/web/index.html's body). One of the
	// box's would be composited again under the canvases in every frame
	// the browser shows.
	st.Set("position", "relative")
	st.Set("width", strconv.Itoa(w)+"px")
	st.Set("height", strconv.Itoa(h)+"px")
	world.Get("parentNode").Call("insertBefore", box, world)
	box.Call("appendChild", world)
	world.Get("style").Set("position", "absolute")
	for _, pc := range []struct {
		c  *panelCanvas
		id string
	}{{&l.hud, "hud"}, {&l.graph, "graph"}} {
		pc.c.el = doc.Call("createElement", "canvas")
		pc.c.el.Set("id", pc.id)
		pc.c.el.Get("style").Set("position", "absolute")
		pc.c.el.Get("style").Set("display", "none")
		box.Call("appendChild", pc.c.el)
		// Opaque, as the panels are: the compositor need not blend them.
		pc.c.ctx = pc.c.el.Call("getContext", "2d", map[string]any{"alpha": false})
	}
	return l
}

// warm gives each overlay's canvas a pixel of the bars' colour, at the
// top left of its area in the window as it opens (demo.Layout), before
// the loop starts: the first write into a canvas, and the first frame
// the browser composites with it, make its resources and pipelines, which
// on SwiftShader took a loop's early frame 200 ms (docs/WEB.md). The
// first frame sizes them.
func (l *layout) warm(hudArea, graphArea demo.Rect) {
	px := js.Global().Get("ImageData").New(1, 1)
	px.Get("data").Call("set", js.ValueOf([]any{5, 5, 8, 255}))
	for _, w := range []struct {
		c    *panelCanvas
		area demo.Rect
	}{{&l.hud, hudArea}, {&l.graph, graphArea}} {
		if w.area.W <= 0 || w.area.H <= 0 {
			continue
		}
		w.c.el.Set("width", 1)
		w.c.el.Set("height", 1)
		w.c.at = demo.Rect{X: w.area.X, Y: w.area.Y, W: 1, H: 1}
		l.place.Invoke(w.c.el, w.area.X, w.area.Y, 1, 1)
		w.c.ctx.Call("putImageData", px, 0, 0)
	}
}

// show places the world's canvas and the overlays' as sc lays them out,
// the world's as large as its view (a change resizes gl), and writes
// what changed of the overlays' images into their canvases: a canvas
// shown anew or resized at once, whole; the changes of both, together,
// at most every overlayRefresh (now is the frame's time).
func (l *layout) show(now time.Duration, sc *demo.Scene, gl *glRenderer) {
	if w := sc.World; w != l.worldAt && w.W > 0 && w.H > 0 {
		l.worldAt = w // an overlay turned on or off, or the HUD's form changed
		x, y, vw, vh := gl.resize(w.W, w.H)
		l.place.Invoke(l.world, w.X+x, w.Y+y, vw, vh)
	}
	hud := l.panel(&l.hud, sc.HUD)
	graph := l.panel(&l.graph, sc.Graph)
	if now < l.nextWrite || l.hud.changed.n == 0 && l.graph.changed.n == 0 {
		return
	}
	l.nextWrite = now + overlayRefresh
	l.flush(&l.hud, hud)
	l.flush(&l.graph, graph)
}

// panel places pc as p (nil: none) is shown, and returns p's image: the
// canvas written whole where it was hidden or resized, else p's changes
// noted for the next write.
func (l *layout) panel(pc *panelCanvas, p *demo.Panel) *image.RGBA {
	if p == nil || p.W <= 0 || p.H <= 0 {
		if pc.at != (demo.Rect{}) {
			l.place.Invoke(pc.el, 0, 0, 0, 0)
			pc.at = demo.Rect{}
		}
		pc.changed.reset()
		return nil
	}
	at := demo.Rect{X: p.X, Y: p.Y, W: p.W, H: p.H}
	whole := at.W != pc.at.W || at.H != pc.at.H
	if whole {
		pc.el.Set("width", at.W) // and clears it
		pc.el.Set("height", at.H)
	}
	if at != pc.at {
		l.place.Invoke(pc.el, at.X, at.Y, at.W, at.H)
		pc.at = at
	}
	shown := image.Rect(0, 0, at.W, at.H).Add(p.Img.Rect.Min)
	if whole {
		pc.changed.reset()
		l.put(pc, p.Img, shown)
		return p.Img
	}
	for _, c := range p.Changed {
		pc.changed.add(c.Intersect(shown))
	}
	return p.Img
}

// flush writes what changed of img (nil: none shown) into pc's canvas.
func (l *layout) flush(pc *panelCanvas, img *image.RGBA) {
	if img != nil {
		for _, c := range pc.changed.list() {
			l.put(pc, img, c)
		}
	}
	pc.changed.reset()
}

// put writes the rectangle c of img into pc's canvas.
func (l *layout) put(pc *panelCanvas, img *image.RGBA, c image.Rectangle) {
	c = c.Intersect(img.Rect)
	if c.Empty() {
		return
	}
	if c.Dx() <= narrowW {
		l.putNarrow(pc, img, c)
		return
	}
	if w, n := img.Stride/4, img.Stride*img.Rect.Dy(); w != pc.imgW || n > pc.imgLen {
		pc.img = js.Global().Get("ImageData").New(w, img.Rect.Dy())
		pc.data = pc.img.Get("data")
		pc.imgW, pc.imgLen = w, n
	}
	// The pixels from c's first to its last, whole rows between: c lies
	// at the top left of the ImageData. Go's RGBA is premultiplied, an
	// ImageData's is not; the panels are opaque, where the two agree.
	first, last := img.PixOffset(c.Min.X, c.Min.Y), img.PixOffset(c.Max.X-1, c.Max.Y-1)+4
	js.CopyBytesToJS(pc.data, img.Pix[first:last])
	pc.ctx.Call("putImageData", pc.img, c.Min.X-img.Rect.Min.X, c.Min.Y-img.Rect.Min.Y, 0, 0, c.Dx(), c.Dy())
	l.bytes += int64(c.Dx() * c.Dy() * 4)
}

// putNarrow writes c, at most narrowW pixels wide, into pc's canvas
// through the narrow ImageData: its rows packed one after another.
func (l *layout) putNarrow(pc *panelCanvas, img *image.RGBA, c image.Rectangle) {
	if n := narrowW * 4 * c.Dy(); n > len(pc.stage) {
		h := max(c.Dy(), img.Rect.Dy())
		pc.narrow = js.Global().Get("ImageData").New(narrowW, h)
		pc.narrowData = pc.narrow.Get("data")
		pc.stage = make([]byte, narrowW*4*h)
	}
	js.CopyBytesToJS(pc.narrowData, pc.stage[:packRect(pc.stage, narrowW*4, img, c)])
	pc.ctx.Call("putImageData", pc.narrow, c.Min.X-img.Rect.Min.X, c.Min.Y-img.Rect.Min.Y, 0, 0, c.Dx(), c.Dy())
	l.bytes += int64(c.Dx() * c.Dy() * 4)
}
