package main

import (
	"time"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/input"
)

// pumpSDL moves pending OS events into SDL's queue, stamping them now.
func pumpSDL() { sdl.PumpEvents() }

// keyState turns the keyboard into timestamped button events for the
// simulation: two physical keys drive each button (an arrow and a letter).
type keyState struct {
	down  [input.MaxButton + 1]uint8 // physical keys held per button
	queue []input.Event              // this frame's button changes, on the raw clock
}

// pumpEvents drains SDL's queue: window events, the command keys, and the
// direction keys, which become timestamped input events.
func (a *app) pumpEvents(now time.Duration) {
	for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
		switch e := ev.(type) {
		case *sdl.QuitEvent:
			a.requestQuit(now)
		case *sdl.WindowEvent:
			switch e.Event {
			case sdl.WINDOWEVENT_SIZE_CHANGED, sdl.WINDOWEVENT_RESIZED:
				a.rend.Resize(a.win.DrawableSize())
			case sdl.WINDOWEVENT_FOCUS_LOST:
				a.keys.releaseAll(now)
			}
		case *sdl.KeyboardEvent:
			a.keyEvent(e, now)
		}
	}
}

// releaseAll lets go of every button: the window lost the keyboard, and
// the key-up events will go elsewhere.
func (k *keyState) releaseAll(now time.Duration) {
	for b, n := range k.down {
		if n > 0 {
			k.down[b] = 0
			k.queue = append(k.queue, input.Event{Time: now, Button: input.Button(b), Down: false})
		}
	}
}

// key counts a physical key of button b going down or up, and queues the
// button's change at time t when it has one.
func (k *keyState) key(b input.Button, down bool, t time.Duration) {
	n := &k.down[b]
	was := *n > 0
	if down {
		*n++
	} else if *n > 0 {
		*n--
	}
	if is := *n > 0; is != was {
		k.queue = append(k.queue, input.Event{Time: t, Button: b, Down: is})
	}
}

// buttonOf maps a physical key to a game button: the arrows and WASD (by
// position, so AZERTY's ZQSD works the same).
func buttonOf(sc sdl.Scancode) (input.Button, bool) {
	switch sc {
	case sdl.SCANCODE_LEFT, sdl.SCANCODE_A:
		return input.Left, true
	case sdl.SCANCODE_RIGHT, sdl.SCANCODE_D:
		return input.Right, true
	case sdl.SCANCODE_UP, sdl.SCANCODE_W:
		return input.Up, true
	case sdl.SCANCODE_DOWN, sdl.SCANCODE_S:
		return input.Down, true
	}
	return 0, false
}

func (a *app) keyEvent(e *sdl.KeyboardEvent, now time.Duration) {
	down := e.Type == sdl.KEYDOWN
	if b, ok := buttonOf(e.Keysym.Scancode); ok {
		if e.Repeat != 0 || a.sim.Replaying() {
			return // a replay plays the recorded keys only
		}
		// SDL stamped the event when it queued it; see busy for why that
		// is close to when the key moved.
		a.keys.key(b, down, min(a.events.Map(e.Timestamp), now))
		return
	}
	if !down || e.Repeat != 0 {
		return
	}
	if k := bindingOf(e.Keysym.Sym); k != nil {
		k.act(a, e.Keysym.Sym, e.Keysym.Mod&sdl.KMOD_SHIFT != 0, now)
		a.title.next, a.ov.nextText = 0, 0 // show the change at once
	}
}
