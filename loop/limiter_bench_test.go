package loop

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkLimiter measures, on the real clock, how precisely a 60 FPS
// frame cap wakes and what it costs in CPU: the Limiter (sleep, then spin
// the learned last stretch) beside a plain time.Sleep to the same
// deadlines. Per wait it reports the p50 and p99 of |interval error| (the
// gap between two wake-ups minus 16.667 ms) in ms, and the CPU time of the
// process per wait (user+sys, where the platform reports it) as a share of
// the interval. Each op is one 16.7 ms wait: run it with
// -benchtime=600x (10 s per variant) for a meaningful p99.
func BenchmarkLimiter(b *testing.B) {
	const interval = time.Second / 60
	clock := NewRealClock()
	b.Run("limiter", func(b *testing.B) {
		l, _ := NewLimiter(interval)
		for i := 0; i < 30; i++ { // learn the sleeper first
			l.Wait(clock)
		}
		measureWaits(b, interval, func() time.Duration { return l.Wait(clock).Woke })
	})
	b.Run("time.Sleep", func(b *testing.B) {
		deadline := clock.Now()
		measureWaits(b, interval, func() time.Duration {
			deadline += interval
			now := clock.Now()
			if now-deadline > interval {
				deadline = now
			}
			time.Sleep(deadline - now)
			return clock.Now()
		})
	})
}

func measureWaits(b *testing.B, interval time.Duration, wait func() time.Duration) {
	errs := make([]float64, 0, b.N)
	b.ReportAllocs()
	cpu0, cpuOK := cpuTime()
	b.ResetTimer()
	prev := wait()
	for i := 0; i < b.N; i++ {
		woke := wait()
		e := woke - prev - interval
		errs = append(errs, float64(max(e, -e))/1e6)
		prev = woke
	}
	b.StopTimer()
	cpu1, _ := cpuTime()
	slices.Sort(errs)
	b.ReportMetric(errs[len(errs)/2], "p50-err-ms")
	b.ReportMetric(errs[min(len(errs)-1, len(errs)*99/100)], "p99-err-ms")
	if cpuOK {
		per := float64(cpu1-cpu0) / float64(b.N+1)
		b.ReportMetric(per/1e6, "cpu-ms/wait")
		b.ReportMetric(100*per/float64(interval), "cpu-%")
	}
}
