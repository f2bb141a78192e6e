package physics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// The state as bytes: what a world sends a spectator who joins a game in
// progress (it builds the same world from the same settings, then takes
// the state), little-endian:
//
//	offset size field
//	0      1    version, 1
//	1      4    width, height, radius, speed (i32 each, 16 bytes)
//	17     8    tick (ns)
//	25     8    seed
//	33     8    ticks run
//	41     8    steps run
//	49     8    step remainder
//	57     1    players (bit i: ball i is player-controlled)
//	58     4    balls n
//	62     24n  per ball: last x, last y, next x, next y, dir x, dir y (i32 each)
const (
	stateVersion    = 1
	stateHeaderSize = 62
	// StateBytesPerBall is the size of one ball in AppendState's bytes.
	StateBytesPerBall = 24
)

// StateSize is the size of AppendState's bytes for a world of n balls.
func StateSize(n int) int { return stateHeaderSize + StateBytesPerBall*n }

// ErrState is wrapped by SetState's errors: the bytes are not a state
// this package wrote, or not one of a valid world.
var ErrState = errors.New("physics: bad state")

// AppendState appends the world's whole state to dst: with the same
// configuration it is all SetState needs to make a world that hashes,
// ticks and draws the same.
func (w *World) AppendState(dst []byte) []byte {
	le := binary.LittleEndian
	dst = append(dst, stateVersion)
	for _, v := range []int32{w.cfg.Width, w.cfg.Height, w.cfg.Radius, w.cfg.Speed} {
		dst = le.AppendUint32(dst, uint32(v))
	}
	dst = le.AppendUint64(dst, uint64(w.cfg.Tick))
	dst = le.AppendUint64(dst, w.cfg.Seed)
	dst = le.AppendUint64(dst, w.ticks)
	dst = le.AppendUint64(dst, w.steps)
	dst = le.AppendUint64(dst, w.stepRem)
	dst = append(dst, w.players)
	n := w.N()
	dst = le.AppendUint32(dst, uint32(n))
	for i := range n {
		for _, v := range [6]int32{w.Last[2*i], w.Last[2*i+1], w.Next[2*i], w.Next[2*i+1], w.Dir[2*i], w.Dir[2*i+1]} {
			dst = le.AppendUint32(dst, uint32(v))
		}
	}
	return dst
}

// SetState puts the world in the state AppendState wrote. The state's
// size, tick, seed and speed must be the world's own (a spectator makes
// its world from the same settings), every position must lie in the
// world's box and every direction within [-DirOne, DirOne]; otherwise it
// returns an error wrapping ErrState and leaves the world as it was. It
// never allocates more than the ball count the bytes' length can hold.
func (w *World) SetState(b []byte) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrState}, args...)...)
	}
	if len(b) < stateHeaderSize || b[0] != stateVersion {
		return bad("%d bytes, version %d", len(b), firstByte(b))
	}
	le := binary.LittleEndian
	i32 := func(off int) int32 { return int32(le.Uint32(b[off:])) }
	if i32(1) != w.cfg.Width || i32(5) != w.cfg.Height || i32(9) != w.cfg.Radius || i32(13) != w.cfg.Speed ||
		time.Duration(le.Uint64(b[17:])) != w.cfg.Tick || le.Uint64(b[25:]) != w.cfg.Seed {
		return bad("another world's state (size, radius, speed, tick or seed differ)")
	}
	n := int(le.Uint32(b[58:]))
	if n > MaxBalls || len(b) != StateSize(n) {
		return bad("%d balls in %d bytes", n, len(b))
	}
	body := b[stateHeaderSize:]
	for i := range n {
		x := body[StateBytesPerBall*i:]
		for c := range 2 {
			lo, span := w.loX, w.spanX
			if c == 1 {
				lo, span = w.loY, w.spanY
			}
			for _, p := range [2]int32{int32(le.Uint32(x[4*c:])), int32(le.Uint32(x[8+4*c:]))} {
				if p < lo || p > lo+span {
					return bad("ball %d outside the world", i)
				}
			}
			if d := int32(le.Uint32(x[16+4*c:])); d < -DirOne || d > DirOne {
				return bad("ball %d's direction out of range", i)
			}
		}
	}
	if le.Uint64(b[49:]) >= uint64(time.Second) {
		return bad("step remainder out of range")
	}
	w.resize(n)
	for i := range n {
		x := body[StateBytesPerBall*i:]
		w.Last[2*i], w.Last[2*i+1] = int32(le.Uint32(x[0:])), int32(le.Uint32(x[4:]))
		w.Next[2*i], w.Next[2*i+1] = int32(le.Uint32(x[8:])), int32(le.Uint32(x[12:]))
		w.Dir[2*i], w.Dir[2*i+1] = int32(le.Uint32(x[16:])), int32(le.Uint32(x[20:]))
	}
	w.ticks, w.steps, w.stepRem = le.Uint64(b[33:]), le.Uint64(b[41:]), le.Uint64(b[49:])
	w.players = b[57]
	w.moved++
	return nil
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}

// StateView is a world's state bytes (AppendState's) as named fields:
// what a report of where two peers' states differ shows ("Balls[12].X:
// 1033 vs 1034").
type StateView struct {
	Ticks, Steps, StepRemainder uint64
	Players                     uint8 // bit i: ball i is player-controlled
	Balls                       []BallView
}

// BallView is one ball in a StateView: where it is (X, Y), where it was
// a tick before (LastX, LastY), and its direction.
type BallView struct {
	X, Y, LastX, LastY, DirX, DirY int32
}

// ViewState reads AppendState's bytes as a StateView, without checking
// them against a world (a peer's bytes may be another world's).
func ViewState(b []byte) (StateView, error) {
	le := binary.LittleEndian
	if len(b) < stateHeaderSize || b[0] != stateVersion {
		return StateView{}, fmt.Errorf("%w: %d bytes, version %d", ErrState, len(b), firstByte(b))
	}
	n := int(le.Uint32(b[58:]))
	if n > MaxBalls || len(b) != StateSize(n) {
		return StateView{}, fmt.Errorf("%w: %d balls in %d bytes", ErrState, n, len(b))
	}
	v := StateView{Ticks: le.Uint64(b[33:]), Steps: le.Uint64(b[41:]), StepRemainder: le.Uint64(b[49:]), Players: b[57],
		Balls: make([]BallView, n)}
	body := b[stateHeaderSize:]
	for i := range v.Balls {
		x := body[StateBytesPerBall*i:]
		f := func(off int) int32 { return int32(le.Uint32(x[off:])) }
		v.Balls[i] = BallView{LastX: f(0), LastY: f(4), X: f(8), Y: f(12), DirX: f(16), DirY: f(20)}
	}
	return v, nil
}
