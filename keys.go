package main

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/interpdemo/interpdemo/internal/platform"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// binding is one row of the key table: the keys, how -h, the HUD and the
// README name them, and what they do. The table is the one definition of
// the keys: -h's text, the HUD's help and the dispatch come from it, and a
// test checks the README against it.
type binding struct {
	label string        // the keys, as the help names them
	help  string        // what they do, for -h and the README
	short string        // what they do, in a word or two, for the HUD
	codes []sdl.Keycode // nil: handled elsewhere (the direction keys)
	act   func(a *app, k sdl.Keycode, shift bool, now time.Duration)
}

var bindings = []binding{
	{"Space", "interpolation on/off", "interp", []sdl.Keycode{sdl.K_SPACE}, (*app).toggleInterp},
	{"E", "cycle drawing: interpolate -> extrapolate -> off", "interp/extrap/off", []sdl.Keycode{sdl.K_e}, (*app).cycleDraw},
	{"V", "vsync on/off", "vsync", []sdl.Keycode{sdl.K_v}, (*app).toggleVsync},
	{"J", "frame pacing: raw (the wake-up time) / smooth (the vblank's time, stable tick counts)", "pacing", []sdl.Keycode{sdl.K_j}, (*app).togglePacing},
	{"H", "HUD on/off", "hud", []sdl.Keycode{sdl.K_h}, func(a *app, _ sdl.Keycode, _ bool, _ time.Duration) { a.view.hud = !a.view.hud }},
	{"? or F1", "help on the HUD: every setting, the keys, the graph's legend", "help", []sdl.Keycode{sdl.K_F1, sdl.K_SLASH, sdl.K_QUESTION}, func(a *app, _ sdl.Keycode, _ bool, _ time.Duration) { a.view.help = !a.view.help }},
	{"F", "frame-time graph on/off", "graph", []sdl.Keycode{sdl.K_f}, func(a *app, _ sdl.Keycode, _ bool, _ time.Duration) { a.view.graph = !a.view.graph }},
	{"G", "ghosts: rings at every ball's last and next position; rollback: red where a remote ball was predicted, green where corrected", "ghosts", []sdl.Keycode{sdl.K_g}, func(a *app, _ sdl.Keycode, _ bool, _ time.Duration) { a.view.ghosts = !a.view.ghosts }},
	{"L / Shift+L", "render load up/down (busy-wait per frame: " + msList(loadSteps) + ")", "render load", []sdl.Keycode{sdl.K_l}, (*app).stepRenderLoad},
	{"K / Shift+K", "logic load up/down (busy-wait per tick, same steps)", "logic load", []sdl.Keycode{sdl.K_k}, (*app).stepLogicLoad},
	{"C", "frame cap: off, 30, 60, 144 FPS", "frame cap", []sdl.Keycode{sdl.K_c}, (*app).cycleCap},
	{"M", "timing mode: " + sim.ModeNames(), "timing mode", []sdl.Keycode{sdl.K_m}, (*app).cycleMode},
	{"[ and ]", "speed factor down/up (0.25x to 4x)", "speed", []sdl.Keycode{sdl.K_LEFTBRACKET, sdl.K_RIGHTBRACKET}, (*app).stepSpeed},
	{"P", "pause", "pause", []sdl.Keycode{sdl.K_p}, (*app).togglePause},
	{"R", "reset the world", "reset", []sdl.Keycode{sdl.K_r}, (*app).reset},
	{"+ and -", "ball count x10 / /10 (1 to 1,000,000)", "balls", []sdl.Keycode{sdl.K_PLUS, sdl.K_EQUALS, sdl.K_KP_PLUS, sdl.K_MINUS, sdl.K_KP_MINUS}, (*app).stepBalls},
	{"PageUp/PageDn", "tick time up/down (" + msList(tickSteps) + ")", "tick time", []sdl.Keycode{sdl.K_PAGEUP, sdl.K_PAGEDOWN}, (*app).stepTick},
	{"arrows, WASD", "move ball 0 (it becomes the player's on the first press)", "move ball 0", nil, nil},
	{"Q, Escape", "quit", "quit", []sdl.Keycode{sdl.K_q, sdl.K_ESCAPE}, func(a *app, _ sdl.Keycode, _ bool, now time.Duration) { a.requestQuit(now) }},
}

// bindingOf returns the row of the key table that handles k.
func bindingOf(k sdl.Keycode) *binding {
	for i := range bindings {
		if slices.Contains(bindings[i].codes, k) {
			return &bindings[i]
		}
	}
	return nil
}

// keyHelp is the key table for -h.
func keyHelp() string {
	var b strings.Builder
	b.WriteString("Keys:\n")
	for _, k := range bindings {
		b.WriteString("  ")
		b.WriteString(k.label)
		b.WriteString(strings.Repeat(" ", max(1, 15-len(k.label))))
		b.WriteString(k.help)
		b.WriteByte('\n')
	}
	return b.String()
}

// hudKeyHelp is the key table for the HUD: short names, a few keys a line.
func hudKeyHelp() string {
	var b strings.Builder
	line := 0
	for _, k := range bindings {
		item := k.label + " " + k.short
		if line > 0 && line+3+len(item) > 56 {
			b.WriteByte('\n')
			line = 0
		}
		if line > 0 {
			b.WriteString("   ")
			line += 3
		}
		b.WriteString(item)
		line += len(item)
	}
	return b.String()
}

// keyTableMarkdown is the key table as the README shows it.
func keyTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| key | does |\n|---|---|\n")
	for _, k := range bindings {
		b.WriteString("| ")
		b.WriteString(strings.ReplaceAll(k.label, "|", `\|`))
		b.WriteString(" | ")
		b.WriteString(k.help)
		b.WriteString(" |\n")
	}
	return b.String()
}

func msList(steps []time.Duration) string {
	var b strings.Builder
	for i, d := range steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatInt(d.Milliseconds(), 10))
	}
	return b.String() + " ms"
}

// The steps the keys move through; the flags accept any value in range.
var (
	loadSteps  = []time.Duration{0, 10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	capSteps   = []int{0, 30, 60, 144}
	speedSteps = []float64{0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4}
	tickSteps  = []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 25 * time.Millisecond, 40 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}
)

func (a *app) toggleInterp(sdl.Keycode, bool, time.Duration) {
	if a.view.draw == drawOff {
		a.view.draw = drawInterp
	} else {
		a.view.draw = drawOff
	}
}

func (a *app) cycleDraw(sdl.Keycode, bool, time.Duration) {
	a.view.draw = (a.view.draw + 1) % numDrawModes
}

func (a *app) toggleVsync(sdl.Keycode, bool, time.Duration) {
	if a.vsync.requested == platform.VsyncOff {
		a.setVsync(platform.VsyncOn)
	} else {
		a.setVsync(platform.VsyncOff)
	}
}

func (a *app) togglePacing(sdl.Keycode, bool, time.Duration) {
	a.pace.setMode((a.pace.mode+1)%numPacingModes, a.sim)
}

func (a *app) stepRenderLoad(_ sdl.Keycode, shift bool, _ time.Duration) {
	a.view.renderLoad = stepIn(loadSteps, a.view.renderLoad, !shift)
}

func (a *app) stepLogicLoad(_ sdl.Keycode, shift bool, _ time.Duration) {
	a.sim.SetLogicLoad(stepIn(loadSteps, a.sim.LogicLoad(), !shift)) // steps are >= 0
}

func (a *app) cycleCap(sdl.Keycode, bool, time.Duration) {
	i := (slices.Index(capSteps, a.view.fpsCap) + 1) % len(capSteps)
	a.setFPSCap(capSteps[i])
}

func (a *app) cycleMode(_ sdl.Keycode, _ bool, now time.Duration) {
	if err := a.sim.SetMode((a.sim.Mode()+1)%sim.NumModes, now); err != nil {
		a.notice.say(err.Error(), now)
		return
	}
	a.limiter.SetInterval(a.sim.LimiterInterval()) // >= 0
}

func (a *app) stepSpeed(k sdl.Keycode, _ bool, now time.Duration) {
	if err := a.sim.SetSpeed(stepIn(speedSteps, a.sim.Speed(), k == sdl.K_RIGHTBRACKET)); err != nil {
		a.notice.say(err.Error(), now)
	}
}

func (a *app) togglePause(_ sdl.Keycode, _ bool, now time.Duration) {
	if err := a.sim.SetPaused(!a.sim.Paused()); err != nil {
		a.notice.say(err.Error(), now)
	}
}

func (a *app) reset(_ sdl.Keycode, _ bool, now time.Duration) {
	a.queue(replay.Command{Kind: replay.CmdReset}, now)
}

func (a *app) stepBalls(k sdl.Keycode, _ bool, now time.Duration) {
	n := a.sim.World().N()
	if k == sdl.K_MINUS || k == sdl.K_KP_MINUS {
		n = max(1, n/10)
	} else {
		n = ballsUp(n)
	}
	a.queue(replay.Command{Kind: replay.CmdSetBalls, Arg: int64(n)}, now)
}

func (a *app) stepTick(k sdl.Keycode, _ bool, now time.Duration) {
	d := stepIn(tickSteps, a.sim.Tick(), k == sdl.K_PAGEUP)
	a.queue(replay.Command{Kind: replay.CmdSetTick, Arg: int64(d)}, now)
}

// queue hands a world command to the simulation for the next tick
// boundary; a refusal (a replay plays the recording's commands only) shows
// on the HUD.
func (a *app) queue(c replay.Command, now time.Duration) {
	if err := a.sim.Queue(c); err != nil {
		a.notice.say(err.Error(), now)
	}
}

// ballsUp is the next ball count up: x10, at most MaxBalls.
func ballsUp(n int) int {
	if n == 0 {
		return 1
	}
	return min(n*10, max(n, 1_000_000), physics.MaxBalls)
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
