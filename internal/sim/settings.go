package sim

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/physics"
	"github.com/interpdemo/interpdemo/replay"
)

// Settings are the world's and the fixed loop's settings: what a
// recording stores and what every peer of a network game must share.
type Settings = replay.Settings

// Bounds of the settings the demo runs.
const (
	MinTick, MaxTick = time.Millisecond, 10 * time.Second
	MaxMaxLoops      = 1000
	MaxRadius        = 200
)

// DefaultSettings is the original demo: one ball in a 640x480 world,
// moving 400 units a second (16 units per 40 ms tick), at most 5 ticks a
// frame.
func DefaultSettings() Settings {
	return Settings{
		Seed: 1, Balls: 1,
		Width: physics.DefaultWidth, Height: physics.DefaultHeight, Radius: 8, Speed: 400,
		Tick: 40 * time.Millisecond, MaxLoops: 5,
	}
}

// SettingError is a setting out of range. Name is the flag that sets it.
type SettingError struct {
	Name string
	Msg  string
}

func (e *SettingError) Error() string { return "-" + e.Name + ": " + e.Msg }

func settingErr(name, format string, args ...any) error {
	return &SettingError{Name: name, Msg: fmt.Sprintf(format, args...)}
}

// CheckSettings checks settings by the same rules whether they come from
// the flags, a recording (a file can claim anything its format allows) or
// a network host.
func CheckSettings(s Settings) error {
	switch {
	case s.Tick <= 0:
		return settingErr("tick", "must be positive (got %v)", s.Tick)
	case s.Tick < MinTick || s.Tick > MaxTick:
		return settingErr("tick", "must be between %v and %v (got %v)", MinTick, MaxTick, s.Tick)
	case s.MaxLoops < 1 || s.MaxLoops > MaxMaxLoops:
		return settingErr("max-loops", "must be between 1 and %d (got %d)", MaxMaxLoops, s.MaxLoops)
	case s.Balls > physics.MaxBalls:
		return settingErr("balls", "must be between 0 and %d (got %d)", physics.MaxBalls, s.Balls)
	case s.Radius < 1 || s.Radius > MaxRadius:
		return settingErr("radius", "must be between 1 and %d units (got %d)", MaxRadius, s.Radius)
	}
	if err := physicsConfig(s, 0).Validate(); err != nil {
		if d := DefaultSettings(); s.Width == d.Width && s.Height == d.Height && s.Speed == d.Speed {
			return settingErr("radius", "%v", err) // the one of them a flag sets
		}
		return err // a recording's world: the error names the field
	}
	return nil
}

// physicsConfig is the world the settings describe, with n balls.
func physicsConfig(s Settings, n int) physics.Config {
	return physics.Config{
		Width: s.Width, Height: s.Height, Radius: s.Radius, Speed: s.Speed,
		Tick: s.Tick, Balls: n, Seed: s.Seed,
	}
}

// newWorld makes the world the settings describe. (physics.Config takes 0
// balls to mean its default, one ball; an empty world is asked for.)
func newWorld(s Settings) (*physics.World, error) {
	w, err := physics.New(physicsConfig(s, int(s.Balls)))
	if err == nil && s.Balls == 0 {
		err = w.SetBalls(0)
	}
	return w, err
}
