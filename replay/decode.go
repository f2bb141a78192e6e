package replay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// Decode parses a recording. It checks the magic, version, length and
// checksum before it looks at the contents, and every count against the
// bytes left, so that no length field can make it allocate more than a
// small multiple of len(b). The error is one line naming the problem.
//
// Decode accepts exactly the bytes AppendBinary produces: varints must be
// minimal and runs maximal, so a decoded recording encodes back to the same
// bytes.
func Decode(b []byte) (*Recording, error) {
	rec, err := decode(b)
	if err != nil {
		return nil, errors.New("replay: " + err.Error())
	}
	return rec, nil
}

// UnmarshalBinary decodes b into rec (encoding.BinaryUnmarshaler).
func (rec *Recording) UnmarshalBinary(b []byte) error {
	r, err := Decode(b)
	if err != nil {
		return err
	}
	*rec = *r
	return nil
}

// decode does the work of Decode; its errors carry no prefix.
func decode(b []byte) (*Recording, error) {
	if len(b) == 0 {
		return nil, errors.New("empty file")
	}
	if n := min(len(b), len(Magic)); string(b[:n]) != Magic[:n] {
		return nil, fmt.Errorf("not a replay file: starts with %q, want %q", b[:min(len(b), len(Magic))], Magic)
	}
	if len(b) <= len(Magic) {
		return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(b), headerSize)
	}
	version := b[len(Magic)]
	if version < 1 || version > Version {
		return nil, fmt.Errorf("unsupported format version %d (this build reads versions 1 to %d)", version, Version)
	}
	if len(b) < headerSize {
		return nil, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(b), headerSize)
	}
	n := binary.LittleEndian.Uint32(b[headerSize-4:])
	if uint64(n) > MaxFileSize-overhead {
		return nil, fmt.Errorf("payload length %d exceeds the %d-byte limit", n, MaxFileSize-overhead)
	}
	size := overhead + int(n)
	if len(b) < size {
		return nil, fmt.Errorf("truncated: %d bytes, the header says %d", len(b), size)
	}
	if len(b) > size {
		return nil, fmt.Errorf("%d bytes of trailing garbage after the %d-byte recording", len(b)-size, size)
	}
	stored := binary.LittleEndian.Uint32(b[size-checksumSize:])
	if sum := crc32.Checksum(b[:size-checksumSize], castagnoli); sum != stored {
		return nil, fmt.Errorf("checksum mismatch (stored %08x, computed %08x): the file is corrupt", stored, sum)
	}
	d := &reader{b: b[:size-checksumSize], off: headerSize, version: version}
	rec := d.payload()
	if d.err != nil {
		return nil, fmt.Errorf("corrupt: %v at byte %d", d.err, d.errOff)
	}
	return rec, nil
}

// Minimum encoded sizes, to bound counts by the bytes left.
const (
	minRun        = 4 // count, held, pressed, released: a byte each at least
	minCommand    = 3 // tick delta, kind, arg
	minCheckpoint = 9 // tick delta, 8-byte hash
)

// A reader walks the payload. Its first error sticks: later reads return
// zero values, and payload checks d.err before trusting them.
type reader struct {
	version byte
	b       []byte
	off     int
	err     error
	errOff  int // where the first error was found
}

func (d *reader) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
		d.errOff = d.off
	}
}

func (d *reader) left() int { return len(d.b) - d.off }

// uvarint reads a minimal unsigned LEB128 varint.
func (d *reader) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	for i := 0; ; i++ {
		if d.off+i >= len(d.b) {
			d.fail("payload ends inside %s", what)
			return 0
		}
		c := d.b[d.off+i]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			d.fail("%s overflows 64 bits", what)
			return 0
		}
		if c < 0x80 {
			if i > 0 && c == 0 {
				d.fail("%s is not minimally encoded", what)
				return 0
			}
			d.off += i + 1
			return x | uint64(c)<<(7*i)
		}
		x |= uint64(c&0x7f) << (7 * i)
	}
}

// varint reads a zigzag-encoded signed varint.
func (d *reader) varint(what string) int64 {
	u := d.uvarint(what)
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (d *reader) uint32v(what string) uint32 {
	at := d.off
	x := d.uvarint(what)
	if x > math.MaxUint32 {
		d.off = at
		d.fail("%s %d does not fit in 32 bits", what, x)
	}
	return uint32(x)
}

func (d *reader) int32v(what string) int32 {
	at := d.off
	x := d.varint(what)
	if x < math.MinInt32 || x > math.MaxInt32 {
		d.off = at
		d.fail("%s %d does not fit in 32 bits", what, x)
	}
	return int32(x)
}

func (d *reader) byte(what string) byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.b) {
		d.fail("payload ends inside %s", what)
		return 0
	}
	c := d.b[d.off]
	d.off++
	return c
}

func (d *reader) uint64le(what string) uint64 {
	if d.err != nil {
		return 0
	}
	if d.left() < 8 {
		d.fail("payload ends inside %s", what)
		return 0
	}
	x := binary.LittleEndian.Uint64(d.b[d.off:])
	d.off += 8
	return x
}

// count reads the number of items of a list whose items take at least
// minSize bytes each, and checks it against the bytes left.
func (d *reader) count(what string, minSize int) int {
	at := d.off
	n := d.uvarint("number of " + what)
	if d.err == nil && n > uint64(d.left()/minSize) {
		d.off = at
		d.fail("%d %s claimed, but only %d bytes are left", n, what, d.left())
		return 0
	}
	return int(n)
}

// record reads one input record: held, pressed, released.
func (d *reader) record() input.Record {
	return input.Record{
		Held:     input.Buttons(d.uint32v("held buttons")),
		Pressed:  input.Buttons(d.uint32v("pressed buttons")),
		Released: input.Buttons(d.uint32v("released buttons")),
	}
}

// payload reads a recording's payload: its header, then its lists of
// input runs, commands and checkpoints, each checked against the header's
// tick count. It returns nil where d.err says what is wrong.
func (d *reader) payload() *Recording {
	rec := &Recording{}
	ticks, players := d.header(rec)
	d.inputs(rec, ticks, players)
	if d.err == nil && rec.Ticks() != ticks {
		d.fail("input runs cover %d ticks, the header says %d", rec.Ticks(), ticks)
	}
	d.commands(rec, ticks, players)
	d.checkpoints(rec, ticks)
	if d.err == nil && d.left() > 0 {
		d.fail("%d unused bytes at the end of the payload", d.left())
	}
	if d.err != nil {
		return nil
	}
	return rec
}

// header reads the settings, the initial buttons, the tick count and the
// final hash into rec, and returns the tick count and the players.
func (d *reader) header(rec *Recording) (ticks uint64, players int) {
	s := &rec.Settings
	s.Seed = d.uvarint("seed")
	s.Balls = d.uint32v("ball count")
	s.Width = d.int32v("width")
	s.Height = d.int32v("height")
	s.Radius = d.int32v("radius")
	s.Speed = d.int32v("speed")
	s.Tick = time.Duration(d.varint("tick length"))
	s.MaxLoops = d.uint32v("max loops")
	at := d.off
	flags := d.byte("flags")
	if flags&^flagLockstep != 0 {
		d.off = at
		d.fail("unknown flags %#02x", flags)
	}
	s.Lockstep = flags&flagLockstep != 0
	players = 1
	if d.version >= 2 {
		at := d.off
		n := d.uvarint("player count")
		if d.err == nil && (n < 2 || n > MaxPlayers) {
			d.off = at
			d.fail("%d players in a version 2 recording, want 2 to %d", n, MaxPlayers)
		}
		s.Players, players = uint32(n), int(n)
	}
	rec.InitialHeld = input.Buttons(d.uint32v("initial buttons"))

	at = d.off
	ticks = d.uvarint("tick count")
	if ticks > MaxTicks {
		d.off = at
		d.fail("tick count %d exceeds the limit of %d", ticks, uint64(MaxTicks))
	}
	rec.FinalHash = d.uint64le("final hash")
	return ticks, players
}

// inputs reads the input runs into rec: none empty, none the same as the
// one before, and none past the last tick.
func (d *reader) inputs(rec *Recording, ticks uint64, players int) {
	n := d.count("input runs", 1+3*players)
	if d.err != nil || n == 0 {
		return
	}
	rec.Inputs = make([]Run, 0, n)
	var sum uint64
	for i := range n {
		at := d.off
		c := d.uvarint("input run length")
		r := Run{Count: c, Record: d.record()}
		for j := 1; j < players; j++ {
			r.Others[j-1] = d.record()
		}
		switch {
		case d.err != nil:
			return
		case c == 0:
			d.off = at
			d.fail("input run %d is empty", i)
		case c > ticks-sum:
			d.off = at
			d.fail("input run %d claims %d ticks, but only %d of the %d ticks are left", i, c, ticks-sum, ticks)
		case i > 0 && r.same(&rec.Inputs[i-1]):
			d.off = at
			d.fail("input runs %d and %d hold the same record", i-1, i)
		}
		sum += c
		rec.Inputs = append(rec.Inputs, r)
	}
}

// commands reads the timed commands into rec: each of a known kind, none
// past the last tick, a release only of a player the game has.
func (d *reader) commands(rec *Recording, ticks uint64, players int) {
	n := d.count("commands", minCommand)
	if d.err != nil || n == 0 {
		return
	}
	rec.Commands = make([]TimedCommand, 0, n)
	var last uint64
	for i := range n {
		at := d.off
		delta := d.uvarint("command tick")
		k := CommandKind(d.byte("command kind"))
		arg := d.varint("command argument")
		switch {
		case d.err != nil:
			return
		case delta > ticks-last:
			d.off = at
			d.fail("command %d comes after the last tick", i)
		case !k.Valid():
			d.off = at
			d.fail("command %d has unknown kind %d", i, k)
		case k == CmdRelease && (players < 2 || arg < 0 || arg >= int64(players)):
			d.off = at
			d.fail("command %d releases player %d of a %d-player game", i, arg, players)
		}
		last += delta
		rec.Commands = append(rec.Commands, TimedCommand{At: last, Command: Command{Kind: k, Arg: arg}})
	}
}

// checkpoints reads the checkpoints into rec: each after the one before,
// none past the last tick.
func (d *reader) checkpoints(rec *Recording, ticks uint64) {
	n := d.count("checkpoints", minCheckpoint)
	if d.err != nil || n == 0 {
		return
	}
	rec.Checkpoints = make([]Checkpoint, 0, n)
	var last uint64
	for i := range n {
		at := d.off
		delta := d.uvarint("checkpoint tick")
		h := d.uint64le("checkpoint hash")
		switch {
		case d.err != nil:
			return
		case delta == 0:
			d.off = at
			d.fail("checkpoint %d is not after the one before it", i)
		case delta > ticks-last:
			d.off = at
			d.fail("checkpoint %d comes after the last tick", i)
		}
		last += delta
		rec.Checkpoints = append(rec.Checkpoints, Checkpoint{Tick: last, Hash: h})
	}
}
