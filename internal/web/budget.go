//go:build js && wasm

package web

import (
	"strconv"
	"syscall/js"
	"time"

	"github.com/interpdemo/interpdemo/internal/sim"
)

// The logic keeps its 25 ticks a second as long as no frame comes later
// than the loop can catch up: MaxLoops ticks (5 of 40 ms: 200 ms). A
// frame later than that throws the rest of the time away (the time debt
// discarded), and the page says so in its status line and the console,
// with whose time the late frame's gap was: the page's own last frame
// (its Go code, and of it the draw, a render load included) or the
// browser's between the page's frames (its compositing, its GPU process
// rasterizing on the CPU with SwiftShader, other pages, other programs).

// budget says why the logic fell behind. Its message is built into a
// buffer kept from frame to frame and handed to JavaScript as bytes: no
// allocation, whatever the frames.
type budget struct {
	lastFrame          time.Duration // the last frame's start
	callStart, callEnd time.Duration // the last drawing call's start and end
	drawStart, drawEnd time.Duration // the last draw's start and end
	logged             time.Duration // when the console was last told
	msg                []byte
	buf, show          js.Value // a Uint8Array the message goes through, and noteJS's function
}

// noteJS is the body of a function of a Uint8Array and the status
// line's first line that returns the message's setter: called with a
// length and whether to log, it shows that many bytes of the array,
// decoded as UTF-8, under the first line and in window.interpdemo.behind,
// and in the console.
const noteJS = `
const dec = new TextDecoder();
return (n, log) => {
	const s = dec.decode(buf.subarray(0, n));
	document.getElementById("status").textContent = first + "\n" + s;
	window.interpdemo.behind = s;
	if (log) console.warn("interpdemo: " + s);
};
`

// init makes the message's buffer and setter, before the loop starts.
func (b *budget) init() {
	b.msg = make([]byte, 0, noteMax)
	b.buf = js.Global().Get("Uint8Array").New(noteMax)
	b.show = js.Global().Get("Function").New("buf", "first", noteJS).Invoke(b.buf, "running: "+keyHint)
}

// drawn notes the frame's draw, from start to end.
func (b *budget) drawn(start, end time.Duration) { b.drawStart, b.drawEnd = start, end }

// called notes the frame's drawing call, from start to end.
func (b *budget) called(start, end time.Duration) { b.callStart, b.callEnd = start, end }

// check looks at the frame that started at now, its logic run: if it
// threw time away, the page says why.
func (b *budget) check(p *page, now time.Duration) {
	last := b.lastFrame
	b.lastFrame = now
	dropped := p.d.Discarded()
	if dropped <= 0 || last == 0 || p.d.Sim().Mode() != sim.ModeFixed {
		return
	}
	set := p.d.Sim().Settings()
	gap := now - last
	own := max(0, b.callEnd-b.callStart)
	m := append(b.msg[:0], "logic behind: a frame came "...)
	m = appendMs(m, gap)
	m = append(m, " after the last, more than the "...)
	m = strconv.AppendInt(m, int64(set.MaxLoops), 10)
	m = append(m, " ticks of "...)
	m = appendMs(m, set.Tick)
	m = append(m, " a frame catches up; "...)
	m = appendMs(m, dropped)
	m = append(m, " of game time dropped. The page's last frame took "...)
	m = appendMs(m, own)
	m = append(m, " (its draw "...)
	m = appendMs(m, max(0, b.drawEnd-b.drawStart))
	m = append(m, "), the browser the "...)
	m = appendMs(m, max(0, gap-own))
	m = append(m, " between frames (compositing, its GPU process, other work)"...)
	b.msg = m
	if len(m) > noteMax {
		m = m[:noteMax]
	}
	log := now-b.logged >= time.Second || b.logged == 0
	if log {
		b.logged = now
	}
	js.CopyBytesToJS(b.buf, m)
	b.show.Invoke(len(m), log)
}

// noteMax is the longest message in bytes.
const noteMax = 512

// appendMs appends d in whole milliseconds, "ms" after.
func appendMs(b []byte, d time.Duration) []byte {
	return append(strconv.AppendInt(b, int64(d/time.Millisecond), 10), " ms"...)
}
