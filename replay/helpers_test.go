package replay

import (
	"encoding/binary"
	"hash/crc32"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// script is a recording written out tick by tick, the plain way: the
// record of every tick, and the commands in order with the tick count they
// follow. Tests build a script, feed it to a Recorder, and compare what a
// Player gives back against the script.
type script struct {
	settings Settings
	ticks    []input.Record
	cmds     []TimedCommand
}

// randomScript returns a script of up to maxTicks ticks whose input changes
// now and then (sometimes every tick, sometimes not for hundreds), with
// commands before the first tick, in the middle and after the last.
func randomScript(rng *rand.Rand, maxTicks int) script {
	sc := script{settings: randomSettings(rng)}
	n := rng.IntN(maxTicks + 1)
	var cur input.Record
	for len(sc.ticks) < n {
		switch rng.IntN(4) {
		case 0:
			cur = input.Record{}
		case 1:
			cur = input.Record{
				Held:     input.Buttons(rng.Uint32() & 0xF),
				Pressed:  input.Buttons(rng.Uint32() & 0xF),
				Released: input.Buttons(rng.Uint32() & 0xF),
			}
		case 2:
			cur = input.Record{Held: input.Buttons(rng.Uint32()), Pressed: input.Buttons(rng.Uint32())}
		}
		for k := 1 + rng.IntN(300); k > 0 && len(sc.ticks) < n; k-- {
			sc.ticks = append(sc.ticks, cur)
		}
	}
	for i := rng.IntN(8); i > 0; i-- {
		at := uint64(0)
		if n > 0 {
			at = uint64(rng.IntN(n + 1))
		}
		if rng.IntN(4) == 0 {
			at = uint64(n) // after the last tick
		}
		sc.cmds = append(sc.cmds, TimedCommand{At: at, Command: randomCommand(rng)})
	}
	// Stable sort by At keeps the order of commands at the same tick.
	for i := 1; i < len(sc.cmds); i++ {
		for j := i; j > 0 && sc.cmds[j].At < sc.cmds[j-1].At; j-- {
			sc.cmds[j], sc.cmds[j-1] = sc.cmds[j-1], sc.cmds[j]
		}
	}
	return sc
}

func randomSettings(rng *rand.Rand) Settings {
	return Settings{
		Seed:     rng.Uint64() >> rng.IntN(64),
		Balls:    rng.Uint32() >> rng.IntN(32),
		Width:    int32(rng.Uint32()) >> rng.IntN(32),
		Height:   int32(rng.Uint32()) >> rng.IntN(32),
		Radius:   int32(rng.Uint32()) >> rng.IntN(32),
		Speed:    int32(rng.Uint32()) >> rng.IntN(32),
		Tick:     time.Duration(int64(rng.Uint64()) >> rng.IntN(64)),
		MaxLoops: rng.Uint32() >> rng.IntN(32),
		Lockstep: rng.IntN(2) == 0,
	}
}

func randomCommand(rng *rand.Rand) Command {
	switch rng.IntN(3) {
	case 0:
		return Command{Kind: CmdReset}
	case 1:
		return Command{Kind: CmdSetBalls, Arg: rng.Int64N(1 << 20)}
	}
	return Command{Kind: CmdSetTick, Arg: int64(rng.Uint64()) >> rng.IntN(64)}
}

// toyWorld is a tiny deterministic simulation standing in for package
// physics: a player position moved by the input, a ball count and a tick
// length set by commands, and a tick counter. Its hash is FNV-64a of its
// fields.
type toyWorld struct {
	x, y, balls, tickNs, steps int64
	hashes                     int // calls to hash, to check they are rare
}

func newToyWorld(s Settings) *toyWorld {
	return &toyWorld{balls: int64(s.Balls), tickNs: int64(s.Tick)}
}

func (w *toyWorld) step(down input.Buttons) {
	w.x += 16 * int64(input.Axis(down, input.Left, input.Right))
	w.y += 16 * int64(input.Axis(down, input.Up, input.Down))
	w.steps++
}

func (w *toyWorld) apply(c Command) {
	switch c.Kind {
	case CmdReset:
		w.x, w.y = 0, 0
	case CmdSetBalls:
		w.balls = c.Arg
	case CmdSetTick:
		w.tickNs = c.Arg
	}
}

func (w *toyWorld) hash() uint64 {
	w.hashes++
	h := fnv.New64a()
	var b [8]byte
	for _, v := range []int64{w.x, w.y, w.balls, w.tickNs, w.steps} {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	return h.Sum64()
}

// record plays sc through a Recorder and a toyWorld, the way the game
// does: commands, then the tick, then Recorder.Tick.
func (sc script) record(every uint32) (*Recording, *toyWorld) {
	w := newToyWorld(sc.settings)
	r := NewRecorder(sc.settings, every)
	var prev input.Record
	ci := 0
	for i := 0; i <= len(sc.ticks); i++ {
		for ; ci < len(sc.cmds) && sc.cmds[ci].At == uint64(i); ci++ {
			w.apply(sc.cmds[ci].Command)
			r.Command(sc.cmds[ci].Command)
		}
		if i == len(sc.ticks) {
			break
		}
		in := sc.ticks[i]
		w.step(in.Down(prev))
		prev = in
		r.Tick(in, w.hash)
	}
	return r.Finish(w.hash()), w
}

// replayToy replays rec on a fresh toyWorld, breaking the world with
// fault (if not nil) before every tick, and returns the first error.
func replayToy(rec *Recording, fault func(w *toyWorld)) error {
	w := newToyWorld(rec.Settings)
	p := rec.Player()
	prev := p.Initial()
	for {
		cmds, in, ok := p.Next()
		for _, c := range cmds {
			w.apply(c)
		}
		if !ok {
			break
		}
		if fault != nil {
			fault(w)
		}
		w.step(in.Down(prev))
		prev = in
		if err := p.Check(w.hash); err != nil {
			return err
		}
	}
	return p.CheckFinal(w.hash())
}

// wrap builds a file around payload with a correct header and checksum,
// so that tests can reach the payload parser with any bytes.
func wrap(payload []byte) []byte {
	b := []byte("IDRP\x01")
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// payloadOf returns the payload of an encoded recording.
func payloadOf(b []byte) []byte { return b[9 : len(b)-4] }
