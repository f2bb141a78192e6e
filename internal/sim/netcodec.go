package sim

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// The demo's game on the network: package netplay carries each player's
// input for a tick as InputSize bytes and the host's settings as an
// opaque blob; these are the demo's encodings of both.

// InputSize is the size of a player's input for one tick on the network:
// the held, pressed and released sets, a byte each. The demo's buttons
// are 0 to 3 (the four directions), so a byte holds a set; a button above
// 7 does not travel.
const InputSize = 3

// EncodeInput writes rec into dst, which holds InputSize bytes.
func EncodeInput(dst []byte, rec input.Record) {
	_ = dst[InputSize-1]
	dst[0], dst[1], dst[2] = byte(rec.Held), byte(rec.Pressed), byte(rec.Released)
}

// DecodeInput reads the record EncodeInput wrote into b (InputSize bytes).
func DecodeInput(b []byte) input.Record {
	_ = b[InputSize-1]
	return input.Record{Held: input.Buttons(b[0]), Pressed: input.Buttons(b[1]), Released: input.Buttons(b[2])}
}

// settingsSize is the size of encoded Settings: version, seed, balls,
// width, height, radius, speed, tick, max loops, lockstep.
const settingsSize = 1 + 8 + 4 + 4*4 + 8 + 4 + 1

// settingsVersion is the first byte of encoded Settings.
const settingsVersion = 1

// EncodeSettings is the host's world and loop settings as the network
// game sends them to joiners (netplay.Config.Settings). Players is not
// part of them: the session knows its players.
func EncodeSettings(s Settings) []byte {
	b := make([]byte, 0, settingsSize)
	b = append(b, settingsVersion)
	b = binary.LittleEndian.AppendUint64(b, s.Seed)
	b = binary.LittleEndian.AppendUint32(b, s.Balls)
	for _, v := range []int32{s.Width, s.Height, s.Radius, s.Speed} {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(s.Tick))
	b = binary.LittleEndian.AppendUint32(b, s.MaxLoops)
	var lockstep byte
	if s.Lockstep {
		lockstep = 1
	}
	return append(b, lockstep)
}

// DecodeSettings reads what EncodeSettings wrote, and checks it by the
// rules of CheckSettings: a host can send anything.
func DecodeSettings(b []byte) (Settings, error) {
	var s Settings
	if len(b) != settingsSize || b[0] != settingsVersion {
		return s, fmt.Errorf("the host's settings are not this demo's (%d bytes, version %d)", len(b), firstByte(b))
	}
	le := binary.LittleEndian
	s.Seed = le.Uint64(b[1:])
	s.Balls = le.Uint32(b[9:])
	s.Width, s.Height = int32(le.Uint32(b[13:])), int32(le.Uint32(b[17:]))
	s.Radius, s.Speed = int32(le.Uint32(b[21:])), int32(le.Uint32(b[25:]))
	s.Tick = time.Duration(le.Uint64(b[29:]))
	s.MaxLoops = le.Uint32(b[37:])
	switch b[41] {
	case 0:
	case 1:
		s.Lockstep = true
	default:
		return s, fmt.Errorf("the host's settings are not this demo's (lockstep %d)", b[41])
	}
	if err := CheckSettings(s); err != nil {
		return s, fmt.Errorf("the host's settings: %v", err)
	}
	return s, nil
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}
