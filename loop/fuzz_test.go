package loop

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"
)

// fuzzDeltas decodes the fuzzer's bytes into frame-to-frame clock moves:
// two bytes each, the top two bits choosing ordinary frames (0-164 ms in
// 10 us steps), nanosecond-level gaps, stalls (up to 164 s) or jumps back
// (up to 1.6 s).
func fuzzDeltas(data []byte) []time.Duration {
	out := make([]time.Duration, 0, len(data)/2)
	for ; len(data) >= 2; data = data[2:] {
		v := time.Duration(binary.LittleEndian.Uint16(data))
		n := v & 0x3fff
		switch v >> 14 {
		case 0:
			out = append(out, n*10*time.Microsecond)
		case 1:
			out = append(out, n)
		case 2:
			out = append(out, n*10*ms)
		case 3:
			out = append(out, -n*100*time.Microsecond)
		}
	}
	return out
}

func fuzzCorpus(f *testing.F, add func(data []byte)) {
	le := func(vs ...uint16) []byte {
		b := make([]byte, 0, 2*len(vs))
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint16(b, v)
		}
		return b
	}
	add(le(100, 100, 100, 4000, 1666, 1666))          // 1 ms frames, a 40 ms one, 16.66 ms
	add(le(4000, 4000, 4000, 4000))                   // exactly one tick
	add(le(20000, 20000, 20000))                      // 200 ms
	add(le(100, 0x8000|1000, 100, 100))               // 10 s stall
	add(le(1666, 0xC000|50, 1666, 0xC000|16383, 900)) // clock going back
	add(le(0x4000|1, 0x4000|39999&0x3fff, 0, 0))      // nanosecond gaps, zero gaps
}

// FuzzFixed: any frame schedule, any settings: every frame equals the
// article's literal loop and keeps the invariants; solo mode is back on real
// time after a capped frame; lockstep never loses a tick.
func FuzzFixed(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(0), uint32(40000), uint8(5), false) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(-1)<<40, uint32(1), uint8(1), true) })
	f.Fuzz(func(t *testing.T, data []byte, start int64, tickNs uint32, maxLoops uint8, lockstep bool) {
		cfg := FixedConfig{Tick: time.Duration(tickNs%(200*uint32(ms))) + 1, MaxLoops: int(maxLoops%16) + 1, Lockstep: lockstep}
		// The start is anywhere in +-2^61 ns (73 years): the article's
		// literal loop, the reference, would wrap at the ends of int64, which
		// TestFixedExtremeTimes and TestFixedBackwards cover.
		now := time.Duration(start >> 2)
		fx, err := NewFixed(cfg, now)
		if err != nil {
			t.Fatal(err)
		}
		m := &articleLoop{tick: cfg.Tick, maxLoops: cfg.MaxLoops, lockstep: lockstep, time0: now, last: now}
		fwd := time.Duration(0)
		for i, d := range fuzzDeltas(data) {
			now = addSat(now, d)
			if d > 0 {
				fwd += d
			}
			fr := fx.Step(now)
			checkFrame(t, i, fx, fr)
			if want := max(0, d); i == 0 && fr.Elapsed != 0 || i > 0 && fr.Elapsed != want {
				t.Fatalf("frame %d: Elapsed %v for a move of %v", i, fr.Elapsed, d)
			}
			ticks, disc, pct := m.frame(now)
			if fr.Ticks != ticks || fr.Discarded != disc || fr.Percent != pct || fx.Time0() != m.time0 {
				t.Fatalf("frame %d: %+v time0 %v; article loop %d %v %v %v", i, fr, fx.Time0(), ticks, disc, pct, m.time0)
			}
			if !lockstep && fr.Capped && fx.Time0() != now-cfg.Tick {
				t.Fatalf("frame %d: not back on real time", i)
			}
			if lockstep {
				if got, want := fx.TotalTicks()+owedTicks64(fr.Debt, cfg.Tick), wantTicks(fwd, cfg.Tick); got != want {
					t.Fatalf("frame %d: lockstep run+owed %d, want %d", i, got, want)
				}
			}
		}
	})
}

// FuzzFixedOps: frames of a Fixed loop on a Virtual (speed 1, no clamp)
// interleaved with every mid-run operation, pausing the Virtual included.
// Every frame keeps the invariants; an operation at the time of the last
// frame moves percentWithinTick by at most 1ns/tick (SetTick's rounding)
// and causes no burst; while paused, game time stands still and the loop
// runs no tick but the debt a lockstep loop owed, drawing at a frozen
// percentWithinTick once that is repaid.
func FuzzFixedOps(f *testing.F) {
	f.Add([]byte{0, 100, 1, 0, 2, 50, 0, 200, 3, 0, 0, 250, 4, 0, 5, 9, 6, 1, 0, 7, 7, 0})
	f.Add([]byte{0, 255, 0, 255, 1, 1, 0, 3, 6, 0, 0, 255, 5, 2})
	f.Add([]byte{6, 0, 0, 255, 3, 0, 0, 40, 0, 40, 0, 40, 0, 40, 4, 0, 0, 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := NewVirtual(VirtualConfig{MaxDelta: NoLimit}, 0)
		if err != nil {
			t.Fatal(err)
		}
		fx, err := NewFixed(FixedConfig{Tick: 40 * ms, MaxLoops: 3}, v.Now())
		if err != nil {
			t.Fatal(err)
		}
		raw := time.Duration(0)
		last := fx.Step(v.Now())
		frame := func(i int, d time.Duration) {
			before := v.Now()
			raw += d
			v.Advance(raw)
			fr := fx.Step(v.Now())
			checkFrame(t, i, fx, fr)
			if v.Paused() {
				owed := owedTicks(last.Debt, last.Tick)
				if !fx.Config().Lockstep {
					owed = 0
				}
				switch {
				case v.Now() != before:
					t.Fatalf("frame %d: paused game time moved %v", i, v.Now()-before)
				case fr.Ticks > owed:
					t.Fatalf("frame %d: %d ticks while paused, %d owed", i, fr.Ticks, owed)
				case owed == 0 && fr.Percent != last.Percent:
					t.Fatalf("frame %d: paused percent %v -> %v", i, last.Percent, fr.Percent)
				}
			}
			last = fr
		}
		for i := 0; i+1 < len(data); i += 2 {
			op, b := data[i]%8, time.Duration(data[i+1])
			if op == 0 {
				frame(i, b*b*10*time.Microsecond) // 0 to 650 ms
				continue
			}
			if op == 7 {
				frame(i, -b*ms) // the raw clock jumps back: no game time
				continue
			}
			now := v.Now()
			before := fx.Step(now)
			checkFrame(t, i, fx, before)
			owed := owedTicks(before.Debt, before.Tick)
			tol := 0.0
			switch op {
			case 1:
				d := (b + 1) * 397 * time.Microsecond
				if err := fx.SetTick(now, d); err != nil {
					t.Fatal(err)
				}
				tol = 1/float64(d) + 1e-15
			case 2:
				if err := fx.SetMaxLoops(int(b%9) + 1); err != nil {
					t.Fatal(err)
				}
			case 3:
				v.SetPaused(true)
			case 4:
				v.SetPaused(false)
			case 5:
				fx.Reset(now)
				owed = 0
			case 6:
				fx.SetLockstep(b%2 == 0)
			}
			if got := fx.Percent(); math.Abs(got-before.Percent) > tol {
				t.Fatalf("op %d: percent %v -> %v", op, before.Percent, got)
			}
			after := fx.Step(now)
			checkFrame(t, i, fx, after)
			want := 0
			if fx.Config().Lockstep {
				want = min(owed, fx.Config().MaxLoops)
			}
			if after.Ticks != want {
				t.Fatalf("op %d: %d ticks at the same now, want %d", op, after.Ticks, want)
			}
			last = after
		}
	})
}

// FuzzRateCounter: any event stream: the rate is never negative, NaN or
// infinite, and exact whenever the window's entries fit.
func FuzzRateCounter(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(time.Second), 8) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(0), 1) })
	f.Fuzz(func(t *testing.T, data []byte, window int64, capacity int) {
		r, err := NewRateCounter(time.Duration(window), capacity%64)
		if window < 0 || capacity%64 < 0 {
			if !errors.Is(err, ErrInvalid) || r != nil {
				t.Fatalf("NewRateCounter(%v, %d) = %v, %v", time.Duration(window), capacity%64, r, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		w := r.Window()
		var ts []time.Duration
		now := time.Duration(0)
		for _, d := range fuzzDeltas(data) {
			now += d
			r.Add(now, 1)
			if len(ts) > 0 && now < ts[len(ts)-1] {
				ts = append(ts, ts[len(ts)-1])
			} else {
				ts = append(ts, now)
			}
			q := ts[len(ts)-1]
			got := r.Rate(q)
			if got < 0 || math.IsNaN(got) || math.IsInf(got, 0) {
				t.Fatalf("rate %v", got)
			}
			count, entries := 0, 0
			for j, x := range ts {
				if x > subSat(q, w) {
					count++
					if j == 0 || ts[j-1] != x {
						entries++
					}
				}
			}
			if entries < len(r.ring) {
				if want := float64(count) * 1e9 / float64(w); math.Abs(got-want) > 1e-9*want {
					t.Fatalf("rate %v, want %v", got, want)
				}
			}
		}
	})
}

// FuzzVirtual: any raw schedule, speed, clamp and pauses (the frames whose
// raw move is an odd number of nanoseconds toggle the pause): deltas are
// consistent, virtual time never goes back and equals floor(clamped time
// run while not paused × speed).
func FuzzVirtual(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, 0.5, int64(0)) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, 3.0, int64(NoLimit)) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, 1.0, int64(-2)) })
	f.Fuzz(func(t *testing.T, data []byte, speed float64, maxDelta int64) {
		v, err := NewVirtual(VirtualConfig{MaxDelta: time.Duration(maxDelta)}, 0)
		if maxDelta < 0 && maxDelta != int64(NoLimit) {
			if !errors.Is(err, ErrInvalid) || v != nil {
				t.Fatalf("NewVirtual(MaxDelta %v) = %v, %v", time.Duration(maxDelta), v, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if v.SetSpeed(speed) != nil {
			speed = 1
		}
		raw, clamped := time.Duration(0), time.Duration(0)
		for _, d := range fuzzDeltas(data) {
			if d%2 != 0 {
				v.SetPaused(!v.Paused())
			}
			raw += d
			before := v.Now()
			vd := v.Advance(raw)
			if vd.Raw < 0 || vd.Clamped < 0 || vd.Cut < 0 || vd.Scaled < 0 || vd.Raw != vd.Clamped+vd.Cut || v.Now() != before+vd.Scaled {
				t.Fatalf("delta %+v", vd)
			}
			if maxDelta == int64(NoLimit) && vd.Cut != 0 || maxDelta > 0 && vd.Clamped > time.Duration(maxDelta) {
				t.Fatalf("clamp %v: %+v", time.Duration(maxDelta), vd)
			}
			if v.Paused() {
				if vd.Scaled != 0 {
					t.Fatalf("paused: %+v", vd)
				}
				continue
			}
			clamped += vd.Clamped
			if v.Now() != exactScaled(clamped, speed) {
				t.Fatalf("virtual %v, want %v", v.Now(), exactScaled(clamped, speed))
			}
			if m := v.Map(raw - d/2); m < before || m > v.Now() {
				t.Fatalf("Map out of the interval: %v not in [%v, %v]", m, before, v.Now())
			}
		}
	})
}

// FuzzSubstep: any schedule and settings (a negative minT fuzz value
// stands for NoLimit): BeautifulTimer's formulas hold and the time is
// conserved exactly.
func FuzzSubstep(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(0), int64(0), 0) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(1), int64(7*ms), 2) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(-1), int64(3*ms), 4) })
	f.Fuzz(func(t *testing.T, data []byte, minT, maxT int64, maxCycles int) {
		cfg := SubstepConfig{
			MinT:      time.Duration(uint64(minT) % uint64(50*ms)),
			MaxT:      time.Duration(uint64(maxT) % uint64(time.Second)),
			MaxCycles: int(uint(maxCycles) % 1000),
		}
		if minT < 0 {
			cfg.MinT = NoLimit
		}
		s, err := NewSubstep(cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		a := &substepAccount{cfg: s.Config()}
		now := time.Duration(0)
		for i, d := range fuzzDeltas(data) {
			now += d
			a.check(t, i, now, s.Step(now))
		}
	})
}

// FuzzTimeFactor: any schedule and settings (a negative md fuzz value
// stands for NoLimit): deltas are clamped, full updates are in [0, Max]
// and add up, and without a resync they are exactly one per FullUpdate of
// runtime.
func FuzzTimeFactor(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(0), int64(0), 0) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(5*ms), int64(time.Second), 3) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(5*ms), int64(-1), 30) })
	f.Fuzz(func(t *testing.T, data []byte, fu, md int64, maxFull int) {
		cfg := TimeFactorConfig{
			FullUpdate:     time.Duration(uint64(fu) % uint64(time.Second)),
			MaxDelta:       time.Duration(uint64(md) % uint64(10*time.Second)),
			MaxFullUpdates: int(uint(maxFull) % 100),
		}
		if md < 0 {
			cfg.MaxDelta = NoLimit
		}
		tf, err := NewTimeFactor(cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		cfg = tf.Config()
		now, resynced := time.Duration(0), false
		var sum int64
		for _, d := range fuzzDeltas(data) {
			now += d
			fr := tf.Step(now)
			sum += int64(fr.FullUpdates)
			resynced = resynced || fr.Resynced
			switch {
			case fr.RawDelta != max(0, d) || cfg.MaxDelta != NoLimit && fr.Delta != min(fr.RawDelta, cfg.MaxDelta) ||
				cfg.MaxDelta == NoLimit && fr.Delta != fr.RawDelta:
				t.Fatalf("delta %+v for a move of %v", fr, d)
			case fr.FullUpdates < 0 || fr.FullUpdates > cfg.MaxFullUpdates || fr.FullUpdateSum != sum:
				t.Fatalf("%+v", fr)
			case !resynced && fr.FullUpdateSum != int64(fr.Runtime/cfg.FullUpdate)+1:
				t.Fatalf("%d full updates after %v of runtime", fr.FullUpdateSum, fr.Runtime)
			}
		}
	})
}

// FuzzAdaptive: any cycle and draw costs (the fuzzer's moves, backwards
// included) and settings: at least one and at most MaxCycles cycles a
// frame, and every decision follows the post's rule.
func FuzzAdaptive(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(0), 0) })
	f.Fuzz(func(t *testing.T, data []byte, target int64, maxCycles int) {
		a, err := NewAdaptive(AdaptiveConfig{
			Target:    time.Duration(uint64(target) % uint64(time.Second)),
			MaxCycles: int(uint(maxCycles) % 200),
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		cfg := a.Config()
		ds := fuzzDeltas(data)
		clock := NewManualClock(0)
		for first := true; len(ds) > 0; first = false {
			cycles := 0
			for {
				more := a.NextCycle(clock.Now())
				if cycles > 0 {
					lastDraw := a.PresentAt() - cfg.Target
					rule := !first && cycles < cfg.MaxCycles && (clock.Now()-lastDraw)+a.LastCycle() < cfg.Target
					if more != rule || a.LastCycle() < 0 {
						t.Fatalf("cycle %d: NextCycle %v, rule %v", cycles, more, rule)
					}
				}
				if !more {
					break
				}
				if cycles++; len(ds) == 0 {
					break
				}
				clock.Advance(ds[0])
				ds = ds[1:]
			}
			if cycles < 1 || cycles > cfg.MaxCycles {
				t.Fatalf("%d cycles", cycles)
			}
			if w := a.PresentAt() - clock.Now(); w > 0 {
				clock.Advance(w)
			}
			a.BeginDraw(clock.Now())
			if len(ds) > 0 {
				clock.Advance(ds[0])
				ds = ds[1:]
			}
			a.EndDraw(clock.Now())
			if a.LastDraw() < 0 || a.CyclesLastFrame() != cycles {
				t.Fatalf("draw %v, %d cycles recorded", a.LastDraw(), a.CyclesLastFrame())
			}
		}
	})
}

// FuzzLimiter: any overshoots and frame work: never back before the
// deadline, at most a clock step late after spinning, deadlines exactly an
// interval apart unless rebased, and the threshold within its bounds.
func FuzzLimiter(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, int64(time.Second/60), int64(1000)) })
	f.Fuzz(func(t *testing.T, data []byte, interval, step int64) {
		iv := time.Duration(uint64(interval) % uint64(100*ms))
		s := &fakeSleeper{step: time.Duration(uint64(step)%uint64(time.Millisecond)) + time.Microsecond}
		ds := fuzzDeltas(data)
		k := 0
		s.over = func(time.Duration) time.Duration {
			if len(ds) == 0 {
				return 0
			}
			k++
			return ds[k%len(ds)] / 16
		}
		l, err := NewLimiter(iv)
		if err != nil {
			t.Fatal(err)
		}
		var prev LimiterResult
		for i, d := range ds {
			s.now += d
			r := l.Wait(s)
			if iv > 0 && i > 0 && d >= 0 {
				checkWait(t, i, s, r, prev, iv)
			}
			if th := l.SpinThreshold(); th < MinSpin || th > MaxSpin {
				t.Fatalf("threshold %v", th)
			}
			prev = r
		}
	})
}

// FuzzFixedStabilize: any frame schedule, any settings, a stabilisation
// window: every frame keeps the classic invariants, the lag stays within
// the window, no tick runs before its span has ended nor more than the
// window after, and no tick is lost or invented: the ticks run (plus those
// a lockstep loop owes) are the classic count for the forward time less
// the lag and the time discarded in solo mode.
func FuzzFixedStabilize(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, uint32(16666666), uint8(5), false, uint32(4000000)) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, uint32(40000000), uint8(1), true, uint32(10000000)) })
	f.Fuzz(func(t *testing.T, data []byte, tickNs uint32, maxLoops uint8, lockstep bool, windowNs uint32) {
		cfg := FixedConfig{
			Tick:      time.Duration(tickNs%(200*uint32(ms))) + 1,
			MaxLoops:  int(maxLoops%16) + 1,
			Lockstep:  lockstep,
			Stabilize: time.Duration(windowNs % (100 * uint32(ms))),
		}
		fx, err := NewFixed(cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		now, fwd := time.Duration(0), time.Duration(0)
		for i, d := range fuzzDeltas(data) {
			now += d
			if d > 0 {
				fwd += d
			}
			fr := fx.Step(now)
			checkFrame(t, i, fx, fr)
			if end := fx.Time0() + cfg.Tick; !fr.Capped && fr.Debt == 0 && end < now-cfg.Stabilize {
				t.Fatalf("frame %d: the tick in progress ended at %v, more than the window before %v", i, end, now)
			}
			// The tick grid moves on by the ticks run and the time
			// discarded (solo mode), nothing else.
			e := fwd - fr.Lag - fx.TotalDiscarded()
			if got, want := fx.TotalTicks()+owedTicks64(fr.Debt, cfg.Tick), wantTicks(e, cfg.Tick); got != want {
				t.Fatalf("frame %d: run+owed %d, want %d for the forward time %v less the lag %v and the discards %v",
					i, got, want, fwd, fr.Lag, fx.TotalDiscarded())
			}
		}
	})
}

// FuzzPacer: any times, any hint: Time is never after Now, never half an
// interval or more before it while snapped (away from the ends of
// time.Duration), equal to Now when not snapped, and never goes back
// while the clock does not.
func FuzzPacer(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, uint32(16666667), false) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, uint32(0), true) })
	f.Fuzz(func(t *testing.T, data []byte, hintNs uint32, vsyncOff bool) {
		p, err := NewPacer(PacerConfig{Refresh: time.Duration(hintNs), NoVsync: vsyncOff})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Duration(0)
		var last PacedFrame
		for i, d := range fuzzDeltas(data) {
			now += d
			fr := p.Step(now)
			checkPaced(t, i, fr)
			if i > 0 && d >= 0 && fr.Time < last.Time {
				t.Fatalf("frame %d: Time went back from %v to %v while the clock went forward", i, last.Time, fr.Time)
			}
			if vsyncOff && fr.Time != now {
				t.Fatalf("frame %d: vsync off, Time %v != now %v", i, fr.Time, now)
			}
			last = fr
		}
	})
}

// FuzzPacerSettings is FuzzPacer with the settings changed between
// frames: before frame i, bit i%64 of ops set, a new hint (SetRefresh) on
// even frames, vsync toggled on odd ones. The same properties hold
// throughout, and with vsync off Time is Now.
func FuzzPacerSettings(f *testing.F) {
	fuzzCorpus(f, func(d []byte) { f.Add(d, uint32(16666667), uint64(0x0102040810204080)) })
	fuzzCorpus(f, func(d []byte) { f.Add(d, uint32(10000000), ^uint64(0)) })
	f.Fuzz(func(t *testing.T, data []byte, hintNs uint32, ops uint64) {
		var p Pacer
		vsync := true
		now := time.Duration(0)
		var last PacedFrame
		for i, d := range fuzzDeltas(data) {
			if ops&(1<<(i%64)) != 0 {
				if i%2 == 0 {
					if err := p.SetRefresh(time.Duration(hintNs)); err != nil {
						t.Fatal(err)
					}
				} else {
					vsync = !vsync
					p.SetVsync(vsync)
				}
			}
			now += d
			fr := p.Step(now)
			checkPaced(t, i, fr)
			if i > 0 && d >= 0 && fr.Time < last.Time {
				t.Fatalf("frame %d: Time went back from %v to %v while the clock went forward", i, last.Time, fr.Time)
			}
			if !vsync && fr.Time != now {
				t.Fatalf("frame %d: vsync off, Time %v != now %v", i, fr.Time, now)
			}
			last = fr
		}
	})
}
