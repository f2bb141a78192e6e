package loop

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recGame records the calls a Driver makes, and what Driver.Current says
// during each. Each call also advances the clock by its cost, as real work
// would.
type recGame struct {
	d     *Driver
	clock *ManualClock
	cost  time.Duration
	log   []string
	ends  []time.Duration // TickEnd of each tick, as Current reports it
}

func (g *recGame) Tick() {
	fr, j := g.d.Current()
	g.ends = append(g.ends, fr.TickEnd(j))
	g.log = append(g.log, fmt.Sprintf("T%d", j))
	g.clock.Advance(g.cost)
}

func (g *recGame) Independent(frameTime time.Duration) {
	g.log = append(g.log, fmt.Sprintf("I%v", frameTime))
}

func (g *recGame) Draw(p float64) {
	_, j := g.d.Current()
	g.log = append(g.log, fmt.Sprintf("D%.2f/%d", p, j))
	g.clock.Advance(g.cost)
}

func TestDriverOrder(t *testing.T) {
	clock := NewManualClock(0)
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0)}
	g := &recGame{d: d, clock: clock}
	d.Game = g
	var got []string
	for _, at := range []time.Duration{30 * ms, 50 * ms, 130 * ms, 10 * time.Second} {
		clock.Set(at)
		g.log = g.log[:0]
		fr := d.Frame()
		got = append(got, strings.Join(g.log, " "))
		if fr.Now != at {
			t.Fatalf("the frame was planned at %v, the clock read %v", fr.Now, at)
		}
	}
	// 30 ms: no tick, 3/4 into the first. 50 ms: one tick (time0 = 40 ms),
	// 10 ms in. 130 ms: two ticks (time0 = 120 ms). 10 s: five ticks, the
	// rest discarded, drawn at 1.
	want := []string{
		"I0s D0.75/0",
		"T0 I40ms D0.25/1",
		"T0 T1 I80ms D0.25/2",
		"T0 T1 T2 T3 T4 I200ms D1.00/5",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("frame %d: calls %q, want %q", i, got[i], want[i])
		}
	}
	wantEnds := []time.Duration{40 * ms, 80 * ms, 120 * ms, 160 * ms, 200 * ms, 240 * ms, 280 * ms, 320 * ms}
	if fmt.Sprint(g.ends) != fmt.Sprint(wantEnds) {
		t.Errorf("tick span ends %v, want %v", g.ends, wantEnds)
	}
}

// TestDriverRun: Run resets the loop (no burst for the time before it),
// stops when asked, and with a Limiter paces the frames at its interval.
func TestDriverRun(t *testing.T) {
	clock := NewManualClock(0)
	lim, err := NewLimiter(10 * ms)
	if err != nil {
		t.Fatal(err)
	}
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Limiter: lim}
	g := &recGame{d: d, clock: clock, cost: ms}
	d.Game = g
	clock.Set(5 * time.Second) // loading took 5 s
	frames := 0
	var nows []time.Duration
	err = d.Run(func() bool {
		nows = append(nows, clock.Now())
		frames++
		return frames > 100
	})
	if err != nil {
		t.Fatal(err)
	}
	if d.Loop.TotalFrames() != 100 {
		t.Fatalf("%d frames, want 100", d.Loop.TotalFrames())
	}
	// The first frame starts at 5 s, when Run resets the loop; the first
	// Wait sets the limiter's schedule, and from then on the frames start
	// exactly 10 ms apart. The ticks count from the reset: none for loading.
	if nows[0] != 5*time.Second {
		t.Fatalf("first frame at %v", nows[0])
	}
	for i := 1; i < len(nows)-1; i++ {
		if nows[i+1]-nows[i] != 10*ms {
			t.Fatalf("frame %d started %v after the last, want 10ms", i+1, nows[i+1]-nows[i])
		}
	}
	if want := wantTicks(nows[99]-nows[0], DefaultTick); d.Loop.TotalTicks() != want || want < 20 {
		t.Fatalf("%d ticks, want %d", d.Loop.TotalTicks(), want)
	}
}

func TestDriverIncomplete(t *testing.T) {
	clock := NewManualClock(0)
	f := mustFixed(t, FixedConfig{}, 0)
	g := &recGame{clock: clock}
	stop := func() bool { return true }
	lim, _ := NewLimiter(ms)
	for _, d := range []*Driver{
		{Loop: f, Game: g},
		{Clock: clock, Game: g},
		{Clock: clock, Loop: f},
	} {
		if fr := d.Frame(); fr != (FixedFrame{}) {
			t.Fatalf("incomplete driver ran a frame: %+v", fr)
		}
		if err := d.Run(stop); !errors.Is(err, ErrIncompleteDriver) {
			t.Fatalf("Run on %+v: %v", d, err)
		}
	}
	if err := (&Driver{Clock: clock, Loop: f, Game: g}).Run(nil); !errors.Is(err, ErrIncompleteDriver) {
		t.Fatalf("Run(nil): %v", err)
	}
	noSleep := struct{ Clock }{clock}
	if err := (&Driver{Clock: noSleep, Loop: f, Game: g, Limiter: lim}).Run(stop); !errors.Is(err, ErrIncompleteDriver) {
		t.Fatalf("a Limiter with a clock that cannot sleep: %v", err)
	}
	if len(g.log) != 0 {
		t.Fatalf("the game was called: %v", g.log)
	}
}

type nopGame struct{ ticks int }

func (g *nopGame) Tick()                     { g.ticks++ }
func (g *nopGame) Independent(time.Duration) {}
func (g *nopGame) Draw(float64)              {}

func TestDriverAllocs(t *testing.T) {
	clock := NewManualClock(0)
	d := &Driver{Clock: clock, Loop: mustFixed(t, FixedConfig{}, 0), Game: &nopGame{}}
	if a := testing.AllocsPerRun(10000, func() {
		clock.Advance(7 * ms)
		d.Frame()
	}); a != 0 {
		t.Fatalf("Driver.Frame allocates %v times", a)
	}
}
