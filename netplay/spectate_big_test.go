package netplay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// bigGame is a game whose snapshot is large: a tick count, and a block
// of bytes that never changes (a level, say), which only the snapshot
// carries.
type bigGame struct {
	ticks uint64
	saved [10]uint64
	block []byte
}

func (g *bigGame) Advance(*Inputs)                { g.ticks++ }
func (g *bigGame) Save(slot int)                  { g.saved[slot] = g.ticks }
func (g *bigGame) Load(slot int)                  { g.ticks = g.saved[slot] }
func (g *bigGame) Hash() uint64                   { return g.ticks }
func (g *bigGame) LocalInput(uint64, int, []byte) {}
func (g *bigGame) AppendState(dst []byte) []byte {
	return append(binary.LittleEndian.AppendUint64(dst, g.ticks), g.block...)
}
func (g *bigGame) SetState(b []byte) error {
	if len(b) < 8 {
		return errors.New("short")
	}
	g.ticks, g.block = binary.LittleEndian.Uint64(b), append(g.block[:0], b[8:]...)
	return nil
}

// A spectator that allows a snapshot above the default 64 MiB
// (Config.MaxSnapshot) loads one: the host takes its acknowledgements of
// the bytes past 64 MiB (it bounded them by the default, counted them bad
// and dropped the spectator for silence). One that allows only the
// default is refused at once, before any of it is held.
func TestSpectatorLoadsSnapshotAbove64MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("a 65 MiB snapshot")
	}
	block := make([]byte, 65<<20)
	for i := range block {
		block[i] = byte(i * 7)
	}
	for _, max := range []int{80 << 20, 0} {
		net, _ := netsim.NewNet(netsim.Conditions{Delay: 5 * time.Millisecond}, 1)
		ports := make([]*netsim.Port, 3)
		for i, a := range []string{"host", "join", "spec"} {
			ports[i], _ = net.Port(a)
		}
		const tick = 20 * time.Millisecond
		games := []*bigGame{{block: block}, {block: block}}
		host, err := Host(Config{InputSize: 1, Tick: tick, TickLimit: 200, MaxSpectators: 1}, games[0], ports[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		join, _ := Join(Config{InputSize: 1}, games[1], ports[1], "host", 0)
		watched := &bigGame{}
		var spec *Spectator
		var now time.Duration
		for ; now < time.Minute && !(host.Done() && join.Done() && spec.Done()); now += 10 * time.Millisecond {
			net.SetTime(now)
			host.Frame(now, 1, 5)
			join.Frame(now, 1, 5)
			if spec == nil && now >= time.Second {
				spec, _ = Watch(Config{InputSize: 1, MaxSnapshot: max}, watched, ports[2], "host", now)
			}
			if spec != nil {
				spec.Frame(now, 1, 5)
			}
		}
		st := spec.Stats()
		if max == 0 {
			if !errors.Is(spec.Err(), ErrTooLarge) || watched.block != nil {
				t.Errorf("a spectator of the default bound: %v, %d bytes held", spec.Err(), len(watched.block))
			}
			continue
		}
		if spec.Err() != nil || st.SnapshotBytes <= 64<<20 || !bytes.Equal(watched.block, block) || watched.ticks != 200 {
			t.Errorf("spectator: err %v, snapshot of %d bytes, block equal %v, tick %d after %v",
				spec.Err(), st.SnapshotBytes, bytes.Equal(watched.block, block), watched.ticks, now)
		}
		if bad := host.Stats().BadPackets; bad != 0 {
			t.Errorf("the host counted %d bad packets", bad)
		}
	}
}
