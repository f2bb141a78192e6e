package puck

import (
	"errors"
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
)

// PeerConfig says where the local player's input comes from.
type PeerConfig struct {
	// Bot gives the local player BotInput(BotSeed, tick) instead of the
	// keyboard events pushed with Push.
	Bot     bool
	BotSeed uint64
}

// Peer is one player's end of a game of Puck: the frame loop of package
// netplay's documentation, with a loop.Fixed keeping the time (its debt
// kept, as a network game must) and a netplay.Runner playing the Game. It
// reads no clock and touches no socket: each frame, with the clock read
// once,
//
//	netplay.Read(now, conn, peer.Session())  // the datagrams that arrived
//	peer.Frame(now)                          // the ticks due
//	netplay.Write(now, conn, peer.Session())
//	draw(peer.Game(), peer.Percent())
//
// until Done. A Peer is not safe for concurrent use.
type Peer struct {
	sess     *netplay.Session
	maxLoops int

	// Set once the settings are known (a joiner: the host's Welcome).
	game   *Game
	runner *netplay.Runner
	// Set when the game starts.
	fixed   *loop.Fixed
	capped  int64 // frames the loop capped at MaxLoops
	percent float64
	err     error // the game could not be set up
	tickAt  time.Duration
	skipped int

	local localInput
}

// localInput is the local player's input, as the Runner asks for it: the
// bot's, or the keyboard's over each tick's span of the clock.
type localInput struct {
	bot     bool
	seed    uint64
	sampler *input.Sampler
	prev    input.Record
	plan    loop.FixedFrame // the frame being run
	now     time.Duration
	lastEnd time.Duration // the latest span end given to the sampler
}

// NewPeer returns the peer playing over sess, a session from
// netplay.NewHost (with Settings.Encode as its settings, InputSize and
// Settings.Delay) or netplay.NewJoiner (with InputSize).
func NewPeer(sess *netplay.Session, cfg PeerConfig) *Peer {
	return &Peer{
		sess: sess, maxLoops: loop.DefaultMaxLoops, percent: 1,
		local: localInput{bot: cfg.Bot, seed: cfg.BotSeed, sampler: input.NewSampler()},
	}
}

// HostConfig is the session configuration of a host of the game set
// (nonce: 64 random bits, not 0; ticks: the tick limit, 0 for none).
func HostConfig(set Settings, nonce, ticks uint64) netplay.Config {
	return netplay.Config{
		Nonce: nonce, InputSize: InputSize, Players: Players,
		Settings: set.Encode(), Delay: set.Delay(), TickLimit: ticks,
	}
}

// JoinConfig is the session configuration of a joiner.
func JoinConfig(nonce uint64) netplay.Config {
	return netplay.Config{Nonce: nonce, InputSize: InputSize, MaxSettings: settingsSize}
}

// Session is the peer's session, for the socket's Read and Write.
func (p *Peer) Session() *netplay.Session { return p.sess }

// Game is the game, or nil before the settings are known (a joiner
// waiting for the host's Welcome).
func (p *Peer) Game() *Game { return p.game }

// Percent is the latest frame's percentWithinTick: how far to draw
// between each body's Last and Pos. It is 1 when the game is behind the
// clock (a stall: draw its latest state) or over.
func (p *Peer) Percent() float64 { return p.percent }

// Push gives the peer a keyboard event, stamped with the time of the
// clock the frames are given.
func (p *Peer) Push(e input.Event) { p.local.sampler.Push(e) }

// ReleaseAll releases every key at now (the window lost the focus).
func (p *Peer) ReleaseAll(now time.Duration) { p.local.sampler.ReleaseAll(now) }

// Quit ends the game for everyone at an agreed tick; keep running
// frames until Done.
func (p *Peer) Quit(now time.Duration) { p.sess.Quit(now) }

// Done reports whether the session is over and has nothing left to send:
// close the socket and exit.
func (p *Peer) Done() bool { return p.sess.Done() }

// Err is why the game failed: the host's settings, or the session's
// error (a desync, a silent peer); nil for a clean end.
func (p *Peer) Err() error {
	if p.err != nil {
		return p.err
	}
	return p.sess.Err()
}

// Frame runs the frame at now: after the frame's datagrams are in, before
// the session's go out.
func (p *Peer) Frame(now time.Duration) {
	s := p.sess
	if p.game == nil {
		if s.SessionID() == 0 || p.err != nil {
			return // joining
		}
		p.setUp(now)
		if p.game == nil {
			return
		}
	}
	if err := s.Err(); err != nil && !s.Over() {
		var desync *netplay.DesyncError
		if errors.As(err, &desync) {
			s.Quit(now) // a game that diverged is over for everyone
		}
	}
	if p.fixed == nil {
		if s.State() != netplay.StateRunning {
			p.runner.Frame(now, 0, p.maxLoops) // the lobby; or over
			return
		}
		// Tick 0 starts when the session started: the wait in the lobby
		// is not owed time.
		f, err := loop.NewFixed(loop.FixedConfig{Tick: p.game.set.Tick(), MaxLoops: p.maxLoops, Lockstep: true}, s.StartedAt())
		if err != nil {
			p.fail(now, err)
			return
		}
		p.fixed = f
		p.local.lastEnd = s.StartedAt()
	}
	fr := p.fixed.Step(now)
	if fr.Capped {
		p.capped++
	}
	p.local.plan, p.local.now = fr, now
	p.runner.Frame(now, fr.Ticks, p.maxLoops)
	owed := p.runner.Owed()
	s.ReportLoad(fr.Debt+time.Duration(owed)*fr.Tick, p.capped)
	p.percent = fr.Percent
	if owed > 0 || s.Over() {
		p.percent = 1
	}
}

// Update is one call of an engine's fixed update, which the engine makes
// once a tick of the game (Ebitengine's Update at ebiten.SetTPS(TPS)),
// with the clock read at it: the Runner's Update runs that call's tick
// (and one owed from a stall, if any), unless time sync advises skipping
// it because this peer's game is ahead of the other's. It reports whether
// the call was skipped. Use either Frame or Update for a whole game.
func (p *Peer) Update(now time.Duration) (skipped bool) {
	s := p.sess
	if p.game == nil {
		if s.SessionID() == 0 || p.err != nil {
			return false // joining
		}
		p.setUp(now)
		if p.game == nil {
			return false
		}
	}
	if err := s.Err(); err != nil && !s.Over() {
		var desync *netplay.DesyncError
		if errors.As(err, &desync) {
			s.Quit(now)
		}
	}
	// Each tick samples the keys held up to this call.
	p.local.plan, p.local.now = loop.FixedFrame{}, now
	ran, skipped := p.runner.Update(now)
	owed := p.runner.Owed()
	s.ReportLoad(time.Duration(owed)*p.game.set.Tick(), p.capped)
	if ran > 0 {
		p.tickAt = now
	}
	p.skipped += btoi(skipped)
	return skipped
}

// TickAt is the clock reading of the last Update that ran a tick: Draw
// places the game between its last two ticks by the time since.
func (p *Peer) TickAt() time.Duration { return p.tickAt }

// Skipped counts the Updates time sync skipped.
func (p *Peer) Skipped() int { return p.skipped }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setUp makes the game and its Runner from the session's settings.
func (p *Peer) setUp(now time.Duration) {
	set, err := DecodeSettings(p.sess.Settings())
	if err != nil {
		p.fail(now, err)
		return
	}
	g := NewGame(set)
	r, err := netplay.NewRunner(p.sess, g, &p.local, netplay.RunnerConfig{Netcode: set.Netcode, Tick: set.Tick()})
	if err != nil {
		p.fail(now, err)
		return
	}
	g.SetSlots(r.Slots())
	p.game, p.runner = g, r
}

// fail ends the game here: it cannot be played.
func (p *Peer) fail(now time.Duration, err error) {
	p.err = err
	p.sess.Quit(now)
}

// LocalInput is the local player's input for tick: the bot's, or the
// directions held at any moment of the span of the frame's n-th tick
// (the frame's time for ticks owed from earlier frames).
func (l *localInput) LocalInput(tick uint64, n int, dst []byte) {
	if l.bot {
		dst[0] = BotInput(l.seed, tick)
		return
	}
	end := l.now
	if n < l.plan.Ticks {
		end = l.plan.Span(n).End
	}
	end = max(end, l.lastEnd)
	l.lastEnd = end
	rec := l.sampler.Tick(end)
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
	Netcode     netplay.Netcode
}

// Result is the peer's outcome so far.
func (p *Peer) Result() Result {
	if p.game == nil {
		return Result{}
	}
	st := p.runner.Stats()
	return Result{
		Ticks: p.game.State.Tick, Hash: p.game.Hash(),
		Rollbacks: st.Rollbacks, Resimulated: st.Resimulated,
		Score: p.game.State.Score, Netcode: p.game.set.Netcode,
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
