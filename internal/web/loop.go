//go:build js && wasm

package web

import (
	"errors"
	"runtime"
	"syscall/js"
)

// The page's loop is driven from JavaScript, a frame a call of the
// WebAssembly export interpdemo_frame: a small scheduler (schedulerJS)
// calls it on the next animation frame, MessageChannel message or timer,
// as the frame's return value asks. A Go callback (js.FuncOf) would do
// the same, but syscall/js allocates on every call of one (the event, its
// arguments, their slice): a heap allocation or five a frame, which the
// garbage collector would sooner or later have to stop the loop for. A
// call of an export allocates nothing, and a frame allocates nothing
// either (e2e_web_test checks both after the warm-up).

// The frame's answer: what to wait for before the next frame. A value
// of 0 or more is a timer of that many milliseconds.
const (
	nextNone      = -1 // no next frame: the run ended
	nextAnimation = -2 // the next animation frame (vsync on)
	nextMessage   = -3 // a MessageChannel message: at once, unthrottled
)

// current is the page whose loop the export drives (one a program).
var current *page

// The export is called from JavaScript only; staticcheck, which does
// not count a //go:wasmexport function as used, is told so.
var _, _ = frameExport, afterWarmupExport

//go:wasmexport interpdemo_frame
func frameExport(ts float64) float64 {
	if current == nil {
		return nextNone
	}
	return current.step(ts)
}

// afterWarmupExport is what the page has done since its warm-up ended
// (0 before): its frames (what 0), ticks (1), heap allocations (2) or GC
// cycles (3), for a test that counts the loop's allocations while it
// runs: quitting by a key would count the key event's (syscall/js
// allocates in a Go callback), and polling info() would allocate too; a
// call of an export allocates nothing.
//
//go:wasmexport interpdemo_after_warmup
func afterWarmupExport(what int32) float64 {
	p := current
	if p == nil || !p.warm {
		return 0
	}
	switch what {
	case 1:
		// A reset (R) starts the world's count again: none since.
		return float64(max(p.d.World().Ticks(), p.warmTicks) - p.warmTicks)
	case 2, 3:
		runtime.ReadMemStats(&p.mem)
		if what == 2 {
			return float64(p.mem.Mallocs - p.allocs)
		}
		return float64(uint64(p.mem.NumGC) - p.gcs)
	}
	return float64(p.frames - p.warmFrames)
}

// schedulerJS is the body of a function of the WebAssembly exports that
// returns the scheduler: called with a frame's answer, it arranges the
// next call of interpdemo_frame (the timestamp of the animation frame,
// -1 outside one) and hands that frame's answer to itself.
const schedulerJS = `
const ch = new MessageChannel();
let next;
const run = (ts) => next(exports.interpdemo_frame(ts));
ch.port1.onmessage = () => run(-1);
next = (n) => {
	if (n === -2) requestAnimationFrame(run);
	else if (n === -3) ch.port2.postMessage(0);
	else if (n >= 0) setTimeout(() => run(-1), n);
};
return next;
`

// errNoExports is the error of a page whose loader did not hand the
// WebAssembly instance's exports over.
var errNoExports = errors.New("the page's loader must set window.interpdemoWasm to the WebAssembly instance's exports before go.run (see cmd/web/index.html)")

// newScheduler makes the scheduler on the exports the page's loader
// left in window.interpdemoWasm.
func newScheduler() (js.Value, error) {
	ex := js.Global().Get("interpdemoWasm")
	if ex.Type() != js.TypeObject || ex.Get("interpdemo_frame").Type() != js.TypeFunction {
		return js.Value{}, errNoExports
	}
	return js.Global().Get("Function").New("exports", schedulerJS).Invoke(ex), nil
}

// step is one call of the export: the timer's delayed draw, or a frame;
// it returns what the next frame waits for.
func (p *page) step(ts float64) float64 {
	p.next = nextNone
	p.callStart = p.clock.Now()
	if p.drawAfter {
		p.drawAfter = false
		p.draw(p.frameNow, -1)
	} else {
		p.frame(ts)
	}
	return p.next
}

// after asks for the next call in ms milliseconds.
func (p *page) after(ms float64) {
	p.next = ms
}
