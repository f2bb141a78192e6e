// Package netplay puts a deterministic game on the network, for 2 to 8
// players (MaxPlayers): the host's game settings, every player's input of
// every tick, acknowledgements, resending, round-trip times, state-hash
// comparison, slow and silent players, and the end of the game. It knows
// nothing of the game: a player's input for a tick is InputSize bytes of
// the game's own encoding (Config.InputSize), the settings an opaque blob of at most
// MaxSettingsSize bytes (Config.Settings), the state a hash the game
// computes.
//
// It is plain Go: it reads no clock, opens no socket and starts no
// goroutine. The caller gives it the time, and a Transport carries its
// datagrams: Read hands a session what arrived, Write sends what it has
// due. Package netplay/udp is a Transport over a UDP socket, MemNet one in
// memory for tests; any network that carries datagrams can be one (see
// Transport: two methods that never block, and a third that may say
// nothing). Peers are named by string, a string of the transport's choosing.
//
// # Playing a game
//
// A game gives the library what it needs through a small interface, Game:
// Advance runs one tick with every player's input, Save and Load keep
// and restore its state in numbered slots, Hash hashes it. (GGRS hands
// the same requests to the caller as a list; in Go an interface call
// allocates nothing and keeps the caller's loop one call.) A Runner
// plays a Game over a Session with either netcode, one tick path for
// both: Lockstep runs a tick when every input is there, Rollback runs it
// at once on predicted inputs and corrects them when they arrive. One
// frame of a peer, with its fixed-step loop (package loop, in lockstep
// mode: the time debt is kept):
//
//	sess, _ := netplay.NewHost(netplay.Config{InputSize: 1, Players: 2,
//		Settings: settings}, clock.Now()) // or NewJoiner; no input delay
//	runner, _ := netplay.NewRunner(sess, game, game, netplay.RunnerConfig{Netcode: netplay.Rollback, Tick: tick})
//	conn, _ := udp.Listen(":7777", udp.Config{})
//	var offset time.Duration                           // time sync: time the loop does not count
//	for !sess.Done() {
//		now := clock.Now()
//		netplay.Read(now, conn, sess)                  // the datagrams that arrived
//		fr := fixed.Step(now - offset)                 // ticks due by the clock
//		runner.Frame(now, fr.Ticks, maxLoops)          // local input, ticks, rollbacks
//		offset += runner.TimeSync()                    // ahead of the others: slow down a little
//		sess.ReportLoad(fr.Debt+time.Duration(runner.Owed())*fr.Tick, capped)
//		netplay.Write(now, conn, sess)                 // new input goes out at once
//		draw(game, fr.Percent)                         // between the last two states
//	}
//
// A lockstep game is the same loop with RunnerConfig{Netcode:
// netplay.Lockstep} and an input delay (Config.Delay: netplay.DefaultDelay):
// Frame then runs no tick whose inputs are missing, and the loop keeps
// its debt until they come.
//
// The game's LocalInput method gives the local player's input for each
// tick (sampled over that tick's span of time, so that a tap is never
// lost); a Confirmer hears of each confirmed tick once, in order (a
// recording), a Predictor predicts a missing input itself. ExampleRunner
// plays a whole game between two sessions over a lossy MemNet, and
// ExampleTransport over a transport of its own.
//
// Time sync (RunnerConfig.Tick): a peer whose game runs ahead of another
// one's, because it started later, its machine stalled or its clock runs
// fast, would otherwise run on predictions at the prediction limit
// (rollback) or stall for late inputs (lockstep) for the rest of the
// game. Every game packet carries the sender's head (the ticks its game
// has run, predicted ones included); each peer estimates where the
// others' games are now (the head, plus half a round trip and the time
// since the report arrived, in ticks), and Runner.TimeSync asks the loop
// of the peer ahead by more than half a tick to count up to MaxSlowdown
// (3 %) less of each frame's time until they are level. Nobody is asked to
// hurry, and only the pacing changes: the ticks and their inputs do not.
// RunnerStats has the frame advantage and the slowdown.
//
// NewSyncTest checks a game on one machine through the same tick path: it
// rolls back and runs again every tick, comparing hashes, which catches
// a non-deterministic Advance or a Save that misses some state.
//
// Spectators: a host's Broadcast (around its Runner, passed to the
// transport instead of the Session) serves up to MaxSpectators
// spectators the confirmed inputs; one that arrives while the game runs
// first gets a snapshot of the game at a confirmed tick, through the
// game's Snapshotter. A spectator is a Spectator (the transport's
// endpoint) and a Watcher, which plays the game it receives and never
// makes the players wait. A Watcher is Done once it played the last tick
// and its Spectator's Poll told the host so; the host's Broadcast is Done
// once every spectator has the end (or went silent), so a spectator may
// close its socket as soon as its Watcher is Done. A spectator that goes
// before the end calls Spectator.Leave and polls once more: it says
// goodbye, and the host frees its place at once (BroadcastStats.Left)
// instead of serving it until its silence.
//
// Measured on a 2-core machine (the repository's docs/NETPLAY.md has the
// tables and the commands): a peer of a two-player game sends 1 to 3 KB a
// second; a spectator joins a game whose state is 24 KB in about 0.4 s;
// with one clock 2 % fast and 60 ms each way, time sync cuts the ticks
// re-simulated from 39.5 to 14.7 a second and the frames stalled at the
// prediction limit from 91 to 0 a second (go test -run TimeSync -v).
//
// # Lockstep with input delay
//
// A deterministic simulation reaches the same state on every machine from
// the same inputs, so the peers of a lockstep game exchange inputs, never
// state. All computers must be kept in synchronization: no peer may run
// tick t before it knows every player's record for tick t. Waiting for them on
// every tick would cost a round trip per tick, so each player's input is
// sampled Delay ticks early: when a peer is about to run tick t it samples
// its keyboard into the record for tick t+Delay and sends it at once; by
// the time the others reach tick t+Delay it has usually arrived. The
// records of the first Delay ticks are zero for everyone.
//
// When a record is late, the tick does not run: the fixed-tick loop keeps
// its time debt (lockstep mode), draws, and runs the owed ticks, maxLoops
// a frame, once the record is there. The time a peer spends so is stall
// time; when one player's record was alone missing, the peer waited for
// that player (Stats: Waited).
//
// A wait is not a fault. On a network whose round trip (and, between two
// joiners, the relay through the host) is longer than the input delay
// covers, the game waits for somebody's record on most ticks; a player
// that waits for another one's record sends its own late; and after a
// long wait everyone catches up at maxLoops ticks a frame. A slow
// computer that bogs the game down is measured by each peer on itself
// instead (Session.ReportLoad): the growth
// of its loop's time debt over the frames in which it had every input it
// needed, its own slowness. A player holds the game back for the time the
// others waited for it alone, as far as it was slow by itself (Stats:
// HeldBack), and that is what the host may kick it for (Config.KickAfter).
// A player that stops sending altogether is not slow but silent: it is
// found out by Silence.
//
// # What a first read can skip
//
// A game needs NewHost or NewJoiner, a Runner, a Transport, and Read and
// Write. The rest is for other uses, and the sections below say how:
// the session's tick calls (NeedInput, InputTick, AddLocalInput, Next,
// Ready, Advance), for a game that drives the session without a Runner
// (a session a Runner plays refuses them); Receive and Poll, which Read
// and Write make; and the tools for tests, MemNet (a network in memory),
// NetSim (one path of a simulated network, which MemNet and netplay/udp
// use) and its Conditions.
//
// # The session's own loop
//
// A game that does not use a Runner drives the Session itself. One frame
// of a lockstep peer, with the fixed-tick loop's plan fr (debt kept) and
// the ticks it owes in owed:
//
//	netplay.Read(now, conn, sess) // every datagram that arrived: sess.Receive
//	for ran := 0; owed > 0 && ran < maxLoops; ran++ {
//		t := sess.NextTick()
//		if sess.NeedInput() { // the input for t+Delay, sampled now
//			if err := sess.AddLocalInput(sess.InputTick(), encode(keyboard)); err != nil {
//				break // the window is full: stall
//			}
//		}
//		var ok bool
//		inputs, ok = sess.Next(now, inputs[:0]) // the buffer, reused
//		if !ok {
//			break // an input is missing: stall, the debt is kept
//		}
//		step(game, inputs, t) // inputs[p] is player p's, zero if sess.Disconnected(p, t)
//		sess.Advance(game.Hash) // hashes every HashEvery ticks
//		owed--
//	}
//	sess.ReportLoad(fr.Debt+time.Duration(owed)*fr.Tick, cappedFrames) // owed beyond the tick in progress
//	netplay.Write(now, conn, sess) // sess.Poll: new input goes out at once
//	draw(...)
//	if sess.Done() { exit with status 0 if sess.Err() == nil }
//
// Start the loop when the session reaches StateRunning (Session.StartedAt);
// on Q call Quit and keep running frames until Done: the game runs on to
// the quit's end tick (a few ticks, the input delay), and Next reports
// false from there on.
//
// # Topology
//
// The host is player 0 and the hub: a joiner talks only to the host, and
// the host relays every player's records to the others. So a joiner knows
// one address and accepts datagrams from it alone, NAT is no more trouble
// than for any client, and the host holds every record a joiner can have.
// The last point makes kicks deterministic: when the host kicks player k it
// names the first tick whose record of k it does not have; nobody can have
// run that tick (they would need k's record, which only the host could
// have relayed), and from it on everyone treats k's record as zero and k
// as Disconnected (what that means is the game's). A relayed record costs
// one more hop: between two joiners an input takes twice as long as
// between the host and a joiner (measured over loopback with 50 ms a
// hop: 105 against 53 ms, the host's relay itself under a millisecond;
// TestStarRelayLatency in netplay/udp); the input delay must cover it.
//
// # Reliability
//
// Every game packet carries, for each player, how many of its records the
// sender has (all ticks before that count: an acknowledgement), and the
// records the addressee lacks, oldest first, as many as fit. So a lost
// packet costs no round trip: the next one, sent at once for new input or
// every Resend while something is unacknowledged, carries the same records
// again. A player may run at most Window ticks of input ahead of what every
// peer acknowledged; beyond it AddLocalInput reports ErrWindowFull and the
// player stalls. That bounds the buffers and the packets.
//
// Each packet also carries a sequence number, the sender's clock (µs) and
// the echo of the newest clock received from the addressee with the time
// it was held, from which the round-trip time is measured without clock
// synchronization; the sender's head (the ticks its game has run) and
// latest state hash (the host: everyone's);
// its load (time debt, frames at maxLoops, time waited for each player,
// its own slowness);
// and, from the host, every player's status and the kicks.
//
// # Handshake and end
//
// A joiner sends Hello every 250 ms until the host's Welcome names its
// player index and carries the game (players, input delay, tick limit,
// input size, the game's settings) and the random session ID every later
// packet carries. A joiner whose InputSize is not the host's fails with a
// MismatchError; settings larger than its Config.MaxSettings are refused
// (SettingsTooLargeError). The host answers a Hello only from a new
// address while a slot is free (or a known one whose Welcome was lost),
// and a Hello is padded to HelloSize (the largest packet) so that no
// answer is larger than the question. When every slot is taken and
// every joiner has answered its Welcome, the host starts: its first game
// packet is the start, and each joiner begins at tick 0 when it arrives.
// A joiner's answer says that it is ready: the caller sends it (its first
// Poll after the Welcome) once its frame loop runs, after whatever set-up
// the Welcome's settings need (a window, a renderer), so that every peer's
// tick 0 starts at about the same time; a lockstep game never makes up a
// head start, the peer ahead stalls every frame for the whole game. The
// host keeps a welcomed slot for JoinTimeout without an answer, and a
// joiner counts the host's silence from its answer.
// A joiner or spectator whose transport reports that nothing listens at
// the host's address (Session.Unreachable, Spectator.Unreachable; netplay/udp's
// Conn.Connect) ends at once with an UnreachableError; a host without a
// Broadcast refuses a spectator's Hello at once.
//
// The game ends for everyone at one agreed tick (Session.EndTick) when
// the tick limit is reached or a player quits: every peer stops there by
// itself, after delivering its last records, and all of them end in the
// same state. A player that quits names the first tick whose input it has
// not given (nobody can have run it: nobody has that input) and gives no
// more; the news goes out in every packet until the others say they have
// it (the host relays it), and every peer, the quitter included, runs the
// ticks before it, giving its own inputs for them, and ends there. Of
// several quits the earliest tick counts. The game also ends when a peer
// is silent for Silence (the others end with an error naming it, or, with
// KickAfter, go on without it), which ends a game waiting for its end tick
// too; or, for a joiner, when the host kicks it ("kicked: too slow (held
// the game back N ms in 10 s)"). A player that quits in the lobby leaves
// at once (the host frees its slot; a host that quits there ends the game
// for everyone). A peer whose game is over says so a few times and stays
// until the others have what they need from it, or Linger passes. A
// state-hash mismatch ("desync at tick N: local HASH, player K HASH") does
// not end the session unless Config.EndOnDesync says so: every peer finds
// it (an EventDesync; Err, the earliest one, once the game is over), and
// the game decides. Session.PollEvent gives a game what to show each
// frame without allocating: the lobby's progress, the start, a player
// interrupted and resumed, disconnected (and why), a desync, time sync's
// advice to wait, the end. Config.Disconnect says whether a silent joiner
// ends the game or is played on without from an agreed tick; the host
// may also drop a joiner by hand (Session.Kick).
//
// # Hostile input
//
// Receive drops and counts (Stats.BadPackets) anything that is not a
// well-formed packet of this version and session from a player's address:
// the decoder accepts exactly one encoding per packet, never allocates,
// never panics, and bounds every count (FuzzDecode). Nothing is sent to an
// address that is not a player's, except the host's answer to a Hello: a
// Welcome in the lobby while a slot is free, a Reject of another version
// there, and a Reject of a game that takes no more players otherwise (so
// that such a joiner ends at once, not after JoinTimeout). A Reject is
// smaller than the Hello, and a host sends one a Poll at most.
//
// # Wire format
//
// Version 4 (version 3 was the same, for at most 4 players). "uv" is a minimal unsigned LEB128 varint; "u32" and "u64"
// are little-endian. Every packet starts with
//
//	offset size field
//	0      2    magic "NP" (4e 50)
//	2      1    protocol version, 4
//	3      1    type: 1 Hello, 2 Welcome, 3 Reject, 4 Lobby, 5 Game
//	4      8    u64 session ID (0 in Hello and Reject)
//
// and goes on by type:
//
//	type     from    body
//	Hello    joiner  u64 token (random, not 0); zeros up to HelloSize (1200) bytes in all
//	Welcome  host    u64 token (the Hello's), u8 player index, u8 players, u8 input delay,
//	                 uv tick limit, uv desync check interval (0: none), u8 input size (1..32), uv settings length (0..1024),
//	                 the settings
//	Reject   host    u8 reason (1: protocol version, 2: the game takes no more players); the header carries the host's version
//	Lobby    both    link, u8 players present (host; 0 from a joiner)
//	Game     both    link, uv head, u8 n (players), n × uv have,
//	                 [host] uv low,
//	                 u8 hashes, each: u8 player, uv ticks run, u64 state hash,
//	                 uv debt (ms), uv frames at maxLoops, n × uv waited (ms),
//	                 [host] n × (uv head, uv debt ms, uv frames at maxLoops,
//	                         uv held back ms, uv round trip µs, uv age µs),
//	                 [host] u8 kicks, each: u8 player, uv first disconnected tick,
//	                         u8 reason (1 slow, 2 silent, 3 left, 4 by hand), uv held back ms,
//	                 [end]  u8 reason (1 quit, 2 tick limit, 3 silent, 4 left, 5 kicked),
//	                        u8 player, [quit] uv end tick (the first tick nobody runs),
//	                 u8 blocks, each: u8 player, uv first tick, u8 count (1..64),
//	                         runs: uv length, the record (input size bytes)
//
// where link is
//
//	u8 sender's player index, u32 sequence number, u32 sender's clock (µs, odd),
//	u32 echo (the newest clock received from the addressee; 0: none),
//	uv hold (µs from receiving the echoed packet to sending this one),
//	u8 flags: bit 0 the sender's game is over, bit 1 [end] present,
//	          bit 2 [host] sections present (Lobby: bit 0 only)
//
// "head" is the number of ticks the sender's game has run, predicted ones
// included (a rollback game runs ahead of its confirmed ticks); in the
// host's section, each player's as it last reported it, with its "age":
// the time from the host hearing it to sending this packet (2^32-1 before
// it heard one), and the round trip between the host and the player
// (time sync, Runner.TimeSync).
// [end] says why the sender's game ended; while a game runs on to a quit's
// end tick (bit 0 clear), it carries the quit.
// "waited" is, per player, the time the sender waited with only that
// player's input missing; in the sender's own slot (nobody waits for its
// own input) it is the sender's own slowness (Session.ReportLoad). "held
// back" is the host's figure of what each player held the game back: the
// longest wait for it alone, as far as it was slow by itself.
// "have" is, per player, the number of ticks from 0 whose records the
// sender has: the acknowledgement. "low" tells a joiner the lowest "have"
// of its own records among all peers: its input window. A block's records
// are run-length encoded; neighbouring runs differ, and lists go in
// increasing player order, so each packet has one encoding. Blocks go
// last: when they do not fit in MaxPacketSize (1200) bytes, each keeps an
// equal share, oldest records first, and the rest go in the next packet.
// A typical game packet is 40 to 150 bytes.
package netplay
