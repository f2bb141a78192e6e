package netplay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// dots is a game of two dots on a line, each moved by its player, that a
// peer can be made to get wrong: at tick faultAt it moves dot 0 one more.
type dots struct {
	now     dotsState
	slots   [maxMaxPrediction + 2]dotsState
	faultAt uint64 // 0: never
	me      *Session
}

type dotsState struct {
	Tick uint64
	Dots [2]struct{ X int32 }
}

func (g *dots) Advance(in *Inputs) {
	for p := range 2 {
		g.now.Dots[p].X += int32(int8(in.Input(p)[0]))
	}
	g.now.Tick++
	if g.faultAt != 0 && g.now.Tick == g.faultAt {
		g.now.Dots[0].X++
	}
}
func (g *dots) Save(slot int) { g.slots[slot] = g.now }
func (g *dots) Load(slot int) { g.now = g.slots[slot] }
func (g *dots) Hash() uint64 {
	return g.now.Tick<<40 ^ uint64(uint32(g.now.Dots[0].X))<<20 ^ uint64(uint32(g.now.Dots[1].X))
}
func (g *dots) LocalInput(t uint64, _ int, dst []byte) { dst[0] = byte(t % 3) }
func (g *dots) AppendState(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, g.now.Tick)
	b = binary.LittleEndian.AppendUint32(b, uint32(g.now.Dots[0].X))
	return binary.LittleEndian.AppendUint32(b, uint32(g.now.Dots[1].X))
}
func (g *dots) SetState(b []byte) error {
	if len(b) != 16 {
		return errors.New("not 16 bytes")
	}
	g.now.Tick = binary.LittleEndian.Uint64(b)
	g.now.Dots[0].X, g.now.Dots[1].X = int32(binary.LittleEndian.Uint32(b[8:])), int32(binary.LittleEndian.Uint32(b[12:]))
	return nil
}
func (g *dots) Describe(b []byte) (any, error) {
	var d dots
	err := d.SetState(b)
	return d.now, err
}

// reportGame plays two peers of dots over a lossy network until both are
// done; the joiner's game goes wrong at faultAt.
func reportGame(t *testing.T, netcode Netcode, faultAt uint64, lossy bool) (host, join *Session) {
	t.Helper()
	c := netsim.Conditions{Delay: 10 * time.Millisecond}
	if lossy {
		c.Loss, c.Duplicate, c.Reorder = 0.1, 0.05, 0.05
	}
	net, _ := netsim.NewNet(c, 7)
	hp, _ := net.Port("host")
	jp, _ := net.Port("join")
	hg, jg := &dots{}, &dots{faultAt: faultAt}
	delay := 0
	if netcode == Lockstep {
		delay = 2
	}
	host, err := Host(Config{InputSize: 1, Tick: 20 * time.Millisecond, Netcode: netcode, Delay: delay, TickLimit: 300,
		EndOnDesync: true, Report: true}, hg, hp, 0)
	if err != nil {
		t.Fatal(err)
	}
	join, err = Join(Config{InputSize: 1, Netcode: netcode, EndOnDesync: true, Report: true}, jg, jp, "host", 0)
	if err != nil {
		t.Fatal(err)
	}
	hg.me, jg.me = host, join
	for now := time.Duration(0); !(host.Done() && join.Done()); now += 10 * time.Millisecond {
		if now > time.Minute {
			t.Fatalf("not done after a minute: %v, %v", host.State(), join.State())
		}
		net.SetTime(now)
		host.Frame(now, 1, 5)
		join.Frame(now, 1, 5)
	}
	return host, join
}

// Two peers, one of whose games goes wrong at tick 37 (dot 0 moved one
// more): both end with the desync, and each one's report names the first
// tick whose hashes differ, and the field with both values.
func TestDesyncReportNamesTheField(t *testing.T) {
	for _, nc := range []Netcode{Rollback, Lockstep} {
		host, join := reportGame(t, nc, 37, true)
		for i, s := range []*Session{host, join} {
			var e *Error
			if !errors.As(s.Err(), &e) || e.Reason != ErrDesync || e.Tick != 50 {
				t.Fatalf("%v, peer %d: %v", nc, i, s.Err())
			}
			// Dot 0 after 50 ticks: the host's inputs t%3 from tick
			// 0 (lockstep: from its input delay on), one more at the
			// joiner.
			x := 0
			for tk := range 50 {
				if nc == Rollback || tk >= 2 {
					x += tk % 3
				}
			}
			field := fmt.Sprintf("  Dots[0].X: %d vs %d\n", x, x+1)
			if i == 1 {
				field = fmt.Sprintf("  Dots[0].X: %d vs %d\n", x+1, x)
			}
			for _, w := range []string{"the states first differ after tick 37 (", "what differs after tick 50, here vs player " + fmt.Sprint(1-i) + ":\n" + field} {
				if !strings.Contains(e.Report, w) {
					t.Errorf("%v, peer %d: the report lacks %q:\n%s", nc, i, w, e.Report)
				}
			}
		}
	}
}

// A game with reports on and no desync allocates nothing a frame once
// it runs: the hashes and states it keeps are made once.
func TestReportAllocatesNothing(t *testing.T) {
	net, _ := netsim.NewNet(netsim.Conditions{Delay: 10 * time.Millisecond}, 7)
	hp, _ := net.Port("host")
	jp, _ := net.Port("join")
	hg, jg := &dots{}, &dots{}
	host, _ := Host(Config{InputSize: 1, Tick: 20 * time.Millisecond, Report: true}, hg, hp, 0)
	join, _ := Join(Config{InputSize: 1, Report: true}, jg, jp, "host", 0)
	hg.me, jg.me = host, join
	var now time.Duration
	frame := func() {
		net.SetTime(now)
		host.Frame(now, 1, 5)
		join.Frame(now, 1, 5)
		now += 10 * time.Millisecond
	}
	for range 300 {
		frame()
	}
	if a := testing.AllocsPerRun(200, frame); a != 0 || host.Err() != nil || host.Stats().Tick < 250 {
		t.Errorf("%v allocations a frame; host %v at tick %d", a, host.Err(), host.Stats().Tick)
	}
}
