package demo

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// Key is a key the demo knows, whatever the platform calls it: a front end
// maps its own key codes to these (the SDL window by key symbol and, for
// the direction keys, by position; a web page by KeyboardEvent.code).
type Key uint8

// The keys.
const (
	KeyNone Key = iota
	KeySpace
	KeyE
	KeyV
	KeyJ
	KeyH
	KeyQuestion // ? (or / on keyboards where ? is Shift+/)
	KeyF1
	KeyF
	KeyG
	KeyL
	KeyK
	KeyC
	KeyM
	KeyLeftBracket
	KeyRightBracket
	KeyP
	KeyR
	KeyPlus // + or =, on the main keys or the keypad
	KeyMinus
	KeyPageUp
	KeyPageDown
	KeyQ
	KeyEscape
	// The direction keys, by position: the arrows and WASD (ZQSD on an
	// AZERTY keyboard is the same keys).
	KeyLeft
	KeyRight
	KeyUp
	KeyDown
	KeyA
	KeyD
	KeyW
	KeyS
	KeyX
	NumKeys
)

// KeyEvent is a key going down or up, stamped on the loop's clock.
type KeyEvent struct {
	Key    Key
	Down   bool
	Repeat bool // the key is held and the system repeats it
	Shift  bool
	Time   time.Duration
}

// binding is one row of the key table: the keys, how -h, the HUD and
// docs/DEMO.md name them, and what they do. The table is the one
// definition of the keys: -h's text, the HUD's help and the dispatch come
// from it, and a test checks docs/DEMO.md against it.
type binding struct {
	label string // the keys, as the help names them
	help  string // what they do, for -h and docs/DEMO.md
	short string // what they do, in a word or two, for the HUD
	keys  []Key  // nil: handled elsewhere (the direction keys)
	act   func(d *Demo, k Key, shift bool, now time.Duration)
}

var bindings = []binding{
	{"Space", "interpolation on/off", "interp", []Key{KeySpace}, (*Demo).toggleInterp},
	{"E", "cycle drawing: interpolated -> extrapolated -> at the next position", "interp/extrap/next", []Key{KeyE}, (*Demo).cycleDraw},
	{"V", "vsync on/off", "vsync", []Key{KeyV}, (*Demo).toggleVsync},
	{"J", "frame pacing: raw (the wake-up time) / smooth (the vblank's time, stable tick counts)", "pacing", []Key{KeyJ}, (*Demo).togglePacing},
	{"H", "HUD on/off", "hud", []Key{KeyH}, func(d *Demo, _ Key, _ bool, _ time.Duration) { d.view.hud = !d.view.hud }},
	{"? or F1", "help on the HUD: every setting, the keys, the graph's legend", "help", []Key{KeyF1, KeyQuestion}, func(d *Demo, _ Key, _ bool, _ time.Duration) { d.view.help = !d.view.help }},
	{"F", "frame-time graph on/off", "graph", []Key{KeyF}, func(d *Demo, _ Key, _ bool, _ time.Duration) { d.view.graph = !d.view.graph }},
	{"G", "ghosts: rings at every ball's last and next position; rollback: red where a remote ball was predicted, green where corrected", "ghosts", []Key{KeyG}, func(d *Demo, _ Key, _ bool, _ time.Duration) { d.view.ghosts = !d.view.ghosts }},
	{"L / Shift+L", "render load up/down (busy-wait per frame: " + msList(loadSteps) + ")", "render load", []Key{KeyL}, (*Demo).stepRenderLoad},
	{"K / Shift+K", "logic load up/down (busy-wait per tick, same steps)", "logic load", []Key{KeyK}, (*Demo).stepLogicLoad},
	{"C", "frame cap: off, 30, 60, 144 FPS", "frame cap", []Key{KeyC}, (*Demo).cycleCap},
	{"M", "timing mode: " + sim.ModeNames(), "timing mode", []Key{KeyM}, (*Demo).cycleMode},
	{"[ and ]", "speed factor down/up (0.25x to 4x)", "speed", []Key{KeyLeftBracket, KeyRightBracket}, (*Demo).stepSpeed},
	{"P", "pause", "pause", []Key{KeyP}, (*Demo).togglePause},
	{"R", "reset the world", "reset", []Key{KeyR}, (*Demo).reset},
	{"+ and -", "ball count x10 / /10 (1 to 1,000,000)", "balls", []Key{KeyPlus, KeyMinus}, (*Demo).stepBalls},
	{"PageUp/PageDn", "tick time up/down (" + msList(tickSteps) + ")", "tick time", []Key{KeyPageUp, KeyPageDown}, (*Demo).stepTick},
	{"arrows, WASD", "move ball 0 (it becomes the player's on the first press); in a network game player i moves ball i", "move your ball", nil, nil},
	{"X", "network game, host: kick the lowest player still in the game (the game goes on without it)", "kick", []Key{KeyX}, func(d *Demo, _ Key, _ bool, _ time.Duration) { d.kickKey() }},
	{"Q, Escape", "quit", "quit", []Key{KeyQ, KeyEscape}, func(d *Demo, _ Key, _ bool, now time.Duration) { d.RequestQuit(now) }},
}

// bindingOf returns the row of the key table that handles k.
func bindingOf(k Key) *binding {
	for i := range bindings {
		if slices.Contains(bindings[i].keys, k) {
			return &bindings[i]
		}
	}
	return nil
}

// buttonOf maps a direction key to a game button.
func buttonOf(k Key) (input.Button, bool) {
	switch k {
	case KeyLeft, KeyA:
		return input.Left, true
	case KeyRight, KeyD:
		return input.Right, true
	case KeyUp, KeyW:
		return input.Up, true
	case KeyDown, KeyS:
		return input.Down, true
	}
	return 0, false
}

// KeyHelp is the key table for -h.
func KeyHelp() string {
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

// KeyTableMarkdown is the key table as docs/DEMO.md shows it.
func KeyTableMarkdown() string {
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

// Key takes a key event: a command key acts on its press, a direction key
// becomes a timestamped button event for the simulation.
func (d *Demo) Key(e KeyEvent) {
	if b, ok := buttonOf(e.Key); ok {
		if e.Repeat || d.sim.Replaying() {
			return // a replay plays the recorded keys only
		}
		d.keys.key(b, e.Down, e.Time)
		return
	}
	if !e.Down || e.Repeat {
		return
	}
	if k := bindingOf(e.Key); k != nil {
		k.act(d, e.Key, e.Shift, e.Time)
		d.title.next, d.ov.nextText = 0, 0 // show the change at once
	}
}

// FocusLost lets go of every button: the window lost the keyboard, and
// the key-up events will go elsewhere.
func (d *Demo) FocusLost(now time.Duration) { d.keys.releaseAll(now) }

// keyState turns the direction keys into timestamped button events for
// the simulation: two physical keys drive each button (an arrow and a
// letter).
type keyState struct {
	down  [input.MaxButton + 1]uint8 // physical keys held per button
	queue []input.Event              // this frame's button changes, on the loop's clock
}

// releaseAll lets go of every button.
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

func (d *Demo) toggleInterp(Key, bool, time.Duration) {
	if d.view.draw == drawOff {
		d.view.draw = drawInterp
	} else {
		d.view.draw = drawOff
	}
}

func (d *Demo) cycleDraw(Key, bool, time.Duration) {
	d.view.draw = (d.view.draw + 1) % numDrawModes
}

func (d *Demo) toggleVsync(_ Key, _ bool, now time.Duration) {
	if d.vsync.requested == VsyncOff {
		d.setVsync(VsyncOn, now)
	} else {
		d.setVsync(VsyncOff, now)
	}
}

func (d *Demo) togglePacing(Key, bool, time.Duration) {
	d.pace.setMode((d.pace.mode+1)%numPacingModes, d.sim)
}

func (d *Demo) stepRenderLoad(_ Key, shift bool, _ time.Duration) {
	d.view.renderLoad = stepIn(loadSteps, d.view.renderLoad, !shift)
}

func (d *Demo) stepLogicLoad(_ Key, shift bool, _ time.Duration) {
	d.sim.SetLogicLoad(stepIn(loadSteps, d.sim.LogicLoad(), !shift)) // steps are >= 0
}

func (d *Demo) cycleCap(Key, bool, time.Duration) {
	i := (slices.Index(capSteps, d.view.fpsCap) + 1) % len(capSteps)
	d.setFPSCap(capSteps[i])
}

func (d *Demo) cycleMode(_ Key, _ bool, now time.Duration) {
	if err := d.sim.SetMode((d.sim.Mode()+1)%sim.NumModes, now); err != nil {
		d.notice.say(err.Error(), now)
	}
}

func (d *Demo) stepSpeed(k Key, _ bool, now time.Duration) {
	if err := d.sim.SetSpeed(stepIn(speedSteps, d.sim.Speed(), k == KeyRightBracket)); err != nil {
		d.notice.say(err.Error(), now)
	}
}

func (d *Demo) togglePause(_ Key, _ bool, now time.Duration) {
	if err := d.sim.SetPaused(!d.sim.Paused()); err != nil {
		d.notice.say(err.Error(), now)
	}
}

func (d *Demo) reset(_ Key, _ bool, now time.Duration) {
	d.queue(replay.Command{Kind: replay.CmdReset}, now)
}

func (d *Demo) stepBalls(k Key, _ bool, now time.Duration) {
	n := d.sim.World().N()
	if k == KeyMinus {
		n = max(1, n/10)
	} else {
		n = ballsUp(n)
	}
	d.queue(replay.Command{Kind: replay.CmdSetBalls, Arg: int64(n)}, now)
}

func (d *Demo) stepTick(k Key, _ bool, now time.Duration) {
	t := stepIn(tickSteps, d.sim.Tick(), k == KeyPageUp)
	d.queue(replay.Command{Kind: replay.CmdSetTick, Arg: int64(t)}, now)
}

// queue hands a world command to the simulation for the next tick
// boundary; a refusal (a replay plays the recording's commands only) shows
// on the HUD.
func (d *Demo) queue(c replay.Command, now time.Duration) {
	if err := d.sim.Queue(c); err != nil {
		d.notice.say(err.Error(), now)
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

// kickKey is X: the host of a network game kicks a player by hand.
func (d *Demo) kickKey() {
	if d.net == nil {
		(&netGame{}).kick(d.p.Log) // says that only a host kicks
		return
	}
	d.net.kick(d.p.Log)
}
