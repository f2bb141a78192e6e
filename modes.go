package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/internal/hud"
	"github.com/interpdemo/interpdemo/physics"
)

// logic runs the frame's share of the simulation in the current timing
// mode and says what it did.
func (a *app) logic(now time.Duration) frameInfo {
	a.applyCommands()
	switch a.mode {
	case modeSubstep:
		return a.logicSubstep()
	case modeTimeFactor:
		return a.logicTimeFactor()
	case modeAdaptive:
		return a.logicAdaptive(now)
	case modeVariable:
		return a.logicVariable()
	}
	return a.logicFixed()
}

// logicFixed is the classic loop: up to MaxLoops fixed ticks, each with
// the input of its own span of time.
func (a *app) logicFixed() frameInfo {
	vnow := a.virt.Now()
	if a.cfg.fast && !a.paused {
		// Not real time: every frame owes exactly MaxLoops ticks.
		a.fastNow += time.Duration(a.cfg.maxLoops) * a.world.Config().Tick
		vnow = a.fastNow
	}
	plan := a.fixed.Step(vnow)
	ran := 0
	for ; ran < plan.Ticks && !a.tickLimitReached(); ran++ {
		var rec input.Record
		if a.rep != nil {
			var ok bool
			if rec, ok = a.rep.next(a); !ok {
				break
			}
		} else {
			rec = a.sampler.Tick(plan.TickEnd(ran))
		}
		a.tick(rec)
	}
	a.tickLimitReached()
	a.modeLine = a.modeLine[:0]
	return frameInfo{ticks: ran, percent: plan.Percent, discarded: plan.Discarded, capped: plan.Capped}
}

// tickLimitReached ends the run once -ticks ticks have run.
func (a *app) tickLimitReached() bool {
	if a.cfg.ticks > 0 && a.st.ticks >= a.cfg.ticks {
		a.quit = true
		return true
	}
	return false
}

// tick is one fixed logic tick with its input record.
func (a *app) tick(rec input.Record) {
	t0 := a.clock.Now() // ms per physics tick, for -stats (25 reads a second)
	a.world.Tick(control(rec, a.prevRec))
	a.st.logic.Add(a.clock.Now() - t0)
	a.prevRec = rec
	a.st.ticks++
	a.busy(a.logicLoad)
	if a.rec != nil {
		a.rec.tick(rec)
	}
	if a.rep != nil {
		a.rep.check(a)
	}
}

// control is the player's input for a tick: every direction key that was
// down at any moment of the tick's span.
func control(rec, prev input.Record) physics.Control {
	down := rec.Down(prev)
	return physics.Control{
		X: input.Axis(down, input.Left, input.Right),
		Y: input.Axis(down, input.Up, input.Down),
	}
}

// step is one variable step of the modes that do not use fixed ticks, with
// the input that arrived up to now as its record. A step of no time (paused,
// or a clock that stood still) is skipped: nothing moves, nothing uploads.
func (a *app) step(dt time.Duration) {
	if dt <= 0 {
		return
	}
	rec := a.sampler.Tick(a.virt.Now() + 1)
	a.world.Step(dt, control(rec, a.prevRec))
	a.prevRec = rec
}

// logicSubstep is seed 001's BeautifulTimer: the frame's time cut into
// 1 + floor(T/MaxT) equal sub-steps, at most MaxCycles.
func (a *app) logicSubstep() frameInfo {
	// MinT, "never faster than 1/MinT", is a frame cap on real time: the
	// limiter keeps it (applyPacing), so slow motion keeps the frame rate
	// and gets smaller steps. The Substep itself runs with no minimum on
	// game time, and only waits (no cycles) while the game is paused.
	f := a.sub.Step(a.virt.Now())
	for i := 0; i < f.Cycles; i++ {
		a.step(f.CycleT)
		a.busy(a.logicLoad)
	}
	b := append(a.modeLine[:0], "substep: "...)
	b = strconv.AppendInt(b, int64(f.Cycles), 10)
	b = append(b, " cycles of "...)
	b = hud.AppendMs(b, f.CycleT)
	b = append(b, ", T "...)
	b = hud.AppendMs(b, f.T)
	b = append(b, ", dropped "...)
	b = hud.AppendMs(b, f.Dropped)
	a.modeLine = b
	return frameInfo{ticks: f.Cycles, percent: 1, discarded: f.Dropped, capped: f.Dropped > 0}
}

// logicTimeFactor is seed 000: continuous motion scaled by the frame's
// clamped delta (timeFactor), and an integer count of discrete full
// updates (50 per second) for what cannot be scaled.
func (a *app) logicTimeFactor() frameInfo {
	f := a.tf.Step(a.virt.Now())
	a.step(f.Delta)
	for i := 0; i < f.FullUpdates; i++ {
		a.busy(a.logicLoad) // the logic load is per discrete update
	}
	b := append(a.modeLine[:0], "timefactor "...)
	b = strconv.AppendFloat(b, f.TimeFactor, 'f', 2, 64)
	b = append(b, ", full updates "...)
	b = strconv.AppendInt(b, int64(f.FullUpdates), 10)
	b = append(b, " (sum "...)
	b = strconv.AppendInt(b, f.FullUpdateSum, 10)
	b = append(b, ", runtime "...)
	b = strconv.AppendFloat(b, f.Runtime.Seconds(), 'f', 1, 64)
	b = append(b, " s)"...)
	a.modeLine = b
	return frameInfo{ticks: f.FullUpdates, percent: 1, discarded: f.RawDelta - f.Delta, capped: f.Resynced}
}

// logicAdaptive is seed 004's split: as many variable logic cycles as fit
// before the next present.
func (a *app) logicAdaptive(now time.Duration) frameInfo {
	n := 0
	d := a.vdelta.Scaled // the first cycle covers the time since the last frame's
	for a.adapt.NextCycle(now) {
		if n > 0 {
			d = a.virt.Advance(now).Scaled
		}
		a.step(d)
		a.busy(a.logicLoad)
		n++
		now = a.clock.Now()
	}
	b := append(a.modeLine[:0], "adaptive: "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " cycles, last cycle "...)
	b = hud.AppendMs(b, a.adapt.LastCycle())
	b = append(b, ", last draw "...)
	b = hud.AppendMs(b, a.adapt.LastDraw())
	b = append(b, ", target "...)
	b = hud.AppendMs(b, a.adapt.Config().Target)
	a.modeLine = b
	return frameInfo{ticks: n, percent: 1}
}

// logicVariable is the plain variable time step: one step per frame of the
// frame's delta, clamped to 100 ms so a stall slows the game instead of
// making things jump.
func (a *app) logicVariable() frameInfo {
	d := a.vdelta.Scaled
	a.step(d)
	a.busy(a.logicLoad)
	b := append(a.modeLine[:0], "variable: dt "...)
	b = hud.AppendMs(b, d)
	a.modeLine = b
	return frameInfo{ticks: 1, percent: 1}
}

// applyCommands carries out the world commands queued by the keys (or, in
// a replay, none: the recording brings its own at the right ticks).
func (a *app) applyCommands() {
	for _, c := range a.cmds {
		a.exec(c)
		if a.rec != nil {
			a.rec.command(c)
		}
	}
	a.cmds = a.cmds[:0]
}

// checkCommand refuses a command the world cannot carry out (only a
// replay file can hold one).
func (a *app) checkCommand(c command) error {
	switch c.kind {
	case cmdReset:
	case cmdSetBalls:
		if c.arg < 0 || c.arg > physics.MaxBalls {
			return fmt.Errorf("command sets %d balls", c.arg)
		}
	case cmdSetTick:
		if d := time.Duration(c.arg); d < time.Millisecond || d > 10*time.Second {
			return fmt.Errorf("command sets the tick to %v", d)
		}
	default:
		return fmt.Errorf("unknown command %d", c.kind)
	}
	return nil
}

// exec applies one command to the world and the loop.
func (a *app) exec(c command) {
	switch c.kind {
	case cmdReset:
		a.world.Reset()
	case cmdSetBalls:
		a.world.SetBalls(int(c.arg)) // validated when queued or decoded
	case cmdSetTick:
		d := time.Duration(c.arg)
		a.world.SetTick(d)
		if a.fixed != nil {
			a.fixed.SetTick(a.virt.Now(), d)
		}
	}
}
