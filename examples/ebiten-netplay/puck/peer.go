package puck

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/netplay"
)

// PeerConfig is one player's side of a game: where its input comes
// from, and its own network settings.
type PeerConfig struct {
	// Bot gives the local player BotInput(BotSeed, tick) instead of the
	// keyboard events pushed with Push.
	Bot     bool
	BotSeed uint64
	// Silence is how long the other player may send nothing before the
	// game ends with an error (netplay.Config.Silence; 0: 2 s).
	Silence time.Duration
	// Nonce is netplay.Config.Nonce: 0 draws one at random; a test gives
	// its own for runs that repeat.
	Nonce uint64
}

// Peer is one player's end of a game of Puck: a netplay.Session that
// plays the Game over a transport, driven by an engine's fixed update,
// one tick a call (Ebitengine's Update at the game's tick rate). It
// reads no clock: each call, with the clock read once,
//
//	peer.Update(now) // the datagrams that arrived, the call's tick, what is due out
//	draw(peer.Game(), now-peer.TickAt())
//
// until Done. A Peer is not safe for concurrent use.
type Peer struct {
	sess   *netplay.Session
	game   *Game // nil until the settings are known (a joiner: the host's Welcome)
	err    error // the game could not be set up
	tickAt time.Duration
	local  localInput
}

// localInput is the local player's input, as the session asks for it:
// the bot's, or the keyboard's up to the Update that runs the tick.
type localInput struct {
	bot     bool
	seed    uint64
	sampler *input.Sampler
	prev    input.Record
	now     time.Duration // the Update's clock reading
}

// player is the Game as the session plays it: Puck, and the local
// player's input.
type player struct {
	*Game
	*localInput
}

var _ netplay.Game = player{}

func newPeer(cfg PeerConfig) *Peer {
	return &Peer{local: localInput{bot: cfg.Bot, seed: cfg.BotSeed, sampler: input.NewSampler()}}
}

// Host hosts a game of set over t at now, to end after ticks ticks (0:
// when a player quits), and waits for the other player.
func Host(t netplay.Transport, set Settings, ticks uint64, cfg PeerConfig, now time.Duration) (*Peer, error) {
	if err := set.Check(); err != nil {
		return nil, err
	}
	p := newPeer(cfg)
	s, err := netplay.Host(netplay.Config{
		InputSize: InputSize, Tick: set.Tick(), Netcode: set.Netcode, Players: Players,
		Settings: set.Encode(), Delay: set.Delay(), TickLimit: ticks,
		EndOnDesync: true, Silence: cfg.Silence, Nonce: cfg.Nonce,
	}, nil, t, now)
	if err != nil {
		return nil, err
	}
	p.sess = s
	if err := p.setUp(); err != nil {
		return nil, err
	}
	return p, nil
}

// Join joins the game hosted at host (an address of t's) at now. The
// game is made from the host's settings when its Welcome comes.
func Join(t netplay.Transport, host string, cfg PeerConfig, now time.Duration) (*Peer, error) {
	p := newPeer(cfg)
	s, err := netplay.Join(netplay.Config{
		InputSize: InputSize, MaxSettings: settingsSize,
		// The host's settings say the netcode, and their input delay
		// goes with it: lockstep in a game without one plays rollback.
		Netcode:     netplay.Lockstep,
		EndOnDesync: true, Silence: cfg.Silence, Nonce: cfg.Nonce,
	}, nil, t, host, now)
	if err != nil {
		return nil, err
	}
	p.sess = s
	return p, nil
}

// setUp makes the game from the session's settings and gives it to the
// session: a joiner's then says it is ready.
func (p *Peer) setUp() error {
	c := p.sess.Config()
	set, err := DecodeSettings(c.Settings)
	if err != nil {
		return err
	}
	g := NewGame(set)
	g.SetSlots(c.MaxPrediction + 2) // slots 0..MaxPrediction+1
	if err := p.sess.Play(player{g, &p.local}); err != nil {
		return err
	}
	p.game = g
	return nil
}

// Session is the peer's session, for its state and statistics.
func (p *Peer) Session() *netplay.Session { return p.sess }

// Game is the game, or nil before the settings are known (a joiner
// waiting for the host's Welcome).
func (p *Peer) Game() *Game { return p.game }

// Push gives the peer a keyboard event, stamped with the time of the
// clock the updates are given.
func (p *Peer) Push(e input.Event) { p.local.sampler.Push(e) }

// ReleaseAll releases every key at now (the window lost the focus).
func (p *Peer) ReleaseAll(now time.Duration) { p.local.sampler.ReleaseAll(now) }

// Quit ends the game for everyone at an agreed tick; keep calling Update
// until Done.
func (p *Peer) Quit(now time.Duration) { p.sess.Quit(now) }

// Done reports whether the session is over and has nothing left to send:
// close the transport and exit.
func (p *Peer) Done() bool { return p.sess.Done() }

// Err is why the game failed: the host's settings, or the session's
// error (a desync, a silent peer); nil for a clean end.
func (p *Peer) Err() error {
	if p.err != nil {
		return p.err
	}
	return p.sess.Err()
}

// Update is one call of an engine's fixed update, which the engine makes
// once a tick of the game (Ebitengine's Update at ebiten.SetTPS(TPS)),
// with the clock read at it: the session takes the datagrams that
// arrived, runs the call's tick (and one owed from a stall, if any)
// unless time sync advises skipping it because this peer's game is ahead
// of the other's, and sends what is due. It reports whether the call's
// tick was skipped.
func (p *Peer) Update(now time.Duration) (skipped bool) {
	p.local.now = now // each tick samples the keys held up to this call
	ran, skipped := p.sess.Update(now)
	if ran > 0 {
		p.tickAt = now
	}
	if p.game == nil && p.err == nil && p.sess.State() == netplay.StateLobby {
		if err := p.setUp(); err != nil { // the host's Welcome is here
			p.err = err
			p.sess.Quit(now)
		}
	}
	return skipped
}

// TickAt is the clock reading of the last Update that ran a tick: Draw
// places the game between its last two ticks by the time since.
func (p *Peer) TickAt() time.Duration { return p.tickAt }

// LocalInput is the local player's input for tick: the bot's, or the
// directions held at any moment since the previous tick's.
func (l *localInput) LocalInput(tick uint64, _ int, dst []byte) {
	if l.bot {
		dst[0] = BotInput(l.seed, tick)
		return
	}
	rec := l.sampler.Tick(l.now)
	down := rec.Down(l.prev)
	l.prev = rec
	for _, d := range directions {
		if down.Has(d.button) {
			dst[0] |= d.bit
		}
	}
}

// directions are the input package's buttons and their input bits.
var directions = [...]struct {
	button input.Button
	bit    byte
}{{input.Left, Left}, {input.Right, Right}, {input.Up, Up}, {input.Down, Down}}

// Result is a peer's outcome, the line the game prints at its end.
type Result struct {
	Ticks       uint64 // ticks the game ran (confirmed)
	Hash        uint64 // the state hash after them
	Rollbacks   int64
	Resimulated int64 // ticks run again after rollbacks
	Score       [Players]uint16
	Netcode     netplay.Netcode // the one played
}

// Result is the peer's outcome so far.
func (p *Peer) Result() Result {
	if p.game == nil {
		return Result{}
	}
	st := p.sess.Stats()
	return Result{
		Ticks: p.game.State.Tick, Hash: p.game.Hash(),
		Rollbacks: st.Rollbacks, Resimulated: st.Resimulated,
		Score: p.game.State.Score, Netcode: p.sess.Config().Netcode,
	}
}

const resultFormat = "ticks=%d hash=%016x rollbacks=%d resimulated=%d score=%d:%d netcode=%s"

func (r Result) String() string {
	return fmt.Sprintf(resultFormat, r.Ticks, r.Hash, r.Rollbacks, r.Resimulated, r.Score[0], r.Score[1], r.Netcode)
}

// ParseResult reads a line written by Result.String.
func ParseResult(line string) (Result, error) {
	var r Result
	var netcode string
	if _, err := fmt.Sscanf(line, resultFormat, &r.Ticks, &r.Hash, &r.Rollbacks, &r.Resimulated, &r.Score[0], &r.Score[1], &netcode); err != nil {
		return r, fmt.Errorf("result line %q: %v", line, err)
	}
	for _, n := range []netplay.Netcode{netplay.Lockstep, netplay.Rollback} {
		if n.String() == netcode {
			r.Netcode = n
			return r, nil
		}
	}
	return r, fmt.Errorf("result line %q: netcode %q", line, netcode)
}
