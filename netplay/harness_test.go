package netplay

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

const ms = time.Millisecond

// A harness runs several Sessions through one simulated network on a
// manual clock that advances a millisecond at a time. Each peer runs a
// frame loop like the demo's: every frame it runs the ticks the fixed-tick
// loop owes (the debt is kept, lockstep), at most maxLoops of them,
// stopping at the first tick that is not ready; its players are bots.
type harness struct {
	t     *testing.T
	net   *netsim.Path
	peers []*tpeer
	now   time.Duration
	tick  time.Duration
	// maxPackets bounds the packets the test may send.
	maxPackets int64
	// strays counts packets sent to an address that is no peer.
	strays int
	// sentTo counts the packets sent to each address; rejectsTo those of
	// them that are a Reject of a full game.
	sentTo, rejectsTo map[string]int
	// drop, if set, drops the packets it reports true for on arrival.
	drop func(from, to string, pkt []byte) bool
}

type tpeer struct {
	h        *harness
	name     string
	s        *session
	addr     string
	frame    time.Duration // frame interval
	maxLoops int
	next     time.Duration // next frame
	started  bool
	start    time.Duration
	// hist[t] is every player's record of tick t as this peer ran it,
	// auto[t] which players were autonomous.
	hist  [][MaxPlayers]trec
	auto  [][MaxPlayers]bool
	state uint64 // the running "world": a hash of every record so far
	// Faults.
	dead    bool   // crashed: runs nothing, hears nothing, says nothing
	lieAt   uint64 // reports a wrong hash after this many ticks
	quitAt  uint64 // quits after this many ticks
	slowEnd uint64 // frames slow (frame, maxLoops) only until this tick; 0: always
	fast    time.Duration
	endAt   time.Duration // when the session reached StateEnded
	overAt  time.Duration // when the game was over (StateEnding)
	recs    [][]byte
	in      trec

	// lies: it also reports a wrong hash after each of these tick counts.
	lies map[uint64]bool
	// quitTick is its InputTick when it quit (0: it did not): the end
	// tick it asked for.
	quitTick uint64
	// reported[n] is the hash it reported after n ticks.
	reported map[uint64]uint64
	sendFn   func(string, []byte)
	hashFn   func() uint64
}

func newHarness(t *testing.T, c netsim.Conditions, seed uint64) *harness {
	t.Helper()
	n, err := netsim.NewPath(c, seed, 1024)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, net: n, tick: 40 * ms, maxPackets: 200000, sentTo: map[string]int{}, rejectsTo: map[string]int{}}
}

func addr(i int) string {
	return fmt.Sprintf("10.0.0.%d:%d", 1+i, 7000+i)
}

// game sets up a host with cfg and players-1 joiners, all created at 0.
func (h *harness) game(cfg config, players int) {
	h.t.Helper()
	cfg.Players = players
	cfg.Nonce = 0x5e55_1011_d00d_0001
	cfg.InputSize = testInputSize
	hs, err := newHost(cfg, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	h.add("host", hs, addr(0))
	for i := 1; i < players; i++ {
		js, err := newJoiner(config{InputSize: testInputSize, Nonce: uint64(1000 + i), Silence: cfg.Silence, Linger: cfg.Linger}, addr(0), 0)
		if err != nil {
			h.t.Fatal(err)
		}
		h.add(fmt.Sprintf("joiner%d", i), js, addr(i))
	}
}

func (h *harness) add(name string, s *session, a string) *tpeer {
	p := &tpeer{h: h, name: name, s: s, addr: a, frame: 16 * ms, maxLoops: 5}
	// Frames of different peers are out of phase.
	p.next = time.Duration(len(h.peers)*5) * ms
	p.recs = make([][]byte, 0, MaxPlayers)
	p.sendFn = func(to string, pkt []byte) {
		if h.peerAt(to) == nil {
			h.strays++
		}
		h.sentTo[to]++
		if len(pkt) == headerSize+1 && msgType(pkt[3]) == msgReject && pkt[headerSize] == rejectFull {
			h.rejectsTo[to]++
		}
		h.net.Send(h.now, p.addr, to, pkt)
	}
	p.reported = map[uint64]uint64{}
	p.hashFn = func() uint64 {
		hash := p.state
		if (p.lieAt != 0 && p.s.NextTick() == p.lieAt) || p.lies[p.s.NextTick()] {
			hash ^= 1
		}
		p.reported[p.s.NextTick()] = hash
		return hash
	}
	h.peers = append(h.peers, p)
	return p
}

func (h *harness) peerAt(a string) *tpeer {
	for _, p := range h.peers {
		if p.addr == a {
			return p
		}
	}
	return nil
}

func (h *harness) deliver(from, to string, pkt []byte) {
	if p := h.peerAt(to); p != nil && !p.dead && (h.drop == nil || !h.drop(from, to, pkt)) {
		p.s.Receive(h.now, from, pkt)
	}
}

// step advances the clock by 1 ms: delivers what is due and runs the
// frames that are due.
func (h *harness) step() {
	h.net.Deliver(h.now, h.deliver)
	for _, p := range h.peers {
		if !p.dead && h.now >= p.next {
			p.doFrame()
			p.next += p.frame
			if p.fast != 0 && p.slowEnd != 0 && p.s.NextTick() >= p.slowEnd {
				p.frame, p.maxLoops = p.fast, 5
			}
		}
	}
	h.now += ms
	if s := h.net.Stats().Sent; s > h.maxPackets {
		h.t.Fatalf("at %v: %d packets sent, more than the test's bound %d", h.now, s, h.maxPackets)
	}
}

// run steps until every live peer is done, or fails at limit.
func (h *harness) run(limit time.Duration) {
	h.t.Helper()
	h.runUntil(limit, func() bool {
		for _, p := range h.peers {
			if !p.dead && !p.s.Done() {
				return false
			}
		}
		return true
	})
}

func (h *harness) runUntil(limit time.Duration, done func() bool) {
	h.t.Helper()
	for !done() {
		if h.now > limit {
			for _, p := range h.peers {
				h.t.Logf("%s: state %v tick %d err %v stats %+v", p.name, p.s.State(), p.s.NextTick(), p.s.Err(), p.s.Stats())
			}
			h.t.Fatalf("not done after %v", limit)
		}
		h.step()
	}
}

func (p *tpeer) doFrame() {
	s, now := p.s, p.h.now
	if s.State() == StateRunning && !p.started {
		p.started, p.start = true, s.StartedAt()
	}
	if s.State() == StateRunning {
		due := uint64((now - p.start) / p.h.tick)
		for range p.maxLoops {
			if s.NextTick() >= due {
				break
			}
			if s.NeedInput() {
				it := s.InputTick()
				p.in = botInput(botSeed(s.Index()), uint64(s.Delay()), it)
				err := s.AddLocalInput(it, p.in[:])
				if errors.Is(err, errWindowFull) {
					break
				}
				if err != nil {
					p.h.t.Fatalf("%s: AddLocalInput: %v", p.name, err)
				}
			}
			recs, ok := s.Next(now, p.recs)
			if !ok {
				break
			}
			t := s.NextTick()
			var row [MaxPlayers]trec
			var auto [MaxPlayers]bool
			for q, in := range recs {
				copy(row[q][:], in)
			}
			for q := range s.Players() {
				auto[q] = s.Disconnected(q, t)
			}
			p.hist = append(p.hist, row)
			p.auto = append(p.auto, auto)
			p.state = worldStep(p.state, t, recs)
			if err := s.Advance(p.hashFn); err != nil {
				p.h.t.Fatalf("%s: Advance: %v", p.name, err)
			}
			if p.quitAt != 0 && s.NextTick() == p.quitAt {
				p.quitTick = s.InputTick()
				s.Quit(now)
				break
			}
		}
		debt := max(0, now-p.start-time.Duration(s.NextTick()+1)*p.h.tick)
		s.ReportLoad(debt, 0)
	}
	s.Poll(now, sendFunc(p.sendFn))
	if s.Over() && p.overAt == 0 {
		p.overAt = now
	}
	if s.Done() && p.endAt == 0 {
		p.endAt = now
	}
}

// worldStep is the test's stand-in for a deterministic world: a hash
// (FNV-1a) of every record of every tick, in order.
func worldStep(h uint64, t uint64, recs [][]byte) uint64 {
	if h == 0 {
		h = 14695981039346656037
	}
	feed := func(x uint64) {
		for range 8 {
			h ^= x & 0xff
			h *= 1099511628211
			x >>= 8
		}
	}
	feed(t)
	for _, r := range recs {
		for _, b := range r {
			feed(uint64(b))
		}
	}
	return h
}

func botSeed(index int) uint64 { return 0xb07_0000 + uint64(index)*7919 }

// checkHistories checks that every peer ran, for every tick, the records
// the bots made (zero for a kicked player from its kick tick on), so that
// all of them saw the same input; and that at least minTicks ran.
func (h *harness) checkHistories(minTicks int) {
	h.t.Helper()
	var kickFrom [MaxPlayers]uint64
	var kicked [MaxPlayers]bool
	host := h.peers[0].s
	for q := range host.Players() {
		kickFrom[q], kicked[q] = host.Kicked(q)
	}
	delay := uint64(host.Delay())
	for _, p := range h.peers {
		if p.s.Err() != nil && !errors.Is(p.s.Err(), ErrKicked) {
			continue
		}
		hist := p.hist
		if i := p.s.Index(); kicked[i] && uint64(len(hist)) > kickFrom[i] {
			// A kicked player may run on with its own input before it
			// hears of the kick: only the ticks before it count.
			hist = hist[:kickFrom[i]]
		}
		if len(p.hist) < minTicks && !p.dead && p.s.Stats().Kicks == 0 {
			h.t.Errorf("%s ran %d ticks, want at least %d", p.name, len(p.hist), minTicks)
		}
		for t, row := range hist {
			for q := range host.Players() {
				want := botInput(botSeed(q), delay, uint64(t))
				auto := kicked[q] && uint64(t) >= kickFrom[q]
				if auto {
					want = trec{}
				}
				if row[q] != want || p.auto[t][q] != auto {
					h.t.Fatalf("%s tick %d player %d: record %v autonomous %v, want %v %v",
						p.name, t, q, row[q], p.auto[t][q], want, auto)
				}
			}
		}
	}
}

// checkNoStrays checks that no packet went to an address that is not a
// player.
func (h *harness) checkNoStrays() {
	h.t.Helper()
	if h.strays != 0 {
		h.t.Errorf("%d packets sent to addresses that are no player", h.strays)
	}
	for _, p := range h.peers {
		if p.s.encodeFail != 0 {
			h.t.Errorf("%s: %d packets failed to encode", p.name, p.s.encodeFail)
		}
	}
}

// addrIndex is the i of addr(i), or -1.
func addrIndex(a string) int {
	var i, port int
	if _, err := fmt.Sscanf(string(a), "10.0.0.%d:%d", &i, &port); err != nil || port != 7000+i-1 {
		return -1
	}
	return i - 1
}
