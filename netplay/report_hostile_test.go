package netplay

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// tamper is a joiner's port that replaces its desync report's state
// messages with forge's (nil: none) and adds junk ones.
type tamper struct {
	*netsim.Port
	forge func(pkt []byte) [][]byte
}

func (t *tamper) Send(to string, pkt []byte) {
	if isReport(pkt) && pkt[headerSize+1] == reportState && t.forge != nil {
		for _, f := range t.forge(pkt) {
			t.Port.Send(to, f)
		}
		return
	}
	t.Port.Send(to, pkt)
}

// forged is a state message of the checkpoint of real (a report message)
// saying size, off and carrying data.
func forged(real []byte, size, off uint64, data []byte) []byte {
	r := reader{b: real, off: headerSize}
	from, _, tick := r.u8(), r.u8(), r.uv()
	w := specHeader(make([]byte, MaxPacketSize), msgReport, binary.LittleEndian.Uint64(real[4:]))
	w.u8(from)
	w.u8(reportState)
	w.uv(tick)
	w.uv(size)
	w.uv(off)
	w.uv(uint64(len(data)))
	w.bytes(data)
	return w.b
}

// A peer that answers a desync report with a state too large, a state
// that never ends, or garbage, cannot crash the other, make it hold more
// than its bound, nor keep it: the game ends with the desync reported,
// saying what was missing.
func TestDesyncReportWithAHostilePeer(t *testing.T) {
	for _, c := range []struct {
		name  string
		forge func(pkt []byte) [][]byte
		want  string
	}{
		{"too large", func(p []byte) [][]byte { return [][]byte{forged(p, 1<<40, 0, []byte{1})} }, "its state is 1099511627776 bytes, more than the 67108864"},
		{"endless", func(p []byte) [][]byte { return [][]byte{forged(p, 1000, 0, make([]byte, 10))} }, "did not arrive in 10s (10 of 1000 bytes)"},
		{"garbage", func(p []byte) [][]byte {
			junk := append([]byte(nil), p[:headerSize]...)
			return [][]byte{append(junk, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), forged(p, 16, 99, make([]byte, 5))}
		}, "the other peer's state did not arrive in 10s\n"},
	} {
		net, _ := netsim.NewNet(netsim.Conditions{Delay: 10 * time.Millisecond}, 7)
		hp, _ := net.Port("host")
		jp, _ := net.Port("join")
		hg, jg := &dots{}, &dots{faultAt: 37}
		host, _ := Host(Config{InputSize: 1, Tick: 20 * time.Millisecond, TickLimit: 300, EndOnDesync: true, Report: true}, hg, hp, 0)
		join, _ := Join(Config{InputSize: 1, EndOnDesync: true, Report: true}, jg, &tamper{Port: jp, forge: c.forge}, "host", 0)
		hg.me, jg.me = host, join
		var now time.Duration
		for ; !host.Done() && now < time.Minute; now += 10 * time.Millisecond {
			net.SetTime(now)
			host.Frame(now, 1, 5)
			join.Frame(now, 1, 5)
		}
		var e *Error
		if !host.Done() || !errors.As(host.Err(), &e) || e.Reason != ErrDesync || !strings.Contains(e.Report, c.want) {
			t.Errorf("%s: host done %v after %v, err %v, report:\n%s", c.name, host.Done(), now, host.Err(), reportOf(e))
			continue
		}
		if x := host.s.xc; cap(x.theirs) > 1000 {
			t.Errorf("%s: the host holds %d bytes of the other's state", c.name, cap(x.theirs))
		}
		if c.name == "garbage" && host.Stats().BadPackets == 0 {
			t.Errorf("garbage: no bad packet counted")
		}
	}
}

func reportOf(e *Error) string {
	if e == nil {
		return ""
	}
	return e.Report
}

// Any datagram, taken as a desync report's message, is counted bad or
// taken within the bounds: the other's state held is at most its
// announced size, itself bounded.
func FuzzReportReceive(f *testing.F) {
	base := func() []byte {
		w := specHeader(make([]byte, MaxPacketSize), msgReport, 1)
		w.u8(1)
		return w.b
	}
	f.Add(append(base(), reportState, 50, 16, 0, 4, 1, 2, 3, 4))
	f.Add(append(base(), reportHashes, 50, 49, 1, 1, 2, 3, 4, 5, 6, 7, 8))
	f.Add(append(base(), reportAck, 50, 1, 0))
	f.Add(append(base(), reportState, 50, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0))
	f.Fuzz(func(t *testing.T, pkt []byte) {
		s := &session{id: 1, role: roleHost, cfg: config{MaxReport: 1 << 16}}
		s.xc = &exchange{peer: 1, addr: "j", tick: 50}
		for range 3 {
			s.reportReceive(0, "j", pkt)
		}
		if x := s.xc; cap(x.theirs) > 1<<16 || len(x.thHashes) > reportSpan {
			t.Fatalf("holds %d bytes of state, %d hashes", cap(x.theirs), len(x.thHashes))
		}
	})
}
