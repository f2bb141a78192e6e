package sim

import "github.com/interpdemo/interpdemo/input"

// botBlock is the length of the blocks a bot's time is cut into: each
// block holds two directions, split at a point chosen by the seed, so a
// direction is held from 1 to 7 ticks (longer when the next segment draws
// the same one).
const botBlock = 8

// BotInput returns the input record of tick for a bot player keyed by seed
// that starts playing at tick start (pass the input delay: the records
// before it are zero in a Session). It is a pure function of its
// arguments, so every peer can compute any player's bot input, and a test
// knows the ground truth.
//
// The bot holds a direction (none, one or two of Left, Right, Up, Down,
// never two opposite ones) for a few ticks at a time. Its records are those
// an input.Sampler makes of a keyboard on which each change of direction
// happens exactly at a tick boundary: the buttons of the new direction are
// pressed at the start of the tick's span (Pressed of that tick), the
// buttons given up are released at the end of the last tick that holds
// them (Released of that tick, and no longer Held), and Record.Down(prev)
// of every tick is exactly the direction the bot holds in it.
func BotInput(seed, start, tick uint64) input.Record {
	d := botDir(seed, start, tick)
	var prev input.Buttons
	if tick > 0 {
		prev = botDir(seed, start, tick-1)
	}
	next := botDir(seed, start, tick+1)
	return input.Record{Held: d & next, Pressed: d &^ prev, Released: d &^ next}
}

// botDir is the set of buttons the bot holds during tick t.
func botDir(seed, start, t uint64) input.Buttons {
	if t < start {
		return 0
	}
	u := t - start
	h := mix64(seed ^ mix64(u/botBlock))
	cut := 1 + h%(botBlock-1) // 1..7
	half := uint64(0)
	if u%botBlock >= cut {
		half = 1
	}
	x := mix64(h ^ half)
	var b input.Buttons
	switch (x >> 8) % 3 {
	case 1:
		b = b.With(input.Left)
	case 2:
		b = b.With(input.Right)
	}
	switch (x >> 24) % 3 {
	case 1:
		b = b.With(input.Up)
	case 2:
		b = b.With(input.Down)
	}
	return b
}

// mix64 is the splitmix64 finalizer: a bijective scramble of 64 bits.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
