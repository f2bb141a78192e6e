package netsim

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// simRun sends count packets, one every gap, each carrying its index, and
// delivers them as they come due; it returns when each index arrived (its
// copies' times) in delivery order.
type arrival struct {
	i      int
	sentAt time.Duration
	at     time.Duration
}

func simRun(t *testing.T, n *Path, count int, gap time.Duration) []arrival {
	t.Helper()
	a, b := addr(0), addr(1)
	var got []arrival
	var now time.Duration
	pkt := make([]byte, 16)
	deliver := func(from, to string, p []byte) {
		if from != a || to != b || len(p) != 16 {
			t.Fatalf("delivered %v -> %v, %d bytes", from, to, len(p))
		}
		i := int(binary.LittleEndian.Uint64(p))
		got = append(got, arrival{i: i, sentAt: time.Duration(binary.LittleEndian.Uint64(p[8:])), at: now})
	}
	// Deliver at each packet's exact due time, so that the delays
	// measured are the simulator's.
	deliverUntil := func(end time.Duration) {
		for {
			due, ok := n.NextDue()
			if !ok || due > end {
				return
			}
			now = due
			n.Deliver(now, deliver)
		}
	}
	for i := range count {
		sendAt := time.Duration(i) * gap
		deliverUntil(sendAt)
		now = sendAt
		binary.LittleEndian.PutUint64(pkt, uint64(i))
		binary.LittleEndian.PutUint64(pkt[8:], uint64(now))
		n.Send(now, a, b, pkt)
		clear(pkt) // the simulator keeps a copy
	}
	deliverUntil(math.MaxInt64)
	return got
}

func TestNetSimPerfect(t *testing.T) {
	n, err := NewPath(Conditions{}, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	got := simRun(t, n, 1000, ms)
	if len(got) != 1000 {
		t.Fatalf("%d delivered", len(got))
	}
	for k, a := range got {
		if a.i != k || a.at != a.sentAt {
			t.Fatalf("packet %d: %+v, want in order at once", k, a)
		}
	}
}

func TestNetSimDelayJitterLoss(t *testing.T) {
	c := Conditions{Delay: 40 * ms, Jitter: 10 * ms, Loss: 0.1}
	n, err := NewPath(c, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	const count = 20000
	got := simRun(t, n, count, ms)
	st := n.Stats()
	if int64(len(got)) != st.Delivered || st.Delivered+st.Lost != count || st.Overflow != 0 {
		t.Fatalf("stats %+v, %d delivered", st, len(got))
	}
	// 10% ± 4.5 standard deviations of a binomial.
	if loss := float64(st.Lost) / count; math.Abs(loss-0.1) > 4.5*math.Sqrt(0.1*0.9/count) {
		t.Errorf("loss %.4f, want 0.1", loss)
	}
	inversions := 0
	var minD, maxD, sum time.Duration = time.Hour, 0, 0
	for k, a := range got {
		d := a.at - a.sentAt
		minD, maxD, sum = min(minD, d), max(maxD, d), sum+d
		if d < c.Delay-c.Jitter || d > c.Delay+c.Jitter {
			t.Fatalf("packet %d delayed %v, want %v ± %v", a.i, d, c.Delay, c.Jitter)
		}
		if k > 0 && a.i < got[k-1].i {
			inversions++
		}
	}
	// Uniform jitter: the extremes are reached, the mean is the delay.
	if minD > c.Delay-c.Jitter+ms || maxD < c.Delay+c.Jitter-ms {
		t.Errorf("delays span [%v, %v], want about [%v, %v]", minD, maxD, c.Delay-c.Jitter, c.Delay+c.Jitter)
	}
	if mean := sum / time.Duration(len(got)); mean < c.Delay-ms/2 || mean > c.Delay+ms/2 {
		t.Errorf("mean delay %v, want %v", mean, c.Delay)
	}
	// 20 ms of jitter over 1 ms gaps reorders many packets.
	if inversions < count/10 {
		t.Errorf("%d packets overtaken", inversions)
	}
}

func TestNetSimDuplicateReorder(t *testing.T) {
	c := Conditions{Delay: 20 * ms, Duplicate: 0.2, Reorder: 0.1}
	n, err := NewPath(c, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	const count = 20000
	got := simRun(t, n, count, 2*ms)
	st := n.Stats()
	if st.Delivered != count+st.Duplicated || int64(len(got)) != st.Delivered {
		t.Fatalf("stats %+v, %d delivered", st, len(got))
	}
	sd := func(p float64, n int) float64 { return 4.5 * math.Sqrt(p*(1-p)/float64(n)) }
	if d := float64(st.Duplicated) / count; math.Abs(d-0.2) > sd(0.2, count) {
		t.Errorf("duplicated %.4f, want 0.2", d)
	}
	copies := make([]int, count)
	late := 0
	for _, a := range got {
		copies[a.i]++
		d := a.at - a.sentAt
		// No jitter: a packet is on time, or held back by at most
		// Delay + 1 ms more.
		switch {
		case d == c.Delay:
		case d > c.Delay && d <= 2*c.Delay+ms:
			late++
		default:
			t.Fatalf("packet %d delayed %v", a.i, d)
		}
	}
	for i, k := range copies {
		if k < 1 || k > 2 {
			t.Fatalf("packet %d arrived %d times", i, k)
		}
	}
	if int64(late) != st.Reordered {
		t.Errorf("%d late copies, %d reordered", late, st.Reordered)
	}
	if r := float64(st.Reordered) / float64(count+st.Duplicated); math.Abs(r-0.1) > sd(0.1, count) {
		t.Errorf("reordered %.4f, want 0.1", r)
	}
}

// The same seed gives the same run; another seed another.
func TestNetSimDeterministic(t *testing.T) {
	c := Conditions{Delay: 30 * ms, Jitter: 20 * ms, Loss: 0.2, Duplicate: 0.1, Reorder: 0.1}
	run := func(seed uint64) []arrival {
		n, err := NewPath(c, seed, 0)
		if err != nil {
			t.Fatal(err)
		}
		return simRun(t, n, 3000, ms)
	}
	a, b, other := run(5), run(5), run(6)
	if !slices.Equal(a, b) {
		t.Error("two runs with one seed differ")
	}
	if slices.Equal(a, other) {
		t.Error("two seeds gave the same run")
	}
}

// The queue is bounded: beyond its capacity, packets are dropped and
// counted, and so are packets too big for a slot.
func TestNetSimBounded(t *testing.T) {
	n, err := NewPath(Conditions{Delay: time.Second}, 1, 8)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		n.Send(time.Duration(i), addr(0), addr(1), []byte{byte(i)})
	}
	n.Send(0, addr(0), addr(1), make([]byte, MaxPacketSize+1))
	if n.Len() != 8 || n.Stats().Overflow != 13 {
		t.Errorf("%d in flight, %d overflowed; want 8, 13", n.Len(), n.Stats().Overflow)
	}
	var got []byte
	n.Deliver(2*time.Second, func(_, _ string, p []byte) { got = append(got, p...) })
	if string(got) != "\x00\x01\x02\x03\x04\x05\x06\x07" {
		t.Errorf("delivered % x, want the first 8 in order", got)
	}
	// Room again.
	n.Send(0, addr(0), addr(1), []byte{1})
	if n.Len() != 1 {
		t.Errorf("%d in flight after delivery", n.Len())
	}
}

func TestNetSimInvalid(t *testing.T) {
	for _, c := range []Conditions{
		{Delay: -1}, {Jitter: -1}, {Loss: -0.1}, {Loss: 1.1}, {Loss: math.NaN()},
		{Duplicate: 2}, {Reorder: math.Inf(1)}, {Delay: 2 * time.Hour},
	} {
		if _, err := NewPath(c, 1, 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", c, err)
		}
	}
	for _, capacity := range []int{-1, MaxCapacity + 1} {
		if _, err := NewPath(Conditions{}, 1, capacity); !errors.Is(err, ErrInvalid) {
			t.Errorf("capacity %d: %v, want ErrInvalid", capacity, err)
		}
	}
	if !(Conditions{}).Perfect() || (Conditions{Loss: 0.1}).Perfect() {
		t.Error("Perfect")
	}
}

// addr is peer i's address in these tests.
func addr(i int) string { return "p" + string(rune('0'+i)) }

const ms = time.Millisecond

// Net: datagrams arrive after their delay, in order, to the port they
// were sent to; a datagram to no port is counted; an empty address is
// refused.
func TestNet(t *testing.T) {
	net, err := NewNet(Conditions{Delay: 10 * time.Millisecond}, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := net.Port("a")
	b, _ := net.Port("b")
	if again, _ := net.Port("a"); again != a {
		t.Error("a second Port of one address made another port")
	}
	if _, err := net.Port(""); !errors.Is(err, ErrInvalid) {
		t.Errorf("Port of no address: %v", err)
	}
	a.Send("b", []byte("one"))
	a.Send("b", []byte("two"))
	a.Send("nowhere", []byte("lost"))
	if a.Unknown != 1 {
		t.Errorf("Unknown %d, want 1", a.Unknown)
	}
	if _, _, ok := b.Recv(); ok {
		t.Error("a datagram arrived before its delay")
	}
	net.SetTime(10 * time.Millisecond)
	var got []string
	for {
		from, pkt, ok := b.Recv()
		if !ok {
			break
		}
		got = append(got, string(from)+":"+string(pkt))
	}
	if strings.Join(got, " ") != "a:one a:two" {
		t.Errorf("b received %q", got)
	}
	if _, _, ok := a.Recv(); ok {
		t.Error("a received what it sent to b")
	}
	if _, err := NewNet(Conditions{Loss: 2}, 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewNet with a loss of 2: %v", err)
	}
}
