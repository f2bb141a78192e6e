package netplay

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// leaky is a game whose Save forgets a field (Combo): a roll back and
// replay changes it. It describes its state as a leakyState.
type leaky struct {
	now   leakyState
	slots [8]leakyState
}

type leakyState struct {
	Tick, Sum uint32
	Combo     uint32 // Save forgets it
}

func (g *leaky) Advance(in *Inputs) {
	g.now.Tick++
	g.now.Sum = g.now.Sum*31 + uint32(in.Input(0)[0])
	g.now.Combo++
}
func (g *leaky) Save(slot int) { s := g.now; s.Combo = 0; g.slots[slot] = s }
func (g *leaky) Load(slot int) { g.now = g.slots[slot] }
func (g *leaky) Hash() uint64 {
	return uint64(g.now.Tick)<<32 ^ uint64(g.now.Sum) ^ uint64(g.now.Combo)<<20
}
func (g *leaky) LocalInput(t uint64, _ int, dst []byte) { dst[0] = byte(t) }
func (g *leaky) AppendState(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(b, g.now.Tick), g.now.Sum), g.now.Combo)
}
func (g *leaky) SetState(b []byte) error { return errors.New("unused") }
func (g *leaky) Describe(b []byte) (any, error) {
	if len(b) != 12 {
		return nil, errors.New("not 12 bytes")
	}
	return leakyState{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])}, nil
}

// bytesOnly is leaky without Describe: its report gives byte offsets.
type bytesOnly struct{ leaky }

func (bytesOnly) Describe() {}

// A sync test of a game whose Save forgets a field names the field, and
// the values the first run and the replay gave it (Config.Report); the
// same game without Describe gets the bytes.
func TestSyncTestReportNamesTheField(t *testing.T) {
	g := &leaky{}
	s, err := SyncTest(Config{InputSize: 1, CheckDistance: 3, Report: true}, g)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		s.Frame(0, 1, 1)
	}
	var e *Error
	if !errors.As(s.Err(), &e) || e.Reason != ErrDesync {
		t.Fatalf("err %v", s.Err())
	}
	want := "the state after tick 2, the first time against after a roll back of 3 ticks and a replay:\n  Combo: 2 vs 1\n"
	if e.Report != want {
		t.Errorf("report:\n%s\nwant:\n%s", e.Report, want)
	}
	b := &bytesOnly{}
	s, _ = SyncTest(Config{InputSize: 1, CheckDistance: 3, Report: true}, b)
	for range 20 {
		s.Frame(0, 1, 1)
	}
	if !errors.As(s.Err(), &e) || !strings.HasSuffix(e.Report, "  bytes 8..8: 02 vs 01\n") {
		t.Errorf("bytes only: %v\n%s", s.Err(), e.Report)
	}
	if _, err := SyncTest(Config{InputSize: 1, CheckDistance: 3, Report: true}, &counter{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a report of a game that is no Snapshotter: %v", err)
	}
}
