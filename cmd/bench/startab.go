package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
)

// startupAgainst measures the start-up of o.bin and of other, another
// build of the demo, in turn, rounds times, and prints both medians and
// the median of the rounds' differences with its quartiles. A change of
// a few milliseconds is lost in this machine's swing between runs of
// the same build (tens of ms from one hour to the next on this
// project's machine): builds run in turn see the same hour, and the
// median of their rounds' differences shows what the medians of
// separate runs cannot.
func startupAgainst(o *options, other string, rounds int, p func(string, ...any)) error {
	ob := *o
	ob.bin = other
	var a, b, d []float64
	for range rounds {
		sa, err := startupRun(o)
		if err != nil {
			return err
		}
		sb, err := startupRun(&ob)
		if err != nil {
			return err
		}
		a, b, d = append(a, sa), append(b, sb), append(d, sa-sb)
	}
	q1, q2, q3 := quartiles(d)
	p("start-up, %d rounds of the two builds in turn: %s median %.1f ms (%.1f to %.1f), %s median %.1f ms (%.1f to %.1f); the rounds' differences (%s minus %s): median %+.1f ms, quartiles %+.1f and %+.1f\n",
		rounds, o.bin, median(a), slices.Min(a), slices.Max(a), other, median(b), slices.Min(b), slices.Max(b), o.bin, other, q2, q1, q3)
	return nil
}

// startupRun is one run of the demo's start-up, as target 8 measures it
// (startup): the defaults a user gets, HUD and graph on.
func startupRun(o *options) (float64, error) {
	s, err := demo(o, "-ticks", "1", "-fast", "-hud=true", "-graph=true")
	if err != nil {
		return 0, err
	}
	return s.StartupMs, nil
}

// checkStartupAgainst validates -startup-against and -startup-rounds.
func checkStartupAgainst(other string, rounds int) error {
	if rounds < 2 {
		return fmt.Errorf("-startup-rounds %d: at least 2 rounds, for quartiles", rounds)
	}
	if _, err := os.Stat(other); err != nil {
		return fmt.Errorf("-startup-against: %v", err)
	}
	return nil
}

// quartiles of xs, interpolated between the nearest ranks (the median
// is the second); zeros for none.
func quartiles(xs []float64) (q1, q2, q3 float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	at := func(q float64) float64 {
		pos := q * float64(len(s)-1)
		i := int(math.Floor(pos))
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (pos-float64(i))*(s[i+1]-s[i])
	}
	return at(0.25), at(0.5), at(0.75)
}
