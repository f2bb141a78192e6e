package loop_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/loop"
)

const ms = time.Millisecond

// The classic loop, stepped by hand: 40 ms ticks, at most 5 per frame.
func ExampleFixed() {
	f, err := loop.NewFixed(loop.FixedConfig{}, 0) // time0 = 0
	if err != nil {
		panic(err)
	}
	for _, now := range []time.Duration{10 * ms, 45 * ms, 90 * ms, 300 * ms, 2000 * ms, 2010 * ms} {
		fr := f.Step(now)
		fmt.Printf("%v: %d ticks (logic time %v), draw at %.3f, discarded %v\n",
			now, fr.Ticks, fr.LogicTime, fr.Percent, fr.Discarded)
	}
	// Output:
	// 10ms: 0 ticks (logic time 0s), draw at 0.250, discarded 0s
	// 45ms: 1 ticks (logic time 40ms), draw at 0.125, discarded 0s
	// 90ms: 1 ticks (logic time 40ms), draw at 0.250, discarded 0s
	// 300ms: 5 ticks (logic time 200ms), draw at 0.500, discarded 0s
	// 2s: 5 ticks (logic time 200ms), draw at 1.000, discarded 1.48s
	// 2.01s: 1 ticks (logic time 40ms), draw at 0.250, discarded 0s
}

// In lockstep (a network game) the debt a stall leaves is repaid over the
// next frames instead of discarded.
func ExampleFixed_lockstep() {
	f, _ := loop.NewFixed(loop.FixedConfig{Lockstep: true}, 0)
	for now := 500 * ms; now <= 540*ms; now += 10 * ms {
		fr := f.Step(now)
		fmt.Printf("%v: %d ticks, debt %v\n", now, fr.Ticks, fr.Debt)
	}
	// Output:
	// 500ms: 5 ticks, debt 260ms
	// 510ms: 5 ticks, debt 70ms
	// 520ms: 2 ticks, debt 0s
	// 530ms: 1 ticks, debt 0s
	// 540ms: 0 ticks, debt 0s
}

// The zero Fixed needs no constructor: its schedule starts at its first
// Step, with the default 40 ms ticks.
func ExampleFixed_zero() {
	var f loop.Fixed
	for _, now := range []time.Duration{5 * time.Second, 5*time.Second + 30*ms, 5*time.Second + 90*ms} {
		fr := f.Step(now)
		fmt.Printf("%v: %d ticks, draw at %.2f, %v since the last frame\n", now, fr.Ticks, fr.Percent, fr.Elapsed)
	}
	// Output:
	// 5s: 0 ticks, draw at 0.00, 0s since the last frame
	// 5.03s: 0 ticks, draw at 0.75, 30ms since the last frame
	// 5.09s: 2 ticks, draw at 0.25, 60ms since the last frame
}

// Each tick of a frame stands for its own stretch of the clock: input code
// gives tick j the events stamped before Span(j).End.
func ExampleFixedFrame_Span() {
	f, _ := loop.NewFixed(loop.FixedConfig{}, 0)
	fr := f.Step(130 * ms)
	events := []time.Duration{10 * ms, 55 * ms, 61 * ms, 125 * ms} // key presses
	for j := 0; j < fr.Ticks; j++ {
		span := fr.Span(j)
		var mine []time.Duration
		for len(events) > 0 && events[0] < span.End {
			mine, events = append(mine, events[0]), events[1:]
		}
		fmt.Printf("tick %d [%v, %v): %v\n", j, span.Start, span.End, mine)
	}
	fmt.Printf("left for later ticks: %v\n", events)
	// Output:
	// tick 0 [0s, 40ms): [10ms]
	// tick 1 [40ms, 80ms): [55ms 61ms]
	// tick 2 [80ms, 120ms): []
	// left for later ticks: [125ms]
}

// ball is the article's bouncy ball, reduced to one axis: 16 units per
// tick, drawn between its last and next positions. It starts one step
// apart (last 0, next 16), so it moves from the first frame on.
type ball struct {
	last, next float64
	drawn      []string
}

func (b *ball) Tick(loop.TickSpan)          { b.last, b.next = b.next, b.next+16 }
func (b *ball) Independent(loop.FixedFrame) {}
func (b *ball) Draw(p float64) {
	b.drawn = append(b.drawn, fmt.Sprintf("%.0f", b.last+p*(b.next-b.last)))
}

// A Driver calls the game in the classic order; the drawn position moves
// smoothly between the ticks.
func ExampleDriver() {
	clock := loop.NewManualClock(0)
	f, _ := loop.NewFixed(loop.FixedConfig{}, clock.Now())
	b := &ball{last: 0, next: 16}
	d := &loop.Driver{Clock: clock, Loop: f, Game: b}
	for i := 0; i < 9; i++ {
		if _, err := d.Frame(); err != nil {
			panic(err)
		}
		clock.Advance(10 * ms) // a 100 FPS machine
	}
	fmt.Println(b.drawn)
	// Output: [0 4 8 12 16 20 24 28 32]
}

// Slow motion: a Fixed loop on half-speed virtual time keeps its 40 ms
// ticks, and runs them at half the rate.
func ExampleVirtual() {
	v, _ := loop.NewVirtual(loop.VirtualConfig{MaxDelta: loop.NoLimit}, 0) // Fixed handles stalls
	_ = v.SetSpeed(0.5)
	f, _ := loop.NewFixed(loop.FixedConfig{}, v.Now())
	ticks := 0
	for raw := 10 * ms; raw <= 2*time.Second; raw += 10 * ms {
		d := v.Advance(raw)
		ticks += f.Step(v.Now()).Ticks
		if raw == 10*ms {
			fmt.Printf("one frame: raw %v, scaled %v\n", d.Raw, d.Scaled)
		}
	}
	fmt.Printf("2s of real time: %v of game time, %d ticks\n", v.Now(), ticks)
	// Output:
	// one frame: raw 10ms, scaled 5ms
	// 2s of real time: 1s of game time, 24 ticks
}

// Pausing is the Virtual's: a Fixed loop on it runs no ticks and draws at
// a frozen percentWithinTick, and resumes without a burst.
func ExampleVirtual_SetPaused() {
	v, _ := loop.NewVirtual(loop.VirtualConfig{MaxDelta: loop.NoLimit}, 0)
	f, _ := loop.NewFixed(loop.FixedConfig{}, v.Now())
	frame := func(raw time.Duration) {
		v.Advance(raw)
		fr := f.Step(v.Now())
		fmt.Printf("raw %v: game %v, %d ticks, draw at %.2f\n", raw, v.Now(), fr.Ticks, fr.Percent)
	}
	frame(50 * ms)
	v.SetPaused(true)
	frame(60 * ms)
	frame(5 * time.Second)
	v.SetPaused(false)
	frame(5*time.Second + 40*ms)
	// Output:
	// raw 50ms: game 50ms, 1 ticks, draw at 0.25
	// raw 60ms: game 50ms, 0 ticks, draw at 0.25
	// raw 5s: game 50ms, 0 ticks, draw at 0.25
	// raw 5.04s: game 90ms, 1 ticks, draw at 0.25
}

// A Driver on a VirtualClock runs the fixed loop on game time, reading the
// raw clock once per frame: at a quarter speed, 4 s of real time are 1 s of
// game time.
func ExampleVirtualClock() {
	raw := loop.NewManualClock(0)
	v, _ := loop.NewVirtual(loop.VirtualConfig{MaxDelta: loop.NoLimit}, raw.Now())
	_ = v.SetSpeed(0.25)
	b := &ball{last: 0, next: 16}
	d := &loop.Driver{Clock: loop.VirtualClock{Raw: raw, Virtual: v}, Loop: new(loop.Fixed), Game: b}
	for i := 0; i <= 400; i++ {
		if _, err := d.Frame(); err != nil {
			panic(err)
		}
		raw.Advance(10 * ms)
	}
	fmt.Printf("game time %v, %d ticks, ball at %s\n", v.Now(), d.Loop.TotalTicks(), b.drawn[len(b.drawn)-1])
	// Output: game time 1s, 24 ticks, ball at 400
}

// A ManualClock moves only when told to: the clock of tests and
// simulations. Sleep advances it.
func ExampleManualClock() {
	c := loop.NewManualClock(time.Second)
	c.Advance(16 * ms)
	c.Sleep(4 * ms)
	fmt.Println(c.Now())
	// Output: 1.02s
}

// BeautifulTimer: a 250 ms frame is cut into 3 sub-steps of at most 100 ms;
// a frame faster than 60 FPS is told to wait.
func ExampleSubstep() {
	s, _ := loop.NewSubstep(loop.SubstepConfig{}, 0) // MinT 1/60 s, MaxT 100 ms, 5 cycles
	fmt.Printf("%+v\n", s.Step(5*ms))
	fmt.Printf("%+v\n", s.Step(250*ms))
	fmt.Printf("%+v\n", s.Step(250*ms+time.Second))
	// Output:
	// {Wait:11.666666ms T:5ms Cycles:0 CycleT:0s Dropped:0s}
	// {Wait:0s T:250ms Cycles:3 CycleT:83.333333ms Dropped:0s}
	// {Wait:0s T:1.000000001s Cycles:5 CycleT:90.909091ms Dropped:545.454546ms}
}

// Time factor and full updates: a 30 ms frame scales movement by 1.5 and
// gives 1 or 2 discrete 20 ms updates; the sum is 50 per second.
func ExampleTimeFactor() {
	tf, _ := loop.NewTimeFactor(loop.TimeFactorConfig{}, 0)
	var fr loop.TimeFactorFrame
	for now := 30 * ms; now <= 90*ms; now += 30 * ms {
		fr = tf.Step(now)
		fmt.Printf("runtime %v: timeFactor %.1f, %d full updates\n", fr.Runtime, fr.TimeFactor, fr.FullUpdates)
	}
	for now := 120 * ms; now <= 1020*ms; now += 30 * ms {
		fr = tf.Step(now)
	}
	fmt.Printf("runtime %v: %d full updates in all\n", fr.Runtime, fr.FullUpdateSum)
	// Output:
	// runtime 30ms: timeFactor 1.5, 2 full updates
	// runtime 60ms: timeFactor 1.5, 2 full updates
	// runtime 90ms: timeFactor 1.5, 1 full updates
	// runtime 1.02s: 52 full updates in all
}

// The adaptive split: 2 ms logic cycles and a 5 ms draw fit 9 cycles in a
// 25 ms frame; draws are paced 25 ms apart.
func ExampleAdaptive() {
	clock := loop.NewManualClock(0)
	a, _ := loop.NewAdaptive(loop.AdaptiveConfig{}, clock.Now())
	for frame := 0; frame < 3; frame++ {
		now := clock.Now()
		for a.NextCycle(now) {
			clock.Advance(2 * ms) // update()
			now = clock.Now()
		}
		if wait := a.PresentAt() - now; wait > 0 {
			clock.Sleep(wait)
		}
		a.BeginDraw(clock.Now())
		clock.Advance(5 * ms) // draw()
		a.EndDraw(clock.Now())
		fmt.Printf("frame %d: %d cycles, drawn at %v\n", frame, a.CyclesLastFrame(), a.PresentAt()-a.Config().Target)
	}
	// Output:
	// frame 0: 1 cycles, drawn at 25ms
	// frame 1: 9 cycles, drawn at 50ms
	// frame 2: 9 cycles, drawn at 75ms
}

// A 60 FPS cap: frames start 16.666667 ms apart whatever their work, the
// first one included, since the schedule starts at the first frame's
// start.
func ExampleLimiter() {
	clock := loop.NewManualClock(0)
	l, _ := loop.NewLimiter(time.Second / 60)
	l.Start(clock.Now()) // the first frame starts now
	for _, work := range []time.Duration{3 * ms, 12 * ms, 1 * ms} {
		clock.Advance(work)
		r := l.Wait(clock)
		fmt.Printf("work %v: woke at %v\n", work, r.Woke)
	}
	// Output:
	// work 3ms: woke at 16.666666ms
	// work 12ms: woke at 33.333332ms
	// work 1ms: woke at 49.999998ms
}

// Frames and ticks per second, counted apart by the game, each with its
// own counter, here for a fixed loop at 60 frames per second.
func ExampleRateCounter() {
	fps, err := loop.NewRateCounter(time.Second, 256)
	if err != nil {
		panic(err)
	}
	var tps loop.RateCounter // the zero RateCounter: a 1 s window
	var f loop.Fixed
	for i := int64(0); i <= 180; i++ { // 3 s at 60 FPS
		now := time.Duration(i * 1e9 / 60)
		fr := f.Step(now)
		fps.Add(now, 1)
		tps.Add(now, fr.Ticks)
	}
	fmt.Println(fps.Rate(3*time.Second), tps.Rate(3*time.Second))
	// Output: 60 25
}

// A Pacer puts each frame on the vblank it follows. The frames of a 60 Hz
// display wake up late by a varying amount (the vblanks are at 1 s +
// i/60 s), so the times they measure step unevenly; the paced times step
// by exactly one refresh interval (the hint, 16666666 ns), and by two
// after a frame that missed a vblank. The first frame passes through and
// the second starts the grid. The paced time is what the game's loop is
// given.
func ExamplePacer() {
	p, err := loop.NewPacer(loop.PacerConfig{Refresh: time.Second / 60}) // from the display mode
	if err != nil {
		panic(err)
	}
	us := time.Microsecond
	vblank := func(i int64) time.Duration { return time.Second + time.Duration(i*1e9/60) }
	var lastNow, lastTime time.Duration
	for _, f := range []struct {
		vblank int64
		late   time.Duration
	}{{0, 700 * us}, {1, 100 * us}, {2, 900 * us}, {3, 400 * us}, {5, 300 * us}, {6, 800 * us}, {7, 200 * us}} {
		now := vblank(f.vblank) + f.late
		fr := p.Step(now)
		if lastNow != 0 {
			fmt.Printf("measured +%v, paced +%v (%d steps)\n", now-lastNow, fr.Time-lastTime, fr.Steps)
		}
		lastNow, lastTime = now, fr.Time
	}
	// Output:
	// measured +16.066666ms, paced +16.066666ms (0 steps)
	// measured +17.466667ms, paced +16.666666ms (1 steps)
	// measured +16.166667ms, paced +16.666666ms (1 steps)
	// measured +33.233333ms, paced +33.333332ms (2 steps)
	// measured +17.166667ms, paced +16.666666ms (1 steps)
	// measured +16.066666ms, paced +16.666666ms (1 steps)
}

// Tick-count stabilisation: 60 ticks a second on a 60 Hz display whose
// frames wake up within a millisecond either side of the tick boundaries.
// The classic loop runs 0 or 2 ticks on many frames; with a 4 ms window
// each frame runs one (the first comes before any tick has ended), and
// the loop runs 0.9 ms behind the clock (the latest of the frames).
func ExampleFixed_stabilize() {
	tick := time.Second / 60
	us := time.Microsecond
	late := []time.Duration{-400 * us, 300 * us, -900 * us, 200 * us, 900 * us, -100 * us, 500 * us, -700 * us, 100 * us, -300 * us}
	classic, _ := loop.NewFixed(loop.FixedConfig{Tick: tick}, 0)
	stable, _ := loop.NewFixed(loop.FixedConfig{Tick: tick, Stabilize: 4 * ms}, 0)
	var a, b []int
	for i, j := range late {
		now := time.Duration(i+1)*tick + j
		a = append(a, classic.Step(now).Ticks)
		b = append(b, stable.Step(now).Ticks)
	}
	fmt.Println("classic:   ", a)
	fmt.Println("stabilised:", b, "lag", stable.Lag())
	// Output:
	// classic:    [0 2 0 2 1 0 2 0 2 0]
	// stabilised: [0 1 1 1 1 1 1 1 1 1] lag 900µs
}
