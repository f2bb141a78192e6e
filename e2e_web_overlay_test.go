package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/render/letterbox"
)

// The page's window is three canvases (internal/web/panels.go): the
// world's, no larger than the world's view, letterboxed in its part of
// the window, and one for each overlay where demo.Layout puts it, written
// where they change. A WebGL canvas costs the browser by its size on
// every frame it draws. With the defaults (640x480 world, the HUD's
// 280-pixel column, the graph's 108-pixel strip) the world's canvas is
// 640x480, as with the overlays off; turning them off (H, F) gives the
// world the room, its canvas the view letterboxed in the whole window.
func TestWebOverlaysAreCanvasesOfTheirOwn(t *testing.T) {
	w := openPage(t, 90*time.Second, "balls=100")
	if s := w.state(); s != "running" {
		t.Fatalf("state %s: %s", s, w.text("status"))
	}
	if err := w.page.WaitFor(w.ctx, `window.interpdemo.info().frames > 30`); err != nil {
		t.Fatal(err)
	}
	type box struct{ X, Y, W, H, CW, CH int }
	var got struct {
		Window      box
		World       box
		HUD, Graph  box
		HUDLit, Lit int // pixels brighter than the panels' background
	}
	const measure = `(() => {
		const at = (id) => { const e = document.getElementById(id); const r = e.getBoundingClientRect();
			const o = document.getElementById("window").getBoundingClientRect();
			if (getComputedStyle(e).display === "none") return {X: 0, Y: 0, W: 0, H: 0, CW: 0, CH: 0};
			return {X: Math.round(r.left - o.left), Y: Math.round(r.top - o.top), W: Math.round(r.width), H: Math.round(r.height), CW: e.width, CH: e.height}; };
		const lit = (id) => { const c = document.getElementById(id); if (c.width === 0) return 0;
			const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data; let n = 0;
			for (let i = 0; i < d.length; i += 4) if (d[i] + d[i+1] + d[i+2] > 300) n++; return n; };
		const o = document.getElementById("window").getBoundingClientRect();
		return {Window: {W: Math.round(o.width), H: Math.round(o.height)}, World: at("world"), HUD: at("hud"), Graph: at("graph"),
			HUDLit: lit("hud"), Lit: lit("graph")};
	})()`
	w.eval(measure, &got)
	if got.Window.W != 920 || got.Window.H != 588 {
		t.Errorf("window %dx%d, want 920x588 (640x480, the HUD's column, the graph's strip)", got.Window.W, got.Window.H)
	}
	if want := (box{280, 0, 640, 480, 640, 480}); got.World != want {
		t.Errorf("world's canvas %+v, want %+v: no larger than the world's part", got.World, want)
	}
	if h := got.HUD; h.X != 0 || h.Y != 0 || h.W < 100 || h.W > 280 || h.H < 60 || h.H > 520 || h.CW != h.W || h.CH != h.H {
		t.Errorf("HUD's canvas %+v, want at 0,0, as large as its text within the 280-pixel column, one pixel a texel", h)
	}
	if g := got.Graph; g != (box{280, 480, 640, 108, 640, 108}) {
		t.Errorf("graph's canvas %+v, want the strip under the world, 640x108", g)
	}
	// The HUD's text, and the graph's bars and line, are drawn.
	if got.HUDLit < 200 || got.Lit < 200 {
		t.Errorf("%d bright pixels in the HUD's canvas, %d in the graph's: drawn blank", got.HUDLit, got.Lit)
	}
	for _, k := range []string{"KeyH", "KeyF"} {
		if err := w.page.Key(w.ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	// Each key takes effect on a frame of its own: wait for both (the
	// view fills the window's height only with both overlays off).
	x, y, vw, vh, _ := letterbox.Fit(920, 588, 640, 480)
	if err := w.page.WaitFor(w.ctx, fmt.Sprintf(`document.getElementById("world").width === %d && document.getElementById("world").height === %d`, vw, vh)); err != nil {
		t.Fatalf("after H and F: %v", err)
	}
	w.eval(measure, &got)
	if want := (box{x, y, vw, vh, vw, vh}); got.HUD.W != 0 || got.Graph.W != 0 || got.World != want || vh != 588 {
		t.Errorf("overlays off: world %+v (want %+v), HUD %+v, graph %+v: want the world's view letterboxed in the whole window, the overlays hidden", got.World, want, got.HUD, got.Graph)
	}
}

// A frame later than the loop catches up (MaxLoops ticks of the tick)
// drops game time; the page says so, in its status line, and whose time
// the frame's gap was: here its own draw's, a render load of 300 ms.
func TestWebSaysWhyTheLogicFellBehind(t *testing.T) {
	w := openPage(t, 90*time.Second, "render-load=300ms&vsync=off&hud=false&graph=false")
	// Every frame takes 300 ms and more: the first after the warm-up
	// falls behind; 20 frames are 6 s and more.
	if err := w.page.WaitFor(w.ctx, `typeof window.interpdemo.behind === "string" || window.interpdemo.info().frames >= 20`); err != nil {
		t.Fatal(err)
	}
	var s string
	w.eval(`window.interpdemo.behind || ""`, &s)
	m := regexp.MustCompile(`^logic behind: a frame came (\d+) ms after the last, more than the 5 ticks of 40 ms a frame catches up; (\d+) ms of game time dropped\. The page's last frame took (\d+) ms \(its draw (\d+) ms\), the browser the (\d+) ms between frames`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("the page says %q", s)
	}
	n := make([]int, len(m))
	for i := 1; i < len(m); i++ {
		n[i], _ = strconv.Atoi(m[i])
	}
	gap, dropped, own, draw, other := n[1], n[2], n[3], n[4], n[5]
	if gap <= 200 || dropped <= 0 || draw < 300 || own < draw || own+other != gap && own+other != gap+1 && own+other != gap-1 {
		t.Errorf("gap %d ms, dropped %d, the page's frame %d (draw %d), the browser %d: %q", gap, dropped, own, draw, other, s)
	}
	if st := w.text("status"); !regexp.MustCompile(`(?s)^running: .*\nlogic behind: `).MatchString(st) {
		t.Errorf("status line %q", st)
	}
}

// Opened from a file, the page cannot fetch its WebAssembly: it says what
// to do instead, in one line.
func TestWebFromFileSaysServeIt(t *testing.T) {
	dir, _ := buildWeb(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := browser(t).NewPage(ctx, "file://"+filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w := &webRun{t: t, ctx: ctx, page: p, query: "(file://)"}
	if s := w.waitState("running", "stopped", "error", "help"); s != "error" {
		t.Fatalf("state %s, want error", s)
	}
	want := "interpdemo: open the page through make serve (http://127.0.0.1:8080/): a browser does not load WebAssembly from file://"
	if got := w.text("status"); got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}
