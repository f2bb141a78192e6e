package main

import (
	"slices"
	"time"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/platform"
)

// pumpSDL moves pending OS events into SDL's queue, stamping them now.
func pumpSDL() { sdl.PumpEvents() }

// pumpEvents drains SDL's queue: window events, the command keys, and the
// direction keys, which become timestamped input events.
func (a *app) pumpEvents(now time.Duration) {
	for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
		switch e := ev.(type) {
		case *sdl.QuitEvent:
			a.quit = true
		case *sdl.WindowEvent:
			switch e.Event {
			case sdl.WINDOWEVENT_SIZE_CHANGED, sdl.WINDOWEVENT_RESIZED:
				a.rend.Resize(a.win.DrawableSize())
			case sdl.WINDOWEVENT_FOCUS_LOST:
				a.releaseAll(now)
			}
		case *sdl.KeyboardEvent:
			a.keyEvent(e, now)
		}
	}
}

// releaseAll lets go of every button: the window lost the keyboard, and
// the key-up events will go elsewhere.
func (a *app) releaseAll(now time.Duration) {
	if a.rep != nil {
		return
	}
	for b, n := range a.keyDown {
		if n > 0 {
			a.keyDown[b] = 0
			a.keyq = append(a.keyq, input.Event{Time: now, Button: input.Button(b), Down: false})
		}
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
		if e.Repeat != 0 || a.rep != nil {
			return // a replay plays the recorded keys only
		}
		// Two keys drive each button (an arrow and a letter): the button
		// is down while either is.
		n := &a.keyDown[b]
		was := *n > 0
		if down {
			*n++
		} else if *n > 0 {
			*n--
		}
		if is := *n > 0; is != was {
			// SDL stamped the event when it queued it; see busy for
			// why that is close to when the key moved.
			t := min(a.events.Map(e.Timestamp), now)
			a.keyq = append(a.keyq, input.Event{Time: t, Button: b, Down: is})
		}
		return
	}
	if down && e.Repeat == 0 {
		a.command(e.Keysym.Sym, e.Keysym.Mod&sdl.KMOD_SHIFT != 0, now)
	}
}

// command handles the demo's command keys.
func (a *app) command(k sdl.Keycode, shift bool, now time.Duration) {
	switch k {
	case sdl.K_q, sdl.K_ESCAPE:
		a.quit = true
	case sdl.K_SPACE:
		if a.draw == drawOff {
			a.draw = drawInterp
		} else {
			a.draw = drawOff
		}
	case sdl.K_e:
		a.draw = (a.draw + 1) % 3
	case sdl.K_v:
		if a.vsync == platform.VsyncOff {
			a.setVsync(platform.VsyncOn)
		} else {
			a.setVsync(platform.VsyncOff)
		}
	case sdl.K_h:
		a.hudOn = !a.hudOn
	case sdl.K_f:
		a.graphOn = !a.graphOn
	case sdl.K_g:
		a.ghostsOn = !a.ghostsOn
	case sdl.K_l:
		a.renderLoad = stepIn(loadSteps, a.renderLoad, !shift)
	case sdl.K_k:
		a.logicLoad = stepIn(loadSteps, a.logicLoad, !shift)
	case sdl.K_c:
		i := (slices.Index(capSteps, a.fpsCap) + 1) % len(capSteps)
		a.fpsCap = capSteps[i]
		a.applyPacing()
	case sdl.K_m:
		if err := a.setMode((a.mode+1)%numModes, now); err != nil {
			a.say(err.Error(), now)
		}
	case sdl.K_LEFTBRACKET, sdl.K_RIGHTBRACKET:
		a.speed = stepIn(speedSteps, a.speed, k == sdl.K_RIGHTBRACKET)
		a.applySpeed()
	case sdl.K_p:
		a.paused = !a.paused
		a.applySpeed()
	case sdl.K_r:
		a.queue(command{kind: cmdReset}, now)
	case sdl.K_PLUS, sdl.K_EQUALS, sdl.K_KP_PLUS:
		a.queue(command{kind: cmdSetBalls, arg: int64(ballsUp(a.world.N()))}, now)
	case sdl.K_MINUS, sdl.K_KP_MINUS:
		a.queue(command{kind: cmdSetBalls, arg: int64(max(1, a.world.N()/10))}, now)
	case sdl.K_PAGEUP, sdl.K_PAGEDOWN:
		d := stepIn(tickSteps, a.world.Config().Tick, k == sdl.K_PAGEUP)
		a.queue(command{kind: cmdSetTick, arg: int64(d)}, now)
	default:
		return
	}
	a.nextTitle, a.nextHUD = 0, 0 // show the change at once
}

// queue holds a world command for the next tick boundary. A replay
// refuses them: it must change the world exactly as the recording did.
func (a *app) queue(c command, now time.Duration) {
	if a.rep != nil {
		a.say("replaying: the recording's commands only", now)
		return
	}
	a.cmds = append(a.cmds, c)
}

// ballsUp is the next ball count up: x10, at most MaxBalls.
func ballsUp(n int) int {
	if n == 0 {
		return 1
	}
	return min(n*10, max(n, 1_000_000))
}

// stepIn moves v to the next value of steps up or down. A value between
// steps moves to the nearest step in that direction; the ends stay put.
func stepIn[T int | float64 | time.Duration](steps []T, v T, up bool) T {
	if up {
		for _, s := range steps {
			if s > v {
				return s
			}
		}
		return steps[len(steps)-1]
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i] < v {
			return steps[i]
		}
	}
	return steps[0]
}
