package loop

import (
	"testing"
	"time"
)

var sinkDuration time.Duration
var sinkFloat float64

// frameTime is a jittery 60 FPS frame time without a generator in the
// loop: 16.67 ms +- a few hundred microseconds.
func frameTime(i int) time.Duration { return 16666667 + time.Duration(i&7-3)*100*time.Microsecond }

// BenchmarkFrame measures one frame decision of each strategy, beside one
// read of the real clock, which every frame pays anyway.
func BenchmarkFrame(b *testing.B) {
	b.Run("clock=RealClock.Now", func(b *testing.B) {
		c := NewRealClock()
		b.ReportAllocs()
		for b.Loop() {
			sinkDuration += c.Now()
		}
	})
	b.Run("clock=time.Now", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkDuration += time.Duration(time.Now().UnixNano())
		}
	})
	b.Run("Fixed.Step", func(b *testing.B) {
		f, _ := NewFixed(FixedConfig{}, 0)
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			fr := f.Step(now)
			sinkFloat += fr.Percent
		}
	})
	b.Run("Fixed.Step/stabilized", func(b *testing.B) {
		f, _ := NewFixed(FixedConfig{Tick: time.Second / 60, Stabilize: 4 * time.Millisecond}, 0)
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			fr := f.Step(now)
			sinkFloat += fr.Percent
		}
	})
	b.Run("Pacer.Step", func(b *testing.B) {
		p, _ := NewPacer(PacerConfig{Refresh: time.Second / 60})
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			sinkDuration += p.Step(now).Time
		}
	})
	b.Run("Driver.Frame", func(b *testing.B) {
		c := NewManualClock(0)
		d := &Driver{Clock: c, Loop: mustFixed(b, FixedConfig{}, 0), Game: &nopGame{}}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			c.Advance(frameTime(i))
			_, _ = d.Frame()
		}
	})
	b.Run("Virtual.Advance", func(b *testing.B) {
		v, _ := NewVirtual(VirtualConfig{}, 0)
		_ = v.SetSpeed(0.5)
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			sinkDuration += v.Advance(now).Scaled
		}
	})
	b.Run("Substep.Step", func(b *testing.B) {
		s, _ := NewSubstep(SubstepConfig{}, 0)
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			sinkDuration += s.Step(now).CycleT
		}
	})
	b.Run("TimeFactor.Step", func(b *testing.B) {
		tf, _ := NewTimeFactor(TimeFactorConfig{}, 0)
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			sinkFloat += tf.Step(now).TimeFactor
		}
	})
	b.Run("Adaptive.frame", func(b *testing.B) {
		// One frame: 3 cycles of 5 ms, a 5 ms draw, pacing at 25 ms.
		a, _ := NewAdaptive(AdaptiveConfig{}, 0)
		now := time.Duration(0)
		b.ReportAllocs()
		for b.Loop() {
			for a.NextCycle(now) {
				now += 5 * ms
			}
			now = max(now, a.PresentAt())
			a.BeginDraw(now)
			now += 5 * ms
			a.EndDraw(now)
		}
	})
	b.Run("Limiter.Wait/manual", func(b *testing.B) {
		c := NewManualClock(0)
		l, _ := NewLimiter(time.Second / 60)
		b.ReportAllocs()
		for b.Loop() {
			c.Advance(3 * ms)
			sinkDuration += l.Wait(c).Woke
		}
	})
	b.Run("RateCounter.Add+Rate", func(b *testing.B) {
		r, _ := NewRateCounter(time.Second, 1024)
		now := time.Duration(0)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			now += frameTime(i)
			r.Add(now, 1)
			sinkFloat += r.Rate(now)
		}
	})
}
