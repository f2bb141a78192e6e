package puck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// Settings are the host's game, which every peer plays: they travel to
// the joiners as the session's settings blob (Encode, DecodeSettings).
type Settings struct {
	Width, Height int             // the field, pixels
	TPS           int             // logic ticks per second
	Netcode       netplay.Netcode // lockstep or rollback, everyone's
	Seed          uint64          // the serves' directions
}

// The settings' bounds and defaults.
const (
	MinSize, MaxSize = 64, 1024
	MinTPS, MaxTPS   = 10, 120
	DefaultWidth     = 320
	DefaultHeight    = 240
	DefaultTPS       = 30
	// LockstepDelay is the input delay of a lockstep game, in ticks;
	// rollback has none.
	LockstepDelay = netplay.DefaultDelay
)

// DefaultSettings are the game's defaults: a 320×240 field at 30 ticks
// per second, with rollback.
func DefaultSettings() Settings {
	return Settings{Width: DefaultWidth, Height: DefaultHeight, TPS: DefaultTPS, Netcode: netplay.Rollback, Seed: 1}
}

// Check reports the first setting out of range.
func (s Settings) Check() error {
	switch {
	case s.Width < MinSize || s.Width > MaxSize || s.Height < MinSize || s.Height > MaxSize:
		return fmt.Errorf("field %dx%d: each side must be %d to %d pixels", s.Width, s.Height, MinSize, MaxSize)
	case s.TPS < MinTPS || s.TPS > MaxTPS:
		return fmt.Errorf("%d ticks per second: must be %d to %d", s.TPS, MinTPS, MaxTPS)
	case s.Netcode != netplay.Lockstep && s.Netcode != netplay.Rollback:
		return fmt.Errorf("netcode %v: must be lockstep or rollback", s.Netcode)
	}
	return nil
}

// Tick is the length of a logic tick.
func (s Settings) Tick() time.Duration { return time.Second / time.Duration(s.TPS) }

// Delay is the host's netplay.Config.Delay for the netcode: none for
// rollback, LockstepDelay for lockstep.
func (s Settings) Delay() int {
	if s.Netcode == netplay.Rollback {
		return 0
	}
	return LockstepDelay
}

// settingsVersion leads the encoding: a joiner refuses another one.
const (
	settingsVersion = 1
	settingsSize    = 15
)

// Encode is the settings blob: a version byte, width and height (u16),
// ticks per second (u8), netcode (u8) and seed (u64), little-endian.
func (s Settings) Encode() []byte {
	b := make([]byte, 0, settingsSize)
	b = append(b, settingsVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(s.Width))
	b = binary.LittleEndian.AppendUint16(b, uint16(s.Height))
	b = append(b, uint8(s.TPS), uint8(s.Netcode))
	return binary.LittleEndian.AppendUint64(b, s.Seed)
}

// ErrSettings is wrapped by DecodeSettings' errors.
var ErrSettings = errors.New("the host's game settings")

// DecodeSettings reads the host's settings blob and checks it.
func DecodeSettings(b []byte) (Settings, error) {
	if len(b) != settingsSize || b[0] != settingsVersion {
		return Settings{}, fmt.Errorf("%w: %d bytes of version %d, want %d of version %d (another build of the game?)",
			ErrSettings, len(b), firstByte(b), settingsSize, settingsVersion)
	}
	s := Settings{
		Width:   int(binary.LittleEndian.Uint16(b[1:])),
		Height:  int(binary.LittleEndian.Uint16(b[3:])),
		TPS:     int(b[5]),
		Netcode: netplay.Netcode(b[6]),
		Seed:    binary.LittleEndian.Uint64(b[7:]),
	}
	if err := s.Check(); err != nil {
		return Settings{}, fmt.Errorf("%w: %v", ErrSettings, err)
	}
	return s, nil
}

func firstByte(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	return int(b[0])
}
