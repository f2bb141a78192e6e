package desktop

import (
	"time"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/internal/demo"
)

// pumpEvery is how often a frame drains SDL's queue at most. SDL stamps
// events in whole milliseconds, so draining it more often finds nothing
// sooner; and each drain asks the X server for news, some microseconds
// that frames of a few microseconds (nothing to draw) would spend on it.
const pumpEvery = time.Millisecond

// pollEvents drains SDL's queue if pumpEvery has passed since it last did.
func (a *app) pollEvents(now time.Duration) {
	if now-a.lastPump < pumpEvery && now >= a.lastPump {
		return
	}
	a.lastPump = now
	a.pumpEvents(now)
	if a.split && a.win.WorldExposed() {
		a.rend.Invalidate() // the world's window lost what it showed
	}
}

// pumpEvents drains SDL's queue: the window's own events, and the keys,
// which become the demo's timestamped key events.
func (a *app) pumpEvents(now time.Duration) {
	for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
		switch e := ev.(type) {
		case *sdl.QuitEvent:
			a.d.RequestQuit(now)
		case *sdl.WindowEvent:
			switch e.Event {
			case sdl.WINDOWEVENT_SIZE_CHANGED, sdl.WINDOWEVENT_RESIZED:
				a.winW, a.winH = a.win.DrawableSize()
				a.resized = true
			case sdl.WINDOWEVENT_FOCUS_LOST:
				a.d.FocusLost(now)
			case sdl.WINDOWEVENT_EXPOSED:
				a.exposed() // the window lost what it showed
			}
		case *sdl.KeyboardEvent:
			k := keyOf(e.Keysym)
			if k == demo.KeyNone {
				continue
			}
			a.d.Key(demo.KeyEvent{
				Key: k, Down: e.Type == sdl.KEYDOWN, Repeat: e.Repeat != 0,
				Shift: e.Keysym.Mod&sdl.KMOD_SHIFT != 0,
				// SDL stamped the event when it queued it; busy pumps
				// SDL's events while it burns time, so that is close to
				// when the key moved.
				Time: min(a.events.Map(e.Timestamp), now),
			})
		}
	}
}

// keyOf is the demo's key for an SDL key: the direction keys by position
// (the arrows and WASD, so AZERTY's ZQSD works the same), the others by
// the symbol they type.
func keyOf(k sdl.Keysym) demo.Key {
	switch k.Scancode {
	case sdl.SCANCODE_LEFT:
		return demo.KeyLeft
	case sdl.SCANCODE_RIGHT:
		return demo.KeyRight
	case sdl.SCANCODE_UP:
		return demo.KeyUp
	case sdl.SCANCODE_DOWN:
		return demo.KeyDown
	case sdl.SCANCODE_A:
		return demo.KeyA
	case sdl.SCANCODE_D:
		return demo.KeyD
	case sdl.SCANCODE_W:
		return demo.KeyW
	case sdl.SCANCODE_S:
		return demo.KeyS
	}
	return symKeys[k.Sym]
}

// symKeys maps SDL's key symbols to the demo's command keys.
var symKeys = map[sdl.Keycode]demo.Key{
	sdl.K_SPACE: demo.KeySpace, sdl.K_e: demo.KeyE, sdl.K_v: demo.KeyV, sdl.K_j: demo.KeyJ,
	sdl.K_h: demo.KeyH, sdl.K_F1: demo.KeyF1, sdl.K_SLASH: demo.KeyQuestion, sdl.K_QUESTION: demo.KeyQuestion,
	sdl.K_f: demo.KeyF, sdl.K_g: demo.KeyG, sdl.K_x: demo.KeyX, sdl.K_l: demo.KeyL, sdl.K_k: demo.KeyK, sdl.K_c: demo.KeyC,
	sdl.K_m: demo.KeyM, sdl.K_LEFTBRACKET: demo.KeyLeftBracket, sdl.K_RIGHTBRACKET: demo.KeyRightBracket,
	sdl.K_p: demo.KeyP, sdl.K_r: demo.KeyR,
	sdl.K_PLUS: demo.KeyPlus, sdl.K_EQUALS: demo.KeyPlus, sdl.K_KP_PLUS: demo.KeyPlus,
	sdl.K_MINUS: demo.KeyMinus, sdl.K_KP_MINUS: demo.KeyMinus,
	sdl.K_PAGEUP: demo.KeyPageUp, sdl.K_PAGEDOWN: demo.KeyPageDown,
	sdl.K_q: demo.KeyQ, sdl.K_ESCAPE: demo.KeyEscape,
}
