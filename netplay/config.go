package netplay

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Config sets up a Session (Host, Join, SyncTest) or a Spectator
// (Watch). One Config serves every role: each field says whose it is.
// The game's fields are the host's, and a joiner or spectator takes them
// from the host (it leaves them zero: Join refuses them); a peer's own
// fields are its own. Zero values take the defaults said.
type Config struct {
	// InputSize is the size of one player's input for one tick, in
	// bytes, 1..MaxInputSize: the game's own encoding of its buttons,
	// axes or commands. Every peer's must be the same; a joiner or
	// spectator whose InputSize is not the host's fails (ErrMismatch).
	InputSize int

	// Tick is the length of a tick of the game's fixed-step loop, the
	// same on every peer: the host's (required), which a joiner takes
	// from the Welcome (a joiner's, if set, must be the same:
	// ErrMismatch). It paces time sync (Session.TimeSync) and
	// Session.Update.
	Tick time.Duration
	// Netcode is this player's: Rollback (the zero value) or Lockstep.
	// Peers of one game may differ. Lockstep needs an input delay (the
	// host's Delay): in a game without one it plays Rollback, as it would
	// otherwise wait a round trip on every tick (Session.Config says).
	Netcode Netcode
	// MaxPrediction (rollback) is the most ticks the game may run ahead
	// of the confirmed ones, 1..60 (0 means 8, GGPO's default); beyond
	// it the game waits, as lockstep would. The game's Save and Load
	// take slots 0..MaxPrediction+1.
	MaxPrediction int

	// Players is the number of players, the host included,
	// MinPlayers..MaxPlayers (0 means 2). The host's. The host is
	// player 0.
	Players int
	// Settings are the game's settings that every peer must run with
	// (a world's seed and size, a level, rules): opaque, at most
	// MaxSettingsSize bytes, sent to each joiner and spectator in its
	// Welcome. The host's.
	Settings []byte
	// Delay is the input delay in ticks, 0..MaxDelay: the input for tick
	// t is sampled when tick t-Delay runs. 0 is none (rollback's usual);
	// lockstep wants one that covers the round trip, DefaultDelay or
	// more. The host's.
	Delay int
	// TickLimit ends the game for everyone after that many ticks; 0 is
	// no limit. The host's.
	TickLimit uint64
	// DesyncEvery is the interval, in ticks, at which the peers compare
	// their state hashes (EventDesync): 0 means every 25 ticks, a
	// negative value never. The host's.
	DesyncEvery int
	// KickAfter, if positive, kicks a player that held the game back
	// more than KickAfter within 10 s, and plays on without it. A player
	// holds the game back when the others wait for its input alone while
	// it is slow by itself: its loop falls behind with every input at
	// hand. Waiting for the others, the network's delays and the
	// catching up after a stall are nobody's slowness. The host's.
	KickAfter time.Duration
	// PlayOn plays on without a joiner that went silent (Silence) or
	// left with an error, from a tick every peer agrees on, instead of
	// ending the game for everyone. The host's.
	PlayOn bool
	// MaxSpectators is the most spectators the host serves at once,
	// 0..MaxSpectators (0: none, their Hellos are refused). A game that
	// serves spectators must be a Snapshotter. The host's.
	MaxSpectators int

	// EndOnDesync ends the game for everyone when this peer finds a
	// desync, at one agreed tick as a quit does; Err is then the desync
	// (ErrDesync). Without it the game goes on, an EventDesync says so,
	// and Err returns the first desync once the game is over.
	EndOnDesync bool
	// MaxSettings bounds the settings a joiner or spectator accepts
	// from a host, in bytes (0 means MaxSettingsSize): more fail the join
	// (ErrTooLarge) instead of being held.
	MaxSettings int
	// MaxSnapshot bounds the snapshot a spectator accepts, in bytes
	// (0 means 64 MiB): a larger one is refused before any of it is
	// held (ErrTooLarge).
	MaxSnapshot int
	// CheckDistance is how many ticks a sync test rolls back after
	// every tick, 1..60 (SyncTest).
	CheckDistance int
	// Report makes a desync say where the states differ (Error.Report):
	// the game must be a Snapshotter, and a Describer to name fields.
	// It costs a state hash every tick, and a copy of the state at every
	// desync check (Config.DesyncEvery); the peers exchange their states
	// only when their hashes differ. A sync test keeps the state of each
	// tick it checks. Every peer's own.
	Report bool

	// Interrupt is how long a peer may send nothing before an
	// EventInterrupted says so (0 means 500 ms, or a quarter of Silence
	// if that is less; at most Silence).
	Interrupt time.Duration
	// Silence is how long a peer may send nothing before it counts as
	// gone (0 means 2 s). A host drops a silent spectator after it too.
	Silence time.Duration
	// JoinTimeout is how long a joiner or spectator waits for the
	// host's Welcome (0 means 10 s), and a host keeps a welcomed slot
	// without an answer.
	JoinTimeout time.Duration
	// Linger is how long an ended session goes on resending its end
	// until the others acknowledge it (0 means 1 s; twice that after the
	// tick limit, when the last inputs may still be on their way).
	Linger time.Duration
	// Resend is how often unacknowledged data is sent again (0 means
	// 20 ms); KeepAlive the longest gap between two packets to a peer
	// (0 means 100 ms).
	Resend, KeepAlive time.Duration

	// Nonce is 64 random bits: the host makes it the session ID that
	// every packet carries, a joiner or spectator the token of its
	// Hello. 0, the usual value, draws one at random; a test gives its
	// own for runs that repeat.
	Nonce uint64
}

// session is the configuration of the protocol's session.
func (c Config) session() config {
	d := disconnectDefault // the game ends
	switch {
	case c.PlayOn:
		d = disconnectContinue
	case c.KickAfter > 0:
		d = disconnectEnd // not disconnectDefault's continue
	}
	every := c.DesyncEvery
	if every < 0 {
		every = noDesyncCheck
	}
	return config{
		Nonce: c.Nonce, InputSize: c.InputSize, Players: c.Players, Settings: c.Settings, Delay: c.Delay,
		TickLimit: c.TickLimit, Tick: c.Tick, KickAfter: c.KickAfter, Disconnect: d, DesyncEvery: every,
		MaxSettings: c.MaxSettings, MaxReport: c.MaxSnapshot, EndOnDesync: c.EndOnDesync, Interrupt: c.Interrupt, Silence: c.Silence,
		JoinTimeout: c.JoinTimeout, Linger: c.Linger, Resend: c.Resend, KeepAlive: c.KeepAlive,
	}
}

// runner is the configuration of a player's tick path (its Tick, the
// host's, is set when the game starts).
func (c Config) runner(host bool) (runnerConfig, error) {
	if host && c.Tick <= 0 || c.Tick < 0 {
		return runnerConfig{}, fmt.Errorf("netplay: %w: Config.Tick %v: the host needs its tick's length", ErrInvalid, c.Tick)
	}
	if c.Netcode != Rollback && c.Netcode != Lockstep {
		return runnerConfig{}, fmt.Errorf("netplay: %w: Config.Netcode %v, want Rollback or Lockstep", ErrInvalid, c.Netcode)
	}
	if c.MaxPrediction < 0 || c.MaxPrediction > maxMaxPrediction {
		return runnerConfig{}, fmt.Errorf("netplay: %w: Config.MaxPrediction %d not in 1..%d", ErrInvalid, c.MaxPrediction, maxMaxPrediction)
	}
	return runnerConfig{Netcode: c.Netcode, MaxPrediction: c.MaxPrediction, Tick: c.Tick, Report: c.Report}, nil
}

// spectator is the configuration of a spectator.
func (c Config) spectator() (spectatorConfig, error) {
	for _, f := range []struct {
		set  bool
		name string
	}{
		{c.Players != 0, "Players"}, {c.Settings != nil, "Settings"}, {c.Delay != 0, "Delay"},
		{c.TickLimit != 0, "TickLimit"}, {c.KickAfter != 0, "KickAfter"}, {c.PlayOn, "PlayOn"},
		{c.DesyncEvery != 0, "DesyncEvery"}, {c.MaxSpectators != 0, "MaxSpectators"},
	} {
		if f.set {
			return spectatorConfig{}, fmt.Errorf("netplay: %w: Config.%s is the host's: a spectator takes the host's (leave it zero in Watch)", ErrInvalid, f.name)
		}
	}
	return spectatorConfig{Nonce: c.Nonce, InputSize: c.InputSize, MaxSettings: c.MaxSettings, MaxSnapshot: c.MaxSnapshot,
		Silence: c.Silence, JoinTimeout: c.JoinTimeout}, nil
}

// config sets up a Session. Zero durations take their defaults.
type config struct {
	// Nonce is 64 random bits. The host makes it the session ID that
	// every packet carries; a joiner makes it the token of its Hello.
	// 0, the usual value, has NewHost or NewJoiner draw one (math/rand/v2,
	// seeded at random); a test gives its own for runs that repeat.
	Nonce uint64

	// InputSize is the size of one player's input for one tick, in
	// bytes, 1..MaxInputSize: the game's own encoding of its buttons,
	// axes or commands. Every peer's must be the same; a joiner whose
	// InputSize is not the host's fails to join.
	InputSize int

	// Host only; a joiner gets them from the host, and NewJoiner refuses
	// a Config that sets one.

	// Players is the number of players, the host included,
	// MinPlayers..MaxPlayers (0 means 2). The host is player 0.
	Players int
	// Settings are the game's settings that every peer must run with
	// (a world's seed and size, a level, rules): opaque to the session,
	// at most MaxSettingsSize bytes, sent to each joiner in its Welcome.
	Settings []byte
	// Delay is the input delay in ticks, 0..MaxDelay: the input for tick
	// t is sampled when tick t-Delay runs. 0 is none (rollback's usual);
	// lockstep wants one that covers the round trip, DefaultDelay or more.
	Delay int
	// TickLimit ends the game for everyone after that many ticks; 0 is
	// no limit.
	TickLimit uint64
	// Tick is the length of a tick, the same on every peer: the host's
	// goes in the Welcome. A joiner's, if set, must be the host's.
	Tick time.Duration
	// KickAfter, if positive, kicks a player that held the game back
	// more than KickAfter within KickWindow, and a player gone silent,
	// instead of ending the game. A player holds the game back when the
	// others wait for its input alone while it is slow by itself: its
	// loop falls behind with every input at hand (see
	// Session.ReportLoad). Waiting for the others, the network's delays
	// and the catching up after a stall are nobody's slowness.
	KickAfter time.Duration
	// Disconnect says what a joiner gone silent (Silence) or that left
	// with an error does to the game: end it for everyone, or go on
	// without it from a tick every peer agrees on. The zero value,
	// DisconnectDefault, ends it unless KickAfter is set.
	Disconnect disconnectPolicy
	// DesyncEvery is the interval, in ticks, at which the peers compare
	// their state hashes (EventDesync): 0 means HashEvery, NoDesyncCheck
	// none. The host's is every peer's: it goes in the Welcome.
	DesyncEvery int

	// Joiner only (NewHost refuses it).

	// MaxSettings bounds the settings a joiner accepts from a host, in
	// bytes (default MaxSettingsSize): a Welcome with more fails the
	// join with a *SettingsTooLargeError instead of holding them.
	MaxSettings int

	// Both.

	// EndOnDesync ends the game for everyone when this peer finds a
	// desync, at one agreed tick as a quit does (Quit); Err then returns
	// the DesyncError, and Stats.End says it. (A peer without
	// EndOnDesync, or that found no desync itself, sees the end as that
	// player's quit.) Without it the game goes on, an EventDesync says
	// so, and Err returns the first desync once the game is over.
	EndOnDesync bool
	// MaxReport bounds the other peer's state a desync report takes, in
	// bytes (default 64 MiB).
	MaxReport int
	// Interrupt is how long a peer may send nothing before an
	// EventInterrupted says so (default 500 ms, or a quarter of
	// Silence if that is less; at most Silence).
	Interrupt time.Duration
	// Silence is how long a peer may send nothing before it counts as
	// gone (default 2 s).
	Silence time.Duration
	// JoinTimeout is how long a joiner waits for the Welcome (default
	// 10 s).
	JoinTimeout time.Duration
	// Linger is how long an ended session goes on resending its end
	// until the others acknowledge it (default 1 s; twice that after the
	// tick limit, when the last inputs may still be on their way).
	Linger time.Duration
	// Resend is how often unacknowledged data is sent again (default
	// 20 ms).
	Resend time.Duration
	// KeepAlive is the longest gap between two packets to a peer
	// (default 100 ms).
	KeepAlive time.Duration
}

// randomNonce is 64 random bits, never 0: the Nonce nobody gave.
func randomNonce() uint64 {
	for {
		if n := rand.Uint64(); n != 0 {
			return n
		}
	}
}

// normalize checks a host's config (host) or a joiner's and fills in
// its defaults: the config a session runs with, or an ErrInvalid error
// that names the field at fault.
func (c config) normalize(host bool) (config, error) {
	if err := c.checkSide(host); err != nil {
		return c, err
	}
	if c.Nonce == 0 {
		c.Nonce = randomNonce()
	}
	if c.InputSize < 1 || c.InputSize > MaxInputSize {
		return c, invalid("Config.InputSize %d not in 1..%d", c.InputSize, MaxInputSize)
	}
	switch {
	case c.MaxReport == 0:
		c.MaxReport = defaultMaxSnapshot
	case c.MaxReport < 0:
		return c, invalid("Config.MaxSnapshot %d is negative", c.MaxReport)
	}
	switch {
	case c.MaxSettings == 0:
		c.MaxSettings = MaxSettingsSize
	case c.MaxSettings < 0 || c.MaxSettings > MaxSettingsSize:
		return c, invalid("Config.MaxSettings %d not in 1..%d", c.MaxSettings, MaxSettingsSize)
	}
	if host {
		if err := c.normalizeHost(); err != nil {
			return c, err
		}
	}
	if err := c.normalizeTimes(); err != nil {
		return c, err
	}
	return c, nil
}

// invalid is the error of a config that cannot run: ErrInvalid, and
// what is wrong.
func invalid(format string, args ...any) error {
	return fmt.Errorf("netplay: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

// checkSide refuses a field set on the side it does not belong to: one
// of the host's in a joiner's config, a joiner's in the host's.
func (c *config) checkSide(host bool) error {
	if !host {
		for _, f := range []struct {
			set  bool
			name string
		}{
			{c.Players != 0, "Players"}, {c.Settings != nil, "Settings"}, {c.Delay != 0, "Delay"},
			{c.TickLimit != 0, "TickLimit"}, {c.KickAfter != 0, "KickAfter"},
			{c.Disconnect != disconnectDefault, "PlayOn"}, {c.DesyncEvery != 0, "DesyncEvery"},
		} {
			if f.set {
				return invalid("Config.%s is the host's: a joiner takes the host's (leave it zero in Join)", f.name)
			}
		}
	}
	if host && c.MaxSettings != 0 {
		return invalid("Config.MaxSettings is a joiner's: it bounds the settings a host sends (leave it zero in Host)")
	}
	return nil
}

// normalizeHost checks the fields only a host sets and fills in their
// defaults; the settings become the session's own copy.
func (c *config) normalizeHost() error {
	if c.Players == 0 {
		c.Players = MinPlayers
	}
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return invalid("Config.Players %d not in %d..%d", c.Players, MinPlayers, MaxPlayers)
	}
	if c.Delay < 0 || c.Delay > MaxDelay {
		return invalid("Config.Delay %d not in 0..%d", c.Delay, MaxDelay)
	}
	if c.TickLimit > maxTick {
		return invalid("Config.TickLimit %d above %d", c.TickLimit, uint64(maxTick))
	}
	if c.Tick < 0 || c.Tick > time.Hour {
		return invalid("Config.Tick %v not in 0..1h", c.Tick)
	}
	if c.KickAfter < 0 {
		return invalid("Config.KickAfter %v is negative", c.KickAfter)
	}
	switch c.Disconnect {
	case disconnectDefault:
		c.Disconnect = disconnectEnd
		if c.KickAfter > 0 {
			c.Disconnect = disconnectContinue
		}
	case disconnectEnd, disconnectContinue:
	default:
		return invalid("Config.Disconnect %v", c.Disconnect)
	}
	switch {
	case c.DesyncEvery == 0:
		c.DesyncEvery = hashEvery
	case c.DesyncEvery == noDesyncCheck:
		c.DesyncEvery = 0
	case c.DesyncEvery < 0 || int64(c.DesyncEvery) > maxTick:
		return invalid("Config.DesyncEvery %d not in 1..%d (or negative: none)", c.DesyncEvery, uint64(maxTick))
	}
	if len(c.Settings) > MaxSettingsSize {
		return invalid("Config.Settings of %d bytes, more than MaxSettingsSize (%d)", len(c.Settings), MaxSettingsSize)
	}
	c.Settings = append([]byte(nil), c.Settings...) // the session's own copy
	return nil
}

// normalizeTimes checks the durations and fills in their defaults; the
// Interrupt's depends on the Silence, and is at most that.
func (c *config) normalizeTimes() error {
	for _, d := range []struct {
		p    *time.Duration
		def  time.Duration
		name string
	}{
		{&c.Silence, defaultSilence, "Silence"},
		{&c.JoinTimeout, defaultJoinTimeout, "JoinTimeout"},
		{&c.Linger, defaultLinger, "Linger"},
		{&c.Resend, defaultResend, "Resend"},
		{&c.KeepAlive, defaultKeepAlive, "KeepAlive"},
	} {
		if *d.p < 0 {
			return invalid("Config.%s %v is negative", d.name, *d.p)
		}
		if *d.p == 0 {
			*d.p = d.def
		}
	}
	switch {
	case c.Interrupt < 0:
		return invalid("Config.Interrupt %v is negative", c.Interrupt)
	case c.Interrupt == 0:
		c.Interrupt = min(defaultInterrupt, c.Silence/4)
	}
	c.Interrupt = min(c.Interrupt, c.Silence)
	return nil
}
