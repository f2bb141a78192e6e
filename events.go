package main

import (
	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/internal/platform"
)

// pumpEvents drains SDL's queue: window events and the keys.
func (a *app) pumpEvents() {
	for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
		switch e := ev.(type) {
		case *sdl.QuitEvent:
			a.quit = true
		case *sdl.WindowEvent:
			if e.Event == sdl.WINDOWEVENT_SIZE_CHANGED || e.Event == sdl.WINDOWEVENT_RESIZED {
				a.rend.Resize(a.win.DrawableSize())
			}
		case *sdl.KeyboardEvent:
			if e.Type == sdl.KEYDOWN && e.Repeat == 0 {
				a.keyDown(e.Keysym)
			}
		}
	}
}

// keyDown handles the demo's command keys.
func (a *app) keyDown(k sdl.Keysym) {
	switch k.Sym {
	case sdl.K_q, sdl.K_ESCAPE:
		a.quit = true
	case sdl.K_SPACE:
		a.interp = !a.interp
		a.nextTitle = 0
	case sdl.K_v:
		if a.vsync == platform.VsyncOff {
			a.setVsync(platform.VsyncOn)
		} else {
			a.setVsync(platform.VsyncOff)
		}
		a.nextTitle = 0
	}
}
