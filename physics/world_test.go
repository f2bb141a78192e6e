package physics_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/physics"
)

func TestDefaults(t *testing.T) {
	w := mustNew(t, physics.Config{})
	want := physics.Config{Width: 640, Height: 480, Radius: 8, Speed: 400, Tick: 40 * time.Millisecond, Balls: 1}
	if got := w.Config(); got != want {
		t.Fatalf("Config() = %+v, want %+v", got, want)
	}
	if physics.DefaultConfig() != want {
		t.Fatalf("DefaultConfig() = %+v, want %+v", physics.DefaultConfig(), want)
	}
	// The original demo: 16 units per 40 ms tick.
	if w.Displacement() != 16*physics.One {
		t.Fatalf("Displacement() = %d, want %d", w.Displacement(), 16*physics.One)
	}
	if w.N() != 1 || len(w.Last) != 2 || len(w.Next) != 2 || len(w.Dir) != 2 {
		t.Fatalf("N() = %d, lens %d %d %d", w.N(), len(w.Last), len(w.Next), len(w.Dir))
	}
	if w.Ticks() != 0 || w.Steps() != 0 || w.Player() {
		t.Fatalf("fresh world: ticks %d steps %d player %v", w.Ticks(), w.Steps(), w.Player())
	}
}

// TestSpawn checks the initial state from its definition: ball 0 at the
// centre heading (3/5, 4/5) in Q14; every ball in the box with Last =
// Next and a unit direction (length 16384 within the rounding of Q14);
// ball i a function of (seed, i) only; directions spread over all angles.
func TestSpawn(t *testing.T) {
	cfg := physics.Config{Width: 1000, Height: 700, Radius: 20, Balls: 20000, Seed: 12345}
	w := mustNew(t, cfg)
	b := boxOf(w.Config())
	if got := ballOf(w, 0); got != (ball{500 * 256, 350 * 256, 500 * 256, 350 * 256, 16384 * 3 / 5, 16384 * 4 / 5}) {
		t.Fatalf("ball 0 = %+v", got)
	}
	var quadrant [4]int
	for i := range w.N() {
		x := ballOf(w, i)
		if x.lx != x.nx || x.ly != x.ny {
			t.Fatalf("ball %d spawned with Last != Next: %+v", i, x)
		}
		if !b.contains(x.nx, x.ny) {
			t.Fatalf("ball %d spawned outside the box: %+v", i, x)
		}
		l2 := int64(x.dx)*int64(x.dx) + int64(x.dy)*int64(x.dy)
		// |len - 16384| <= 2  <=>  (16382)^2 <= l2 <= (16386)^2
		if l2 < 16382*16382 || l2 > 16386*16386 {
			t.Fatalf("ball %d direction (%d,%d) is not a Q14 unit vector (len^2 %d)", i, x.dx, x.dy, l2)
		}
		q := 0
		if x.dx < 0 {
			q |= 1
		}
		if x.dy < 0 {
			q |= 2
		}
		quadrant[q]++
	}
	for q, n := range quadrant {
		// 20000 uniform directions: 5000 a quadrant, sd ~61.
		if n < 4700 || n > 5300 {
			t.Errorf("quadrant %d holds %d of 20000 directions: %v", q, n, quadrant)
		}
	}

	// Ball i depends on (seed, i) only: not on N.
	small := mustNew(t, physics.Config{Width: 1000, Height: 700, Radius: 20, Balls: 10, Seed: 12345})
	for i := range small.N() {
		if ballOf(small, i) != ballOf(w, i) {
			t.Fatalf("ball %d differs between N=10 and N=20000", i)
		}
	}
	// ... but on the seed.
	other := mustNew(t, physics.Config{Width: 1000, Height: 700, Radius: 20, Balls: 10, Seed: 12346})
	for i := 1; i < 10; i++ {
		if ballOf(other, i) == ballOf(w, i) {
			t.Fatalf("ball %d is the same for seeds 12345 and 12346", i)
		}
	}
	// Positions spread over the box, not bunched: each half holds about
	// half of the balls.
	left := 0
	for i := 1; i < w.N(); i++ {
		if w.Next[2*i] < (b.lox+b.hix)/2 {
			left++
		}
	}
	if left < 9700 || left > 10300 {
		t.Errorf("%d of 19999 balls spawned in the left half", left)
	}
}

func TestTeleport(t *testing.T) {
	w := mustNew(t, physics.Config{Balls: 3, Seed: 1})
	b := boxOf(w.Config())
	for range 5 {
		w.Tick(physics.Control{})
	}
	cases := []struct {
		x, y, wantX, wantY int32
	}{
		{100 * 256, 200 * 256, 100 * 256, 200 * 256},
		{-5, 1 << 30, b.lox, b.hiy}, // clamped into the box
		{1<<31 - 1, -1 << 31, b.hix, b.loy},
		{b.lox, b.hiy, b.lox, b.hiy}, // on the walls: allowed
	}
	for _, c := range cases {
		before := w.Moved()
		other := ballOf(w, 2)
		dir := [2]int32{w.Dir[2], w.Dir[3]}
		w.Teleport(1, c.x, c.y)
		got := ballOf(w, 1)
		if got.nx != c.wantX || got.ny != c.wantY || got.lx != got.nx || got.ly != got.ny {
			t.Errorf("Teleport(1, %d, %d): %+v, want last = next = (%d,%d)", c.x, c.y, got, c.wantX, c.wantY)
		}
		if got.dx != dir[0] || got.dy != dir[1] {
			t.Errorf("Teleport changed the direction")
		}
		if w.Moved() == before {
			t.Errorf("Teleport did not change Moved()")
		}
		if ballOf(w, 2) != other {
			t.Errorf("Teleport of ball 1 changed ball 2")
		}
	}
	for _, i := range []int{-1, 3} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Teleport(%d) in a world of 3 did not panic", i)
				}
			}()
			w.Teleport(i, 0, 0)
		}()
	}
}

func TestReset(t *testing.T) {
	cfg := physics.Config{Balls: 50, Seed: 3}
	fresh := mustNew(t, cfg)
	w := mustNew(t, cfg)
	for i := range 100 {
		w.Tick(physics.Control{X: int8(i % 2)})
		w.Step(time.Millisecond+7, physics.Control{})
	}
	if !w.Player() || w.Ticks() != 100 || w.Steps() != 100 {
		t.Fatalf("setup: player %v ticks %d steps %d", w.Player(), w.Ticks(), w.Steps())
	}
	before := w.Moved()
	w.Reset()
	if w.Moved() == before {
		t.Errorf("Reset did not change Moved()")
	}
	if w.Player() || w.Ticks() != 0 || w.Steps() != 0 {
		t.Errorf("after Reset: player %v ticks %d steps %d", w.Player(), w.Ticks(), w.Steps())
	}
	for i := range w.N() {
		if ballOf(w, i) != ballOf(fresh, i) {
			t.Fatalf("ball %d after Reset %+v, initially %+v", i, ballOf(w, i), ballOf(fresh, i))
		}
	}
	if w.Hash() != fresh.Hash() {
		t.Errorf("Reset world hashes %016x, a new one %016x", w.Hash(), fresh.Hash())
	}
	// And it runs on identically.
	for range 20 {
		w.Tick(physics.Control{})
		fresh.Tick(physics.Control{})
	}
	if w.Hash() != fresh.Hash() {
		t.Errorf("Reset world diverged from a new one")
	}
}

func TestSetBalls(t *testing.T) {
	cfg := physics.Config{Balls: 40, Seed: 11}
	initial := mustNew(t, cfg)
	w := mustNew(t, cfg)
	for range 60 {
		w.Tick(physics.Control{})
	}
	ticked := make([]ball, 40)
	for i := range ticked {
		ticked[i] = ballOf(w, i)
	}

	m := w.Moved()
	if err := w.SetBalls(10); err != nil {
		t.Fatal(err)
	}
	if w.N() != 10 || len(w.Last) != 20 || len(w.Next) != 20 || len(w.Dir) != 20 || w.Config().Balls != 10 {
		t.Fatalf("after SetBalls(10): N %d, lens %d %d %d, Config().Balls %d",
			w.N(), len(w.Last), len(w.Next), len(w.Dir), w.Config().Balls)
	}
	if w.Moved() == m {
		t.Errorf("SetBalls(10) did not change Moved()")
	}
	for i := range 10 {
		if ballOf(w, i) != ticked[i] {
			t.Fatalf("shrinking changed ball %d", i)
		}
	}

	// Grow past the old size (forces a reallocation).
	m = w.Moved()
	if err := w.SetBalls(100); err != nil {
		t.Fatal(err)
	}
	if w.Moved() == m {
		t.Errorf("SetBalls(100) did not change Moved()")
	}
	big := mustNew(t, physics.Config{Balls: 100, Seed: 11})
	for i := range 100 {
		got := ballOf(w, i)
		switch {
		case i < 10:
			if got != ticked[i] {
				t.Fatalf("growing changed kept ball %d", i)
			}
		case i < 40:
			if got != ballOf(initial, i) {
				t.Fatalf("ball %d came back as %+v, initially %+v", i, got, ballOf(initial, i))
			}
		default:
			if got != ballOf(big, i) {
				t.Fatalf("new ball %d is %+v, in a new world of 100 %+v", i, got, ballOf(big, i))
			}
		}
		if i >= 10 && (got.lx != got.nx || got.ly != got.ny) {
			t.Fatalf("new ball %d has Last != Next", i)
		}
	}

	// Same count: nothing happens.
	m = w.Moved()
	if err := w.SetBalls(100); err != nil || w.Moved() != m {
		t.Errorf("SetBalls(N): err %v, Moved changed %v", err, w.Moved() != m)
	}

	// Zero balls ends player control; ball 0 comes back as it started.
	w.Tick(physics.Control{X: 1})
	if !w.Player() {
		t.Fatal("no takeover")
	}
	if err := w.SetBalls(0); err != nil {
		t.Fatal(err)
	}
	if w.N() != 0 || w.Player() {
		t.Errorf("SetBalls(0): N %d player %v", w.N(), w.Player())
	}
	w.Tick(physics.Control{X: 1}) // an empty world ticks, and no takeover
	if w.Player() {
		t.Errorf("takeover in an empty world")
	}
	_ = w.SetBalls(1)
	if ballOf(w, 0) != ballOf(initial, 0) {
		t.Errorf("ball 0 came back as %+v", ballOf(w, 0))
	}

	for _, n := range []int{-1, physics.MaxBalls + 1} {
		before := w.N()
		err := w.SetBalls(n)
		if err == nil || !strings.Contains(err.Error(), "Balls") {
			t.Errorf("SetBalls(%d) = %v, want an error naming Balls", n, err)
		}
		if w.N() != before {
			t.Errorf("failed SetBalls changed N")
		}
	}
}

// TestSetTick: the speed in units per second is kept when the tick
// changes: the distance over one second of ticks is Speed units, within the
// rounding of K to 1/256 unit per tick.
func TestSetTick(t *testing.T) {
	const speed = 400
	for _, d := range []time.Duration{
		time.Millisecond, 7 * time.Millisecond, 10 * time.Millisecond, 16 * time.Millisecond,
		20 * time.Millisecond, time.Second / 60, 33 * time.Millisecond, 40 * time.Millisecond,
		100 * time.Millisecond, 250 * time.Millisecond, time.Second,
	} {
		w := mustNew(t, physics.Config{Width: 10000, Height: 100, Speed: speed})
		for range 3 {
			w.Tick(physics.Control{})
		}
		if err := w.SetTick(d); err != nil {
			t.Fatalf("SetTick(%v): %v", d, err)
		}
		if w.Config().Tick != d || w.Ticks() != 3 {
			t.Fatalf("SetTick(%v): Config().Tick %v, Ticks %d", d, w.Config().Tick, w.Ticks())
		}
		w.Teleport(0, 10*physics.One, 50*physics.One)
		w.Dir[0], w.Dir[1] = physics.DirOne, 0
		n := int64(time.Second / d)
		for range n {
			w.Tick(physics.Control{})
		}
		got := int64(w.Next[0] - 10*physics.One)
		// Exact distance over n ticks of d: speed*256*n*d/1s; K is
		// rounded to nearest, so the error is at most n/2.
		exact := float64(speed*physics.One) * float64(n) * d.Seconds()
		if diff := float64(got) - exact; diff > float64(n)/2 || diff < -float64(n)/2 {
			t.Errorf("tick %v: %d Q8 in %d ticks, want %.1f within %d", d, got, n, exact, n/2)
		}
	}

	// 20 ms and 40 ms: exactly the same distance in one second.
	var dist [2]int32
	for j, d := range []time.Duration{20 * time.Millisecond, 40 * time.Millisecond} {
		w := mustNew(t, physics.Config{Width: 10000, Height: 100})
		_ = w.SetTick(d)
		w.Teleport(0, 10*physics.One, 50*physics.One)
		w.Dir[0], w.Dir[1] = physics.DirOne, 0
		for range time.Second / d {
			w.Tick(physics.Control{})
		}
		dist[j] = w.Next[0] - 10*physics.One
	}
	if dist[0] != dist[1] || dist[0] != 400*physics.One {
		t.Errorf("one second at 20 ms: %d, at 40 ms: %d, want both %d", dist[0], dist[1], 400*physics.One)
	}

	w := mustNew(t, physics.Config{})
	for _, d := range []time.Duration{0, -time.Millisecond, time.Nanosecond, 1 << 62} {
		err := w.SetTick(d)
		if err == nil || !(strings.Contains(err.Error(), "Tick") || strings.Contains(err.Error(), "Speed")) {
			t.Errorf("SetTick(%v) = %v, want an error naming Tick", d, err)
		}
		if w.Config().Tick != 40*time.Millisecond || w.Displacement() != 4096 {
			t.Errorf("failed SetTick(%v) changed the world", d)
		}
	}
}

// TestStep: a variable step covers Speed*dt exactly, whatever the split of
// dt (the rounding remainder is carried), and does not count as a tick.
func TestStep(t *testing.T) {
	const speed = 437
	w := mustNew(t, physics.Config{Width: 100000, Height: 100, Speed: speed})
	w.Teleport(0, 10*physics.One, 50*physics.One)
	w.Dir[0], w.Dir[1] = physics.DirOne, 0
	var total time.Duration
	var x uint64 = 2463534242
	for range 1000 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		dt := time.Duration(x%20_000_000) - 2_000_000 // -2 ms..18 ms
		prev := w.Next[0]
		w.Step(dt, physics.Control{})
		if w.Last[0] != prev {
			t.Fatalf("Step: Last %d, want the previous Next %d", w.Last[0], prev)
		}
		if dt > 0 {
			total += dt
		} else if w.Next[0] != prev {
			t.Fatalf("Step(%v) moved the ball", dt)
		}
	}
	// floor(speed * 256 * total / 1s), in exact integers.
	want := int64(speed*physics.One) * int64(total) / int64(time.Second)
	if got := int64(w.Next[0] - 10*physics.One); got != want {
		t.Errorf("after steps totalling %v: %d Q8, want exactly %d", total, got, want)
	}
	if w.Ticks() != 0 || w.Steps() != 1000 {
		t.Errorf("Ticks %d Steps %d, want 0 and 1000", w.Ticks(), w.Steps())
	}

	// A Step of one tick's length moves as far as a Tick (4096 at the
	// defaults, exact).
	a := mustNew(t, physics.Config{Balls: 100, Seed: 5})
	b := mustNew(t, physics.Config{Balls: 100, Seed: 5})
	for range 300 {
		a.Tick(physics.Control{})
		b.Step(40*time.Millisecond, physics.Control{})
	}
	for i := range a.N() {
		if ballOf(a, i) != ballOf(b, i) {
			t.Fatalf("ball %d: 300 ticks %+v, 300 steps of 40 ms %+v", i, ballOf(a, i), ballOf(b, i))
		}
	}

	// An absurd dt is clamped, and the balls stay in the box.
	c := mustNew(t, physics.Config{Balls: 100})
	c.Step(1<<62, physics.Control{})
	checkInBox(t, c, boxOf(c.Config()), "after a 146-year step")
}

func TestControl(t *testing.T) {
	cfg := physics.Config{Balls: 20, Seed: 8}
	w := mustNew(t, cfg)
	ref := mustNew(t, cfg) // never controlled
	b := boxOf(w.Config())
	k := w.Displacement()

	// Zero control: ball 0 is autonomous, and moves like in ref.
	for range 3 {
		w.Tick(physics.Control{})
		ref.Tick(physics.Control{})
	}
	if w.Player() || ballOf(w, 0) != ballOf(ref, 0) {
		t.Fatalf("zero control changed ball 0 or took over")
	}

	// Takeover: this very tick moves ball 0 by (K, 0).
	w.Teleport(0, 300*physics.One, 200*physics.One)
	dir0 := [2]int32{w.Dir[0], w.Dir[1]}
	w.Tick(physics.Control{X: 1})
	ref.Tick(physics.Control{})
	if !w.Player() {
		t.Fatal("a non-zero control did not take over ball 0")
	}
	if got := ballOf(w, 0); got.lx != 300*physics.One || got.ly != 200*physics.One ||
		got.nx != 300*physics.One+k || got.ny != 200*physics.One {
		t.Fatalf("takeover tick: %+v, want last (300,200) units, next moved by (%d, 0)", got, k)
	}

	// Held controls: exactly K per tick along each held axis.
	for _, c := range []physics.Control{{X: 1}, {X: -1, Y: 1}, {Y: -1}, {X: 1, Y: 1}, {X: 5, Y: -100}} {
		for range 4 {
			x, y := w.Next[0], w.Next[1]
			w.Tick(c)
			ref.Tick(physics.Control{})
			sx, sy := int32(min(max(c.X, -1), 1)), int32(min(max(c.Y, -1), 1))
			if w.Last[0] != x || w.Last[1] != y || w.Next[0] != x+sx*k || w.Next[1] != y+sy*k {
				t.Fatalf("control %+v: from (%d,%d) to (%d,%d), want a move of (%d,%d)",
					c, x, y, w.Next[0], w.Next[1], sx*k, sy*k)
			}
		}
	}
	if w.Dir[0] != dir0[0] || w.Dir[1] != dir0[1] {
		t.Errorf("control changed ball 0's direction")
	}

	// Zero control keeps a controlled ball still, and it stays controlled.
	x, y := w.Next[0], w.Next[1]
	for range 5 {
		w.Tick(physics.Control{})
		ref.Tick(physics.Control{})
		if !w.Player() || w.Next[0] != x || w.Next[1] != y || w.Last[0] != x || w.Last[1] != y {
			t.Fatalf("zero control moved the controlled ball or released it")
		}
	}

	// The other balls never notice.
	for i := 1; i < w.N(); i++ {
		if ballOf(w, i) != ballOf(ref, i) {
			t.Fatalf("control changed ball %d", i)
		}
	}

	// Held into a corner: it reaches the walls exactly and stays.
	for range 100 {
		w.Tick(physics.Control{X: 1, Y: -1})
		if !b.contains(w.Next[0], w.Next[1]) {
			t.Fatalf("controlled ball left the box: (%d,%d)", w.Next[0], w.Next[1])
		}
	}
	if w.Next[0] != b.hix || w.Next[1] != b.loy {
		t.Errorf("held right and up: at (%d,%d), want the corner (%d,%d)", w.Next[0], w.Next[1], b.hix, b.loy)
	}
	for range 100 {
		w.Tick(physics.Control{X: -1, Y: 1})
	}
	if w.Next[0] != b.lox || w.Next[1] != b.hiy {
		t.Errorf("held left and down: at (%d,%d), want the corner (%d,%d)", w.Next[0], w.Next[1], b.lox, b.hiy)
	}

	// Step moves a controlled ball by its own K: 10 ms at 400 units/s.
	w.Teleport(0, 300*physics.One, 200*physics.One)
	w.Step(10*time.Millisecond, physics.Control{X: -1})
	if w.Next[0] != 300*physics.One-1024 || w.Steps() != 1 {
		t.Errorf("Step(10ms, left): x %d, want %d", w.Next[0], 300*physics.One-1024)
	}

	w.Reset()
	if w.Player() {
		t.Errorf("Reset did not end player control")
	}
}

func TestValidate(t *testing.T) {
	bad := []struct {
		field string
		cfg   physics.Config
	}{
		{"Width", physics.Config{Width: -1}},
		{"Width", physics.Config{Width: physics.MaxSize + 1}},
		{"Height", physics.Config{Height: -640}},
		{"Height", physics.Config{Height: physics.MaxSize + 1}},
		{"Radius", physics.Config{Radius: -1}},
		{"Radius", physics.Config{Radius: 240}},                      // 2R == Height
		{"Radius", physics.Config{Width: 16, Height: 100}},           // default 8: 2R == Width
		{"Radius", physics.Config{Width: 5, Height: 5, Radius: 1e9}}, // no overflow in 2R
		{"Balls", physics.Config{Balls: -1}},
		{"Balls", physics.Config{Balls: physics.MaxBalls + 1}},
		{"Balls", physics.Config{Balls: math.MaxInt}}, // 2^63-1, or 2^31-1 on 32-bit
		{"Speed", physics.Config{Speed: -400}},
		{"Speed", physics.Config{Speed: 1 << 30}},                   // 2^30*256*0.04 Q8: too far
		{"Speed", physics.Config{Speed: 1 << 30, Tick: 1 << 62}},    // the product overflows 64 bits
		{"Speed", physics.Config{Speed: 1, Tick: time.Millisecond}}, // 0.256 Q8: rounds to no motion
		{"Tick", physics.Config{Tick: -time.Millisecond}},
	}
	for _, c := range bad {
		err := c.cfg.Validate()
		if err == nil {
			t.Errorf("%+v: Validate() = nil, want an error naming %s", c.cfg, c.field)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.field) || strings.Contains(msg, "\n") {
			t.Errorf("%+v: Validate() = %q, want one line naming %s", c.cfg, msg, c.field)
		}
		if w, err2 := physics.New(c.cfg); w != nil || err2 == nil || err2.Error() != msg {
			t.Errorf("%+v: New = %v, %v; want nil and Validate's error", c.cfg, w, err2)
		}
	}
	good := []physics.Config{
		{},
		{Width: 3, Height: 3, Radius: 1},
		{Width: physics.MaxSize, Height: physics.MaxSize, Radius: physics.MaxSize/2 - 1},
		{Balls: physics.MaxBalls},
		{Speed: 1, Tick: 2 * time.Millisecond}, // 0.512 Q8: rounds to 1
		{Speed: 1<<31 - 1, Tick: time.Millisecond},
		{Tick: time.Hour, Speed: 1000},
		{Seed: 1<<64 - 1},
	}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%+v: Validate() = %v, want nil", c, err)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	w := mustNew(t, physics.Config{Balls: 10_000, Seed: 1})
	_ = w.SetBalls(5_000) // capacity kept for growing back
	for name, f := range map[string]func(){
		"Tick":          func() { w.Tick(physics.Control{}) },
		"Tick(player)":  func() { w.Tick(physics.Control{X: 1}) },
		"Step":          func() { w.Step(16*time.Millisecond, physics.Control{}) },
		"Step(fold)":    func() { w.Step(time.Hour, physics.Control{}) },
		"Hash":          func() { _ = w.Hash() },
		"Teleport":      func() { w.Teleport(7, 1, 1) },
		"Reset":         func() { w.Reset() },
		"SetBalls(cap)": func() { _ = w.SetBalls(10_000); _ = w.SetBalls(5_000) },
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, a)
		}
	}
}
