package loop

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recGame records the calls a Driver makes and what they are given. Each
// call also advances the clock by its cost, as real work would.
type recGame struct {
	clock   *ManualClock
	cost    time.Duration
	log     []string
	spans   []TickSpan
	elapsed []time.Duration
}

func (g *recGame) Tick(span TickSpan) {
	g.spans = append(g.spans, span)
	g.log = append(g.log, "T")
	g.clock.Advance(g.cost)
}

func (g *recGame) Independent(fr FixedFrame) {
	g.elapsed = append(g.elapsed, fr.Elapsed)
	g.log = append(g.log, fmt.Sprintf("I%v", fr.LogicTime))
}

func (g *recGame) Draw(p float64) {
	g.log = append(g.log, fmt.Sprintf("D%.2f", p))
	g.clock.Advance(g.cost)
}

func TestDriverOrder(t *testing.T) {
	clock := NewManualClock(0)
	g := &recGame{clock: clock}
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Game: g}
	var got []string
	for _, at := range []time.Duration{0, 30 * ms, 50 * ms, 130 * ms, 10 * time.Second} {
		clock.Set(at)
		g.log = g.log[:0]
		fr, err := d.Frame()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join(g.log, " "))
		if fr.Now != at {
			t.Fatalf("the frame was planned at %v, the clock read %v", fr.Now, at)
		}
	}
	// 0: the first frame, nothing pending. 30 ms: no tick, 3/4 into the
	// first. 50 ms: one tick (time0 = 40 ms), 10 ms in. 130 ms: two ticks
	// (time0 = 120 ms). 10 s: five ticks, the rest discarded, drawn at 1.
	want := []string{
		"I0s D0.00",
		"I0s D0.75",
		"T I40ms D0.25",
		"T T I80ms D0.25",
		"T T T T T I200ms D1.00",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("frame %d: calls %q, want %q", i, got[i], want[i])
		}
	}
	// The ticks' spans follow each other, one tick long, from 0.
	if len(g.spans) != 8 {
		t.Fatalf("%d spans, want 8", len(g.spans))
	}
	for k, sp := range g.spans {
		if sp.Start != time.Duration(k)*DefaultTick || sp.End != sp.Start+DefaultTick {
			t.Errorf("tick %d: span %+v, want [%v, %v)", k, sp, time.Duration(k)*DefaultTick, time.Duration(k+1)*DefaultTick)
		}
	}
	wantElapsed := []time.Duration{0, 30 * ms, 20 * ms, 80 * ms, 10*time.Second - 130*ms}
	if fmt.Sprint(g.elapsed) != fmt.Sprint(wantElapsed) {
		t.Errorf("Elapsed %v, want %v", g.elapsed, wantElapsed)
	}
}

// gatherGame is a recGame that gathers its input before the ticks.
type gatherGame struct{ recGame }

func (g *gatherGame) GatherInput(fr FixedFrame) {
	g.log = append(g.log, fmt.Sprintf("G%d", fr.Ticks))
}

// TestDriverGathersInputFirst: an InputGatherer's GatherInput is called
// once a frame, given the frame's plan, before its ticks.
func TestDriverGathersInputFirst(t *testing.T) {
	clock := NewManualClock(0)
	g := &gatherGame{recGame{clock: clock}}
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Game: g}
	want := []string{"G0 I0s D0.00", "G0 I0s D0.75", "G1 T I40ms D0.25", "G2 T T I80ms D0.25"}
	for i, at := range []time.Duration{0, 30 * ms, 50 * ms, 130 * ms} {
		clock.Set(at)
		g.log = g.log[:0]
		if _, err := d.Frame(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(g.log, " "); got != want[i] {
			t.Errorf("frame %d: calls %q, want %q", i, got, want[i])
		}
	}
}

// tapGame has one key event, at tap on the clock. GatherInput polls it
// once the clock has passed it, as a platform's event queue delivers an
// event after it happened; a tick takes the polled events stamped before
// its span's end, and notes which tick acted on the tap.
type tapGame struct {
	tap     time.Duration
	polled  bool // the event is in the game's queue
	taken   bool
	ticks   int
	actedOn int // the tick (from 0) that took the tap; -1 before
}

func (g *tapGame) GatherInput(fr FixedFrame) {
	if !g.polled && !g.taken && fr.Now >= g.tap {
		g.polled = true
	}
}

func (g *tapGame) Tick(span TickSpan) {
	if g.polled && g.tap < span.End {
		g.polled, g.taken, g.actedOn = false, true, g.ticks
	}
	g.ticks++
}

func (g *tapGame) Independent(FixedFrame) {}
func (g *tapGame) Draw(float64)           {}

// TestDriverInputIndependentOfFrameRate: a tap at 245 ms acts on the tick
// whose span holds it, tick 6 ([240 ms, 280 ms)), whatever the frame rate:
// at 1000, 100, 7.7 and 5 frames a second. Gathered after the ticks (in
// Independent, as the article's loop does), the 200 ms frame at 400 ms
// would run ticks 4 to 8 before polling the tap, which would reach tick 9.
func TestDriverInputIndependentOfFrameRate(t *testing.T) {
	for _, step := range []time.Duration{ms, 10 * ms, 130 * ms, 200 * ms} {
		clock := NewManualClock(0)
		g := &tapGame{tap: 245 * ms, actedOn: -1}
		d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Game: g}
		for g.ticks < 12 {
			if _, err := d.Frame(); err != nil {
				t.Fatal(err)
			}
			clock.Advance(step)
		}
		if g.actedOn != 6 {
			t.Errorf("frames of %v: the tap at 245 ms acted on tick %d, want 6", step, g.actedOn)
		}
	}
}

// TestDriverFirstFrameResets: the loop was made at 0 and the first frame
// comes after 5 s of loading; the Driver's first Frame resets the loop,
// so the loading time is no burst of ticks, and the ticks count from it.
func TestDriverFirstFrameResets(t *testing.T) {
	for _, zero := range []bool{false, true} {
		clock := NewManualClock(origin)
		g := &recGame{clock: clock}
		loop := mustFixed(t, FixedConfig{}, origin)
		if zero {
			loop = new(Fixed)
		}
		d := &Driver{Clock: clock, Loop: loop, Game: g}
		clock.Advance(5 * time.Second)
		fr, err := d.Frame()
		if err != nil {
			t.Fatal(err)
		}
		if fr.Ticks != 0 || fr.Percent != 0 || fr.Elapsed != 0 {
			t.Fatalf("zero %v: first frame after loading: %+v", zero, fr)
		}
		start := clock.Now()
		for i := 0; i < 100; i++ {
			clock.Advance(10 * ms)
			if _, err := d.Frame(); err != nil {
				t.Fatal(err)
			}
		}
		if want := wantTicks(time.Second, DefaultTick); loop.TotalTicks() != want {
			t.Fatalf("zero %v: %d ticks in 1 s after loading, want %d", zero, loop.TotalTicks(), want)
		}
		if g.spans[0].Start != start {
			t.Fatalf("zero %v: the first tick starts at %v, want the first frame's %v", zero, g.spans[0].Start, start)
		}
	}
}

// TestDriverRun: Run resets the loop (no burst for the time before it),
// stops when asked, and with a Limiter paces the frames at its interval
// from the very first one.
func TestDriverRun(t *testing.T) {
	clock := NewManualClock(0)
	lim := mustLimiter(t, 10*ms)
	g := &recGame{clock: clock, cost: ms}
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Limiter: lim, Game: g}
	clock.Set(5 * time.Second) // loading took 5 s
	frames := 0
	var nows []time.Duration
	run := func(n int) {
		t.Helper()
		frames, nows = 0, nows[:0]
		err := d.Run(func() bool {
			nows = append(nows, clock.Now())
			frames++
			return frames > n
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	run(100)
	if d.Loop.TotalFrames() != 100 {
		t.Fatalf("%d frames, want 100", d.Loop.TotalFrames())
	}
	// The first frame starts at 5 s, when Run resets the loop and starts
	// the limiter; every frame, the first included, lasts exactly 10 ms.
	// The ticks count from the reset: none for loading.
	if nows[0] != 5*time.Second {
		t.Fatalf("first frame at %v", nows[0])
	}
	for i := 0; i < len(nows)-1; i++ {
		if nows[i+1]-nows[i] != 10*ms {
			t.Fatalf("frame %d lasted %v, want 10ms", i, nows[i+1]-nows[i])
		}
	}
	ticks := d.Loop.TotalTicks()
	if want := wantTicks(nows[100]-nows[0], DefaultTick); ticks != want || want < 20 {
		t.Fatalf("%d ticks, want %d", ticks, want)
	}
	// A second Run after a minute in a menu: reset again, no burst, and
	// paced from its first frame.
	clock.Advance(time.Minute)
	run(10)
	for i := 0; i < len(nows)-1; i++ {
		if nows[i+1]-nows[i] != 10*ms {
			t.Fatalf("second run: frame %d lasted %v, want 10ms", i, nows[i+1]-nows[i])
		}
	}
	if got := d.Loop.TotalTicks() - ticks; got > 3 {
		t.Fatalf("second run: %d ticks in 100 ms", got)
	}
}

func TestDriverIncomplete(t *testing.T) {
	clock := NewManualClock(0)
	f := mustFixed(t, FixedConfig{}, 0)
	g := &recGame{clock: clock}
	stop := func() bool { return true }
	lim := mustLimiter(t, ms)
	v := mustVirtual(t, VirtualConfig{}, 0)
	for i, d := range []*Driver{
		{},
		{Loop: f, Game: g},
		{Clock: clock, Game: g},
		{Clock: clock, Loop: f},
		{Clock: struct{ Clock }{clock}, Loop: f, Game: g, Limiter: lim}, // cannot sleep
		{Clock: VirtualClock{}, Loop: f, Game: g},
		{Clock: VirtualClock{Raw: clock}, Loop: f, Game: g},
		{Clock: &VirtualClock{Virtual: v}, Loop: f, Game: g},
		{Clock: (*VirtualClock)(nil), Loop: f, Game: g},
		{Clock: VirtualClock{Raw: clock, Virtual: v}, Loop: f, Game: g, Limiter: lim}, // not a Sleeper
	} {
		fr, err := d.Frame()
		if !errors.Is(err, ErrIncompleteDriver) || !errors.Is(err, ErrInvalid) || fr != (FixedFrame{}) {
			t.Fatalf("driver %d: Frame = %+v, %v", i, fr, err)
		}
		if err := d.Run(stop); !errors.Is(err, ErrIncompleteDriver) {
			t.Fatalf("driver %d: Run = %v", i, err)
		}
	}
	if err := (&Driver{Clock: clock, Loop: f, Game: g}).Run(nil); !errors.Is(err, ErrIncompleteDriver) {
		t.Fatalf("Run(nil): %v", err)
	}
	if len(g.log) != 0 || f.TotalFrames() != 0 {
		t.Fatalf("the game was called: %v, %d frames", g.log, f.TotalFrames())
	}
	// A complete Driver on a VirtualClock, with and without a pointer.
	for _, c := range []Clock{VirtualClock{Raw: clock, Virtual: v}, &VirtualClock{Raw: clock, Virtual: v}} {
		if _, err := (&Driver{Clock: c, Loop: f, Game: g}).Frame(); err != nil {
			t.Fatalf("%T: %v", c, err)
		}
	}
}

type nopGame struct{ ticks int }

func (g *nopGame) Tick(TickSpan)          { g.ticks++ }
func (g *nopGame) Independent(FixedFrame) {}
func (g *nopGame) Draw(float64)           {}

func TestDriverAllocs(t *testing.T) {
	clock := NewManualClock(0)
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Game: &nopGame{}, Limiter: mustLimiter(t, 5*ms)}
	if a := testing.AllocsPerRun(10000, func() {
		clock.Advance(7 * ms)
		_, _ = d.Frame()
	}); a != 0 {
		t.Fatalf("Driver.Frame allocates %v times", a)
	}
	raw := NewManualClock(0)
	vd := &Driver{Clock: VirtualClock{Raw: raw, Virtual: mustVirtual(t, VirtualConfig{MaxDelta: NoLimit}, 0)}, Loop: new(Fixed), Game: &nopGame{}}
	if a := testing.AllocsPerRun(10000, func() {
		raw.Advance(7 * ms)
		_, _ = vd.Frame()
	}); a != 0 {
		t.Fatalf("Driver.Frame on a VirtualClock allocates %v times", a)
	}
}
