package replay

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/interpdemo/interpdemo/input"
)

// Format constants; see the package documentation for the layout.
const (
	// Magic starts every recording file.
	Magic = "IDRP"
	// Version is the newest format version this package writes and reads:
	// version 2 adds the players of a network game. A one-player recording
	// is written as version 1, which every reader of this format reads.
	Version = 2
	// MaxFileSize is the largest recording ReadFile and Decode accept.
	MaxFileSize = 64 << 20

	headerSize   = 4 + 1 + 4 // magic, version, payload length
	checksumSize = 4
	overhead     = headerSize + checksumSize
	flagLockstep = 1 << 0
)

// castagnoli is the CRC-32C table. It is computed once, on first use by
// the standard library, and never changes.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// AppendBinary appends the encoding of rec to b (encoding.BinaryAppender).
// It fails only if rec does not satisfy Validate.
func (rec *Recording) AppendBinary(b []byte) ([]byte, error) {
	if err := rec.Validate(); err != nil {
		return b, errInvalid(err)
	}
	start := len(b)
	b = append(b, Magic...)
	players := rec.Settings.players()
	version := byte(1)
	if players > 1 {
		version = 2
	}
	b = append(b, version)
	b = append(b, 0, 0, 0, 0) // payload length, patched below
	payload := len(b)

	s := rec.Settings
	b = binary.AppendUvarint(b, s.Seed)
	b = binary.AppendUvarint(b, uint64(s.Balls))
	b = binary.AppendVarint(b, int64(s.Width))
	b = binary.AppendVarint(b, int64(s.Height))
	b = binary.AppendVarint(b, int64(s.Radius))
	b = binary.AppendVarint(b, int64(s.Speed))
	b = binary.AppendVarint(b, int64(s.Tick))
	b = binary.AppendUvarint(b, uint64(s.MaxLoops))
	var flags byte
	if s.Lockstep {
		flags |= flagLockstep
	}
	b = append(b, flags)
	if version >= 2 {
		b = binary.AppendUvarint(b, uint64(players))
	}

	b = binary.AppendUvarint(b, uint64(rec.InitialHeld))
	b = binary.AppendUvarint(b, rec.Ticks())
	b = binary.LittleEndian.AppendUint64(b, rec.FinalHash)

	b = binary.AppendUvarint(b, uint64(len(rec.Inputs)))
	for _, r := range rec.Inputs {
		b = binary.AppendUvarint(b, r.Count)
		b = appendRecord(b, r.Record)
		for _, o := range r.Others[:players-1] {
			b = appendRecord(b, o)
		}
	}

	b = binary.AppendUvarint(b, uint64(len(rec.Commands)))
	var at uint64
	for _, c := range rec.Commands {
		b = binary.AppendUvarint(b, c.At-at)
		b = append(b, byte(c.Kind))
		b = binary.AppendVarint(b, c.Arg)
		at = c.At
	}

	b = binary.AppendUvarint(b, uint64(len(rec.Checkpoints)))
	var tick uint64
	for _, c := range rec.Checkpoints {
		b = binary.AppendUvarint(b, c.Tick-tick)
		b = binary.LittleEndian.AppendUint64(b, c.Hash)
		tick = c.Tick
	}

	n := len(b) - payload
	if n > MaxFileSize-overhead || uint64(n) > math.MaxUint32 {
		return b[:start], errInvalid(fmt.Errorf("encodes to %d bytes, more than the %d-byte limit", n+overhead, MaxFileSize))
	}
	binary.LittleEndian.PutUint32(b[payload-4:], uint32(n))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli)), nil
}

func appendRecord(b []byte, r input.Record) []byte {
	b = binary.AppendUvarint(b, uint64(r.Held))
	b = binary.AppendUvarint(b, uint64(r.Pressed))
	return binary.AppendUvarint(b, uint64(r.Released))
}

// MarshalBinary returns the encoding of rec (encoding.BinaryMarshaler).
// It fails only if rec does not satisfy Validate.
func (rec *Recording) MarshalBinary() ([]byte, error) {
	return rec.AppendBinary(nil)
}

// WriteTo writes the encoding of rec to w (io.WriterTo).
func (rec *Recording) WriteTo(w io.Writer) (int64, error) {
	b, err := rec.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}
