package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// goldenRecording is the example of the package documentation.
func goldenRecording() *Recording {
	right := input.Of(input.Right)
	return &Recording{
		Settings: Settings{Seed: 7, Balls: 3, Width: 640, Height: 480, Radius: 8, Speed: 16,
			Tick: 40 * time.Millisecond, MaxLoops: 10, Lockstep: true},
		Inputs: []Run{
			{Count: 2},
			{Count: 1, Record: input.Record{Held: right, Pressed: right}},
			{Count: 1, Record: input.Record{Released: right}},
		},
		Commands: []TimedCommand{
			{At: 0, Command: Command{Kind: CmdSetBalls, Arg: 5}},
			{At: 3, Command: Command{Kind: CmdReset}},
		},
		Checkpoints: []Checkpoint{{Tick: 2, Hash: 0x1122334455667788}, {Tick: 4, Hash: 0x0102030405060708}},
		FinalHash:   0xcafef00ddeadbeef,
	}
}

// TestGoldenBytes checks the encoding byte by byte against the layout
// derived by hand in the package documentation (varints worked out on
// paper: 640 zigzags to 1280 = 0x80 0x0a; 480 to 960 = 0xc0 0x07; 40 ms =
// 40,000,000 ns zigzags to 80,000,000 = 0x80 0xe8 0x92 0x26).
func TestGoldenBytes(t *testing.T) {
	want := unhex(t, `
		49 44 52 50  01  3f 00 00 00
		07 03 80 0a c0 07 10 20 80 e8 92 26 0a 01
		00 04
		ef be ad de 0d f0 fe ca
		03  02 00 00 00  01 02 02 00  01 00 00 02
		02  00 02 0a  03 01 00
		02  02 88 77 66 55 44 33 22 11
		    02 08 07 06 05 04 03 02 01`)
	want = binary.LittleEndian.AppendUint32(want, crc32.Checksum(want, crc32.MakeTable(crc32.Castagnoli)))
	got, err := goldenRecording().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding:\n got %x\nwant %x", got, want)
	}
	if len(got) != 76 {
		t.Fatalf("%d bytes, the documentation says 76", len(got))
	}
	dec, err := Decode(want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dec, goldenRecording()) {
		t.Fatalf("decoded %+v", dec)
	}
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRoundTrip encodes random recordings, decodes them back, and checks
// they are equal and encode to the same bytes again.
func TestRoundTrip(t *testing.T) {
	for seed := uint64(0); seed < 400; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		sc := randomScript(rng, 3000)
		rec, _ := sc.record(uint32(rng.IntN(200)))
		if rng.IntN(4) == 0 {
			rec.InitialHeld = input.Buttons(rng.Uint32())
		}
		b, err := rec.MarshalBinary()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		dec, err := Decode(b)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !reflect.DeepEqual(dec, rec) {
			t.Fatalf("seed %d: decoded %+v, want %+v", seed, dec, rec)
		}
		var again Recording
		if err := again.UnmarshalBinary(b); err != nil || !reflect.DeepEqual(&again, rec) {
			t.Fatalf("seed %d: UnmarshalBinary: %v", seed, err)
		}
		b2, _ := dec.AppendBinary([]byte("prefix"))
		if !bytes.Equal(b2[6:], b) || string(b2[:6]) != "prefix" {
			t.Fatalf("seed %d: AppendBinary differs from MarshalBinary", seed)
		}
	}
}

// TestIdleMinuteSize: a minute of nothing at 25 ticks a second costs
// bytes, not kilobytes.
func TestIdleMinuteSize(t *testing.T) {
	s := Settings{Seed: 1, Balls: 1000, Width: 640, Height: 480, Radius: 16, Speed: 16,
		Tick: 40 * time.Millisecond, MaxLoops: 10}
	r := NewRecorder(s, 0)
	for range 1500 {
		r.Tick(input.Record{}, func() uint64 { return 0x9e3779b97f4a7c15 })
	}
	rec := r.Finish(0x9e3779b97f4a7c15)
	if len(rec.Checkpoints) != 15 {
		t.Fatalf("%d checkpoints, want 15 (every %d ticks)", len(rec.Checkpoints), DefaultCheckpointEvery)
	}
	b, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("an idle minute (1500 ticks, 15 checkpoints) encodes to %d bytes", len(b))
	if len(b) >= 200 {
		t.Fatalf("an idle minute encodes to %d bytes, want under 200", len(b))
	}
}

func TestEncodeRejectsInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Recording)
		want string
	}{
		{"empty run", func(r *Recording) { r.Inputs[1].Count = 0 }, "input run 1 is empty"},
		{"same records", func(r *Recording) { r.Inputs[1].Record = r.Inputs[0].Record }, "input runs 0 and 1 hold the same record"},
		{"too many ticks", func(r *Recording) { r.Inputs[0].Count = MaxTicks }, "input runs exceed"},
		{"unknown kind", func(r *Recording) { r.Commands[0].Kind = 0 }, "command 0: unknown kind 0"},
		{"commands out of order", func(r *Recording) { r.Commands[0].At = 4 }, "command 1: at tick 3, before command 0 at 4"},
		{"command after end", func(r *Recording) { r.Commands[1].At = 5 }, "command 1: at tick 5, after the last tick 4"},
		{"checkpoint at 0", func(r *Recording) { r.Checkpoints[0].Tick = 0 }, "checkpoint 0: at tick 0"},
		{"checkpoints out of order", func(r *Recording) { r.Checkpoints[1].Tick = 2 }, "checkpoint 1: at tick 2, not after checkpoint 0 at 2"},
		{"checkpoint after end", func(r *Recording) { r.Checkpoints[1].Tick = 5 }, "checkpoint 1: at tick 5, after the last tick 4"},
	} {
		rec := goldenRecording()
		tc.edit(rec)
		_, err := rec.MarshalBinary()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "replay: invalid recording: ") {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		if _, err := rec.WriteTo(&bytes.Buffer{}); err == nil {
			t.Errorf("%s: WriteTo succeeded", tc.name)
		}
	}
}

// uv and sv encode varints for hand-built payloads.
func uv(x uint64) []byte { return binary.AppendUvarint(nil, x) }
func sv(x int64) []byte  { return binary.AppendVarint(nil, x) }

// goldenPayload builds the golden recording's payload from parts, so that
// bad-file cases can change one of them and keep the rest valid.
type payloadParts struct {
	settings, initial, ticks, final, runs, cmds, ckpts []byte
}

func goldenParts() payloadParts {
	return payloadParts{
		settings: []byte{0x07, 0x03, 0x80, 0x0a, 0xc0, 0x07, 0x10, 0x20, 0x80, 0xe8, 0x92, 0x26, 0x0a, 0x01},
		initial:  []byte{0x00},
		ticks:    uv(4),
		final:    []byte{0xef, 0xbe, 0xad, 0xde, 0x0d, 0xf0, 0xfe, 0xca},
		runs:     []byte{0x03, 0x02, 0x00, 0x00, 0x00, 0x01, 0x02, 0x02, 0x00, 0x01, 0x00, 0x00, 0x02},
		cmds:     []byte{0x02, 0x00, 0x02, 0x0a, 0x03, 0x01, 0x00},
		ckpts: []byte{0x02, 0x02, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
			0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01},
	}
}

func (p payloadParts) bytes() []byte {
	return bytes.Join([][]byte{p.settings, p.initial, p.ticks, p.final, p.runs, p.cmds, p.ckpts}, nil)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// badFiles are the broken files every reader must turn into a one-line
// error naming the problem. TestBadFiles and FuzzDecode use them.
func badFiles() []struct {
	name string
	data []byte
	want string
} {
	good := wrap(goldenParts().bytes())
	withParts := func(edit func(*payloadParts)) []byte {
		p := goldenParts()
		edit(&p)
		return wrap(p.bytes())
	}
	badCRC := bytes.Clone(good)
	badCRC[20] ^= 0x40
	badVersion := bytes.Clone(good)
	badVersion[4] = 9
	hugeLen := bytes.Clone(good)
	binary.LittleEndian.PutUint32(hugeLen[5:], 0xffffffff)
	return []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty file"},
		{"wrong magic", []byte("PK\x03\x04 this is a zip file"), `not a replay file: starts with "PK\x03\x04", want "IDRP"`},
		{"text file", []byte("hi\n"), `not a replay file: starts with "hi\n"`},
		{"magic only", []byte("IDRP"), "truncated: 4 bytes, shorter than the 9-byte header"},
		{"unknown version", badVersion, "unsupported format version 9 (this build reads versions 1 to 2)"},
		{"short header", good[:7], "truncated: 7 bytes, shorter than the 9-byte header"},
		{"truncated", good[:40], "truncated: 40 bytes, the header says 76"},
		{"absurd payload length", hugeLen, "payload length 4294967295 exceeds the 67108851-byte limit"},
		{"bad checksum", badCRC, "checksum mismatch (stored "},
		{"trailing garbage", append(bytes.Clone(good), "garbage"...), "7 bytes of trailing garbage after the 76-byte recording"},
		{"2^60 runs", withParts(func(p *payloadParts) { p.runs = cat(uv(1<<60), p.runs[1:]) }),
			"1152921504606846976 input runs claimed, but only"},
		{"2^60 commands", withParts(func(p *payloadParts) { p.cmds = cat(uv(1<<60), p.cmds[1:]) }),
			"1152921504606846976 commands claimed, but only"},
		{"2^60 checkpoints", withParts(func(p *payloadParts) { p.ckpts = cat(uv(1<<60), p.ckpts[1:]) }),
			"1152921504606846976 checkpoints claimed, but only"},
		{"run of 2^40 ticks", withParts(func(p *payloadParts) {
			p.ticks = uv(1500)
			p.runs = cat(uv(1), uv(1<<40), []byte{0, 0, 0})
		}), "input run 0 claims 1099511627776 ticks, but only 1500 of the 1500 ticks are left"},
		{"2^40 ticks", withParts(func(p *payloadParts) {
			p.ticks = uv(1 << 40)
			p.runs = cat(uv(1), uv(1<<40), []byte{0, 0, 0})
		}), "tick count 1099511627776 exceeds the limit of 68719476736"},
		{"runs short of the tick count", withParts(func(p *payloadParts) { p.ticks = uv(5) }),
			"input runs cover 4 ticks, the header says 5"},
		{"empty run", withParts(func(p *payloadParts) { p.runs[1] = 0; p.ticks = uv(2) }), "input run 0 is empty"},
		{"same records", withParts(func(p *payloadParts) {
			p.runs = cat(uv(2), uv(1), []byte{0, 0, 0}, uv(1), []byte{0, 0, 0})
			p.ticks = uv(2)
		}),
			"input runs 0 and 1 hold the same record"},
		{"buttons beyond 32 bits", withParts(func(p *payloadParts) { p.runs = cat(uv(1), uv(4), uv(1<<32), []byte{0, 0}) }),
			"held buttons 4294967296 does not fit in 32 bits"},
		{"width beyond 32 bits", withParts(func(p *payloadParts) { p.settings = cat(p.settings[:2], sv(1<<31), p.settings[4:]) }),
			"width 2147483648 does not fit in 32 bits"},
		{"unknown flags", withParts(func(p *payloadParts) { p.settings[13] = 0x81 }), "unknown flags 0x81"},
		{"non-minimal varint", withParts(func(p *payloadParts) { p.ticks = []byte{0x84, 0x00} }), "tick count is not minimally encoded"},
		{"varint overflow", withParts(func(p *payloadParts) {
			p.settings = cat(bytes.Repeat([]byte{0xff}, 9), []byte{0x02}, p.settings[1:])
		}), "seed overflows 64 bits"},
		{"unknown command", withParts(func(p *payloadParts) { p.cmds[2] = 7 }), "command 0 has unknown kind 7"},
		{"command after the end", withParts(func(p *payloadParts) { p.cmds[4] = 5 }), "command 1 comes after the last tick"},
		{"checkpoint delta 0", withParts(func(p *payloadParts) { p.ckpts[10] = 0 }), "checkpoint 1 is not after the one before it"},
		{"checkpoint after the end", withParts(func(p *payloadParts) { p.ckpts[10] = 3 }), "checkpoint 1 comes after the last tick"},
		{"payload ends early", withParts(func(p *payloadParts) { p.final, p.runs, p.cmds, p.ckpts = p.final[:5], nil, nil, nil }),
			"payload ends inside final hash at byte 25"},
		{"payload too long", withParts(func(p *payloadParts) { p.ckpts = append(p.ckpts, 0, 0) }), "2 unused bytes at the end of the payload"},
	}
}

func TestBadFiles(t *testing.T) {
	for _, tc := range badFiles() {
		rec, err := Decode(tc.data)
		switch {
		case err == nil:
			t.Errorf("%s: decoded %+v", tc.name, rec)
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: err = %q, want it to contain %q", tc.name, err, tc.want)
		case !strings.HasPrefix(err.Error(), "replay: ") || strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: err = %q, want one line starting with replay: ", tc.name, err)
		}
	}
}

// TestTruncatedEverywhere cuts a valid file at every byte: each cut is an
// error saying so. Then it cuts the payload at every byte and wraps it in
// a valid header and checksum, to reach the payload parser: still an
// error, never a panic.
func TestTruncatedEverywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	sc := randomScript(rng, 2000)
	sc.cmds = append(sc.cmds, TimedCommand{At: uint64(len(sc.ticks)), Command: Command{Kind: CmdReset}})
	rec, _ := sc.record(50)
	b, err := rec.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for k := range len(b) {
		_, err := Decode(b[:k])
		want := "truncated"
		if k == 0 {
			want = "empty file"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("cut at %d of %d: err = %v, want %q", k, len(b), err, want)
		}
	}
	p := payloadOf(b)
	for k := range len(p) {
		if _, err := Decode(wrap(p[:k])); err == nil || !strings.Contains(err.Error(), "corrupt: ") {
			t.Fatalf("payload cut at %d of %d: err = %v", k, len(p), err)
		}
	}
}

// TestDecodeMemoryBounded checks the promise of the package documentation:
// decoding allocates at most 32 bytes per byte of input (plus a little, and
// whatever else the runtime allocates meanwhile),
// whether the lists are real or only claimed.
func TestDecodeMemoryBounded(t *testing.T) {
	p := goldenParts()
	p.ticks, p.runs, p.ckpts = uv(0), uv(0), uv(0)
	var cmds []byte
	const n = 100_000
	for range n {
		cmds = append(cmds, 0, byte(CmdReset), 0) // 3 bytes, the smallest command
	}
	p.cmds = cat(uv(n), cmds)
	manyCommands := wrap(p.bytes())
	// The most memory per byte: one player's input runs, 4 bytes each in
	// the file (a count and three button sets), a Run of 104 in memory.
	r := goldenParts()
	var runs []byte
	for i := range n {
		runs = append(runs, 1, byte(i%2), 0, 0)
	}
	r.ticks, r.runs, r.cmds, r.ckpts = uv(n), cat(uv(n), runs), uv(0), uv(0)
	manyRuns := wrap(r.bytes())
	claims := badFiles()[10].data // 2^60 runs claimed
	for name, b := range map[string][]byte{"many commands": manyCommands, "many input runs": manyRuns, "2^60 runs claimed": claims} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rec, err := Decode(b)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes decoded with %d bytes allocated (err %v)", name, len(b), alloc, err)
		if alloc > 32*uint64(len(b))+64<<10 {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", name, alloc, len(b))
		}
		if name == "many commands" && (err != nil || len(rec.Commands) != n) {
			t.Errorf("%s: err %v", name, err)
		}
		if name == "many input runs" && (err != nil || len(rec.Inputs) != n) {
			t.Errorf("%s: err %v", name, err)
		}
	}
}
