// Package netplay puts a deterministic game on the network, for 2 to 8
// players (MaxPlayers), with lockstep or rollback netcode, spectators who
// join late, time sync, and any transport: the host's game settings,
// every player's input of every tick, acknowledgements, resending,
// round-trip times, state-hash comparison, slow and silent players, and
// the end of the game. It knows nothing of the game: a player's input for
// a tick is Config.InputSize bytes of the game's own encoding, the
// settings an opaque blob of at most MaxSettingsSize bytes, the state a
// hash the game computes.
//
// It is plain Go: it reads no clock, opens no socket and starts no
// goroutine. The caller gives it the time and a Transport that carries
// its datagrams: package netplay/udp is one over a UDP socket,
// netplay/webrtc one over WebRTC data channels, netplay/netsim a network
// in memory for tests; any network that carries datagrams can be one
// (three methods that never block). Peers are named by strings of the
// transport's choosing.
//
// # Playing a game
//
// A game gives the library what it needs through a small interface,
// Game: Advance runs one tick with every player's input, Save and Load
// keep and restore its state in numbered slots, Hash hashes it, and
// LocalInput gives the local player's input for a tick. (GGRS hands the
// same requests to the caller as a list; in Go an interface call
// allocates nothing and keeps the caller's loop one call.) Host or Join
// makes a Session that plays the game over a transport, with either
// netcode on one tick path: Rollback runs a tick at once on predicted
// inputs and corrects them when they arrive; Lockstep runs a tick when
// every input is there, and an input delay (Config.Delay) hides the round
// trip. A whole game over UDP, both players' side:
//
//	conn, _ := udp.Listen(":7777", udp.Config{})        // a joiner: ":0", then host, _ := conn.Connect(addr)
//	sess, _ := netplay.Host(netplay.Config{InputSize: 1, Tick: tick, TickLimit: 1000}, game, conn, clock.Now())
//	//      or netplay.Join(netplay.Config{InputSize: 1}, game, conn, host, clock.Now())
//	for !sess.Done() {
//		sess.Update(clock.Now()) // once a tick: datagrams in, a tick, datagrams out
//		sleepUntilNextTick()
//	}
//
// The repository's examples/netplay is that game, whole, in 60 lines. A
// loop that draws between ticks (package loop's fixed step, in lockstep
// mode: the time debt kept) calls Frame with the ticks due instead:
//
//	var offset time.Duration                 // time sync: time the loop does not count
//	for !sess.Done() {
//		now := clock.Now()
//		fr := fixed.Step(now - offset)       // ticks due by the clock
//		sess.Frame(now, fr.Ticks, maxLoops)  // datagrams in, local input, ticks, rollbacks, datagrams out
//		sess.ReportLoad(fr.Debt)             // its own slowness, for Config.KickAfter
//		offset += sess.TimeSync()            // ahead of the others: slow down a little
//		draw(game, fr.Percent)               // between the last two states
//	}
//
// A joiner whose game is made from the host's settings joins without it
// (Join's game nil), calls Frame until Config has them (StateLobby), and
// gives the game with Play: only then does it tell the host it is ready,
// so that every peer's tick 0 starts at about the same time. A
// Confirmer hears of each confirmed tick once, in order (a recording); a
// Predictor predicts a missing input itself. PollEvent gives, each frame,
// what a game shows: the lobby's progress, the start, a player
// interrupted and resumed, disconnected, a desync, the end.
//
// Time sync: a peer whose game runs ahead of another one's, because it
// started later, its machine stalled or its clock runs fast, would
// otherwise run on predictions at the prediction limit (rollback) or
// stall for late inputs (lockstep) for the rest of the game. Every game
// packet carries the sender's head (the ticks its game has run,
// predicted ones included); each peer estimates where the others' games
// are now, and TimeSync asks the loop of the peer ahead by more than half
// a tick to count up to 3 % less of each frame's time until they are
// level (Update skips a tick now and then instead). Nobody is asked to
// hurry, and only the pacing changes: the ticks and their inputs do not.
//
// SyncTest checks a game on one machine through the same tick path: it
// rolls back and runs again every tick, comparing hashes, which catches a
// non-deterministic Advance or a Save that misses some state.
//
// Spectators: a host with Config.MaxSpectators serves that many
// spectators the confirmed inputs; one that arrives while the game runs
// first gets a snapshot of the game at a confirmed tick, through the
// game's Snapshotter. Watch makes a Spectator, which plays the game it
// receives and never makes the players wait; it is Done once it played
// the last tick and told the host so, and the host is Done once every
// spectator has the end (or went silent). A spectator that goes before
// the end calls Leave: it says goodbye, and the host frees its place at
// once instead of serving it until its silence.
//
// # Lockstep with input delay
//
// A deterministic simulation reaches the same state on every machine from
// the same inputs, so the peers of a lockstep game exchange inputs, never
// state. No peer may run tick t before it knows every player's record
// for tick t. Waiting for them on every tick would cost a round trip per
// tick, so each player's input is sampled Delay ticks early: when a peer
// is about to run tick t it samples its input for tick t+Delay and sends
// it at once; by the time the others reach tick t+Delay it has usually
// arrived. The records of the first Delay ticks are zero for everyone.
// Lockstep in a game without input delay plays rollback.
//
// When a record is late, the tick does not run: it stays owed, the loop
// draws, and the owed ticks run, maxLoops a frame, once the record is
// there. The time a peer spends so is stall time; when one player's
// record was alone missing, the peer waited for that player (PeerStats:
// Waited).
//
// A wait is not a fault. On a network whose round trip (and, between two
// joiners, the relay through the host) is longer than the input delay
// covers, the game waits for somebody's record on most ticks. A slow
// computer that bogs the game down is measured by each peer on itself
// instead: the growth of its loop's time debt (ReportLoad, and the ticks
// the session owes) over the frames in which it had every input it
// needed, its own slowness. A player holds the game back for the time
// the others waited for it alone, as far as it was slow by itself
// (PeerStats: HeldBack), and that is what the host may kick it for
// (Config.KickAfter). A player that stops sending altogether is not slow
// but silent: it is found out by Config.Silence.
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
// again. A player may run at most 64 ticks of input ahead of what every
// peer acknowledged; beyond it the player stalls. That bounds the buffers
// and the packets.
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
// tick length, input size, the game's settings) and the random session ID
// every later packet carries. A joiner whose InputSize or Tick is not the
// host's fails (ErrMismatch); settings larger than its Config.MaxSettings
// are refused (ErrTooLarge). The host answers a Hello only from a new
// address while a slot is free (or a known one whose Welcome was lost),
// and a Hello is padded to MaxPacketSize bytes so that no
// answer is larger than the question. When every slot is taken and
// every joiner has answered its Welcome, the host starts: its first game
// packet is the start, and each joiner begins at tick 0 when it arrives.
// A joiner's answer says that it is ready: it goes out once the session
// has its game (Play), after whatever set-up the Welcome's settings need
// (a window, a renderer), so that every peer's tick 0 starts at about the
// same time; a lockstep game never makes up a head start, the peer ahead
// stalls every frame for the whole game. The
// host keeps a welcomed slot for JoinTimeout without an answer, and a
// joiner counts the host's silence from its answer.
// A joiner or spectator whose transport reports that nothing listens at
// the host's address (Transport.Unreachable; netplay/udp's Conn.Connect)
// ends at once (ErrUnreachable); a host that serves no spectators refuses
// a spectator's Hello at once.
//
// The game ends for everyone at one agreed tick when
// the tick limit is reached or a player quits: every peer stops there by
// itself, after delivering its last records, and all of them end in the
// same state. A player that quits names the first tick whose input it has
// not given (nobody can have run it: nobody has that input) and gives no
// more; the news goes out in every packet until the others say they have
// it (the host relays it), and every peer, the quitter included, runs the
// ticks before it, giving its own inputs for them, and ends there. Of
// several quits the earliest tick counts. The game also ends when a peer
// is silent for Silence (the others end with an error naming it, or,
// with PlayOn, go on without it), which ends a game waiting for its end tick
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
// advice to wait, the end. Config.PlayOn says whether a silent joiner
// ends the game or is played on without from an agreed tick; the host
// may also drop a joiner by hand (Session.Kick).
//
// # Hostile input
//
// A session drops and counts (Stats.BadPackets) anything that is not a
// well-formed packet of this version and session from a player's address:
// the decoder accepts exactly one encoding per packet, never allocates,
// never panics, and bounds every count (FuzzDecode). Nothing is sent to an
// address that is not a player's, except the host's answer to a Hello: a
// Welcome in the lobby while a slot is free, a Reject of another version
// there, and a Reject of a game that takes no more players otherwise (so
// that such a joiner ends at once, not after JoinTimeout). A Reject is
// smaller than the Hello, and a host sends one a frame at most. A frame
// reads at most 4,096 datagrams, so that a flood cannot hold it up: the
// rest wait in the transport, which bounds them.
//
// # Wire format
//
// Version 5 (version 4 had no tick length in the Welcome; version 3 was
// version 4 for at most 4 players). "uv" is a minimal unsigned LEB128 varint; "u32" and "u64"
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
//	Hello    joiner  u64 token (random, not 0); zeros up to 1200 bytes in all (MaxPacketSize)
//	Welcome  host    u64 token (the Hello's), u8 player index, u8 players, u8 input delay,
//	                 uv tick limit, uv desync check interval (0: none), uv tick length (µs),
//	                 u8 input size (1..32), uv settings length (0..1024),
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
// (time sync, Session.TimeSync).
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
