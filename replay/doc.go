// Package replay records and replays a deterministic fixed-tick
// simulation.
//
// A deterministic simulation reaches the same state from the same start
// and the same inputs, whatever the frame rate it ran at. So a recording
// needs no frames and no times: only the settings the world started from,
// the input record of every logic tick (package input), the commands that
// changed the simulation other than through input (a reset, a new ball
// count) with the tick they came before, and state hashes along the way to
// prove the replay reached the same state. That is what a Recording holds.
//
// Record while the game runs, then write the file atomically:
//
//	r := replay.NewRecorder(settings, 0) // a checkpoint every 100 ticks
//	// for every logic tick, after the world stepped:
//	r.Tick(in, world.Hash) // calls world.Hash only at checkpoints
//	// when the player resets the world, before the next tick:
//	r.Command(replay.Command{Kind: replay.CmdReset})
//	// at exit:
//	err := r.Finish(world.Hash()).WriteFile(path)
//
// Replay it at any frame rate, checking the hashes as it goes (see Player):
//
//	rec, err := replay.ReadFile(path)
//	p := rec.Player()
//	for {
//		cmds, in, ok := p.Next()
//		... apply cmds; if !ok, break; step the world with in ...
//		if err := p.Check(world.Hash); err != nil {
//			return err // "state diverges at tick 1234: recorded hash ..."
//		}
//	}
//	err = p.CheckFinal(world.Hash())
//
// # Ticks and commands
//
// Ticks are counted from 1: checkpoint N is the state hash after the N-th
// tick. A command recorded when N ticks had run applies after tick N and
// before tick N+1; one recorded after the last tick applies before the
// final hash, so Player.Next hands it out together with ok = false.
//
// # Size
//
// Identical consecutive input records are stored once, with a count, and
// every number is a varint, so time with nothing happening costs almost
// nothing: an idle minute at 25 ticks a second (1500 empty ticks, 15
// checkpoints) is about 180 bytes, 135 of them the checkpoint hashes. Each
// change of input costs about 5 bytes.
//
// # Reading untrusted files
//
// Decode and ReadFile never panic and keep memory bounded whatever the
// file's length fields say: ReadFile checks the size before reading and
// reads at most MaxFileSize bytes; the checksum is verified before any
// count is trusted; every count is checked against the bytes left before
// anything is allocated (the decoded Recording takes at most 32 bytes of
// memory per byte of file: a one-player input run is 4 bytes in the file
// and 104 in memory, room for every player's record); runs are never expanded into one entry per
// tick. Errors are one line and name the problem, and the file for
// ReadFile.
//
// # Format
//
// Versions 1 and 2: version 2 is a network game of 2 to MaxPlayers
// players, with one input record per player per tick; a one-player
// recording is always written as version 1. "uv" is an unsigned LEB128 varint as written by
// encoding/binary.AppendUvarint, and must be minimal (no trailing 0x80
// groups); "sv" is a signed varint, zigzag encoded as by
// encoding/binary.AppendVarint; "u32" and "u64" are little-endian.
//
//	offset  size  field
//	0       4     magic "IDRP" (49 44 52 50)
//	4       1     version, 1 or 2
//	5       4     u32 payload length P (at most MaxFileSize-13)
//	9       P     payload, below
//	9+P     4     u32 CRC-32C (Castagnoli) of bytes 0 to 9+P-1
//
// The file is exactly 13+P bytes; anything after the checksum is an error.
// The payload, field after field:
//
//	uv   seed
//	uv   balls                               (fits in 32 bits)
//	sv   width, height, radius, speed        (each fits in 32 bits)
//	sv   tick length, nanoseconds
//	uv   max loops                           (fits in 32 bits)
//	1    flags: bit 0 lockstep; other bits 0
//	uv   N, the number of players            (version 2 only: 2 to 8;
//	                                          version 1: N = 1)
//	uv   initial held buttons                (fits in 32 bits)
//	uv   T, the number of ticks              (at most MaxTicks)
//	u64  final state hash
//	uv   R, the number of input runs
//	R ×  uv count (>= 1)
//	     N × uv held, uv pressed, uv released (player 0 first; button
//	                                          sets, 32 bits)
//	                                         (counts sum to T; neighbouring
//	                                          runs hold different records)
//	uv   C, the number of commands
//	C ×  uv tick delta: At minus the previous command's At (the first: At)
//	     1  kind: 1 Reset, 2 SetBalls, 3 SetTick, 4 Release (a player
//	        left: argument 0 to N-1; version 2 only)
//	     sv argument
//	                                         (the last At is at most T)
//	uv   K, the number of checkpoints
//	K ×  uv tick delta (>= 1): Tick minus the previous checkpoint's Tick
//	        (the first: Tick)
//	     u64 state hash
//	                                         (the last Tick is at most T)
//
// The payload ends exactly after the last checkpoint. Because varints are
// minimal and runs maximal, every recording has exactly one encoding:
// decoding and encoding again gives the same bytes.
//
// A 4-tick example, 76 bytes (TestGoldenBytes): seed 7, 3 balls,
// 640×480, radius 8, speed 16, 40 ms ticks, 10 max loops, lockstep; two
// idle ticks, a tick pressing Right (button 1, bit 0x02), a tick releasing
// it; SetBalls(5) before the first tick, Reset after the third;
// checkpoints after ticks 2 and 4:
//
//	49 44 52 50  01  3f 00 00 00             magic, version, P = 63
//	07 03 80 0a c0 07 10 20 80 e8 92 26 0a 01  settings
//	00 04                                    initial held, T = 4
//	ef be ad de 0d f0 fe ca                  final hash 0xcafef00ddeadbeef
//	03  02 00 00 00  01 02 02 00  01 00 00 02  runs
//	02  00 02 0a  03 01 00                   commands
//	02  02 88 77 66 55 44 33 22 11           checkpoints
//	    02 08 07 06 05 04 03 02 01
//	xx xx xx xx                              CRC-32C of the 72 bytes above
package replay
