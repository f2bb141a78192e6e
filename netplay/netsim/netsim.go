package netsim

import (
	"fmt"
	"math"
	"time"
)

// Conditions describe a simulated network path: the delay of each packet
// and what can go wrong with it. The zero value is a perfect network.
type Conditions struct {
	// Delay is the one-way latency.
	Delay time.Duration
	// Jitter spreads each packet's delay uniformly over
	// [Delay-Jitter, Delay+Jitter] (never below 0); packets sent close
	// together may then arrive out of order.
	Jitter time.Duration
	// Loss is the probability, 0..1, that a packet is dropped.
	Loss float64
	// Duplicate is the probability, 0..1, that a packet that is not
	// dropped arrives twice, each copy with its own delay.
	Duplicate float64
	// Reorder is the probability, 0..1, that a packet is held back an
	// extra time, uniform in (0, Delay+2×Jitter+1ms], so that packets
	// sent after it overtake it.
	Reorder float64
}

// Validate reports, as an error wrapping ErrInvalid, the first field out
// of range.
func (c Conditions) Validate() error {
	switch {
	case c.Delay < 0 || c.Delay > time.Hour:
		return fmt.Errorf("%w: network delay %v not in 0..1h", ErrInvalid, c.Delay)
	case c.Jitter < 0 || c.Jitter > time.Hour:
		return fmt.Errorf("%w: network jitter %v not in 0..1h", ErrInvalid, c.Jitter)
	case !(c.Loss >= 0 && c.Loss <= 1):
		return fmt.Errorf("%w: packet loss %v not in 0..1", ErrInvalid, c.Loss)
	case !(c.Duplicate >= 0 && c.Duplicate <= 1):
		return fmt.Errorf("%w: packet duplication %v not in 0..1", ErrInvalid, c.Duplicate)
	case !(c.Reorder >= 0 && c.Reorder <= 1):
		return fmt.Errorf("%w: packet reordering %v not in 0..1", ErrInvalid, c.Reorder)
	}
	return nil
}

// Perfect reports whether c is a perfect network (every field zero).
func (c Conditions) Perfect() bool { return c == Conditions{} }

// Capacity bounds of a Path.
const (
	DefaultCapacity = 256
	MaxCapacity     = 1 << 14
)

// Path is an in-process network path with Conditions: packets go in
// with Send and come out with Deliver once their delivery time has come.
// It takes the time as an argument, so tests drive it with generated
// timestamps, and its randomness comes from its seed alone: the same
// packets sent at the same times come out the same way on every run.
//
// It holds at most its capacity of packets, of at most MaxPacketSize bytes
// each, in memory allocated once; a packet that does not fit is dropped
// and counted. Send and Deliver do not allocate.
type Path struct {
	c     Conditions
	rng   uint64
	seq   uint64
	slots []simSlot
	heap  []int32 // slot indices, a min-heap on (due, seq)
	free  []int32
	mem   []byte
	lent  int32 // the slot Next handed out last, freed at the next call; -1 if none
	stats Stats
}

type simSlot struct {
	due      time.Duration
	seq      uint64
	from, to string
	n        int
}

// Stats counts what a Path did.
type Stats struct {
	Sent       int64 `json:"sent"`       // packets given to Send
	Delivered  int64 `json:"delivered"`  // copies handed out by Deliver
	Lost       int64 `json:"lost"`       // dropped by Loss
	Duplicated int64 `json:"duplicated"` // extra copies made
	Reordered  int64 `json:"reordered"`  // held back by Reorder
	Overflow   int64 `json:"overflow"`   // dropped: the queue was full, or the packet too big
}

// NewPath returns a path with conditions c whose randomness comes from
// seed, holding up to capacity packets in flight (0 means
// DefaultCapacity).
func NewPath(c Conditions, seed uint64, capacity int) (*Path, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if capacity == 0 {
		capacity = DefaultCapacity
	}
	if capacity < 1 || capacity > MaxCapacity {
		return nil, fmt.Errorf("%w: network simulator capacity %d not in 1..%d", ErrInvalid, capacity, MaxCapacity)
	}
	n := &Path{
		c: c, rng: seed,
		slots: make([]simSlot, capacity),
		heap:  make([]int32, 0, capacity),
		free:  make([]int32, capacity),
		mem:   make([]byte, capacity*MaxPacketSize),
		lent:  -1,
	}
	for i := range n.free {
		n.free[i] = int32(capacity - 1 - i)
	}
	return n, nil
}

// Conditions returns the path's conditions.
func (n *Path) Conditions() Conditions { return n.c }

// Stats returns the counts so far.
func (n *Path) Stats() Stats { return n.stats }

// Len returns the number of packets in flight.
func (n *Path) Len() int { return len(n.heap) }

// NextDue returns the delivery time of the earliest packet in flight.
func (n *Path) NextDue() (time.Duration, bool) {
	if len(n.heap) == 0 {
		return 0, false
	}
	return n.slots[n.heap[0]].due, true
}

func (n *Path) rand() uint64 {
	n.rng += 0x9e3779b97f4a7c15
	z := n.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// chance returns true with probability p.
func (n *Path) chance(p float64) bool {
	if p <= 0 {
		return false
	}
	return p >= 1 || float64(n.rand()>>11) < p*(1<<53)
}

// uniform returns a duration uniform in [0, d].
func (n *Path) uniform(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(n.rand() % (uint64(d) + 1))
}

// Send puts a copy of pkt, from from to to, on the path at now: it is
// dropped, or delivered (once or twice) after its delay.
func (n *Path) Send(now time.Duration, from, to string, pkt []byte) {
	n.stats.Sent++
	if n.chance(n.c.Loss) {
		n.stats.Lost++
		return
	}
	n.enqueue(now, from, to, pkt)
	if n.chance(n.c.Duplicate) {
		n.stats.Duplicated++
		n.enqueue(now, from, to, pkt)
	}
}

func (n *Path) enqueue(now time.Duration, from, to string, pkt []byte) {
	if len(pkt) > MaxPacketSize || len(n.free) == 0 {
		n.stats.Overflow++
		return
	}
	d := n.c.Delay - n.c.Jitter + n.uniform(2*n.c.Jitter)
	if n.chance(n.c.Reorder) {
		n.stats.Reordered++
		d += 1 + n.uniform(n.c.Delay+2*n.c.Jitter+time.Millisecond-1)
	}
	due := now
	if d > 0 {
		due = now + min(d, math.MaxInt64-now)
	}
	i := n.free[len(n.free)-1]
	n.free = n.free[:len(n.free)-1]
	n.slots[i] = simSlot{due: due, seq: n.seq, from: from, to: to, n: len(pkt)}
	n.seq++
	copy(n.mem[int(i)*MaxPacketSize:], pkt)
	n.heap = append(n.heap, i)
	n.up(len(n.heap) - 1)
}

// Deliver hands every packet whose time has come by now to deliver, in
// order of delivery time (and of sending, for equal times), and returns how
// many it delivered. pkt is only valid during the call; deliver may Send.
func (n *Path) Deliver(now time.Duration, deliver func(from, to string, pkt []byte)) int {
	count := 0
	for {
		from, to, pkt, ok := n.Next(now)
		if !ok {
			return count
		}
		count++
		deliver(from, to, pkt)
	}
}

// Next takes the first packet whose time has come by now, in the order
// Deliver hands them out, or reports ok false. pkt stays valid until the
// next call to Next or Deliver.
func (n *Path) Next(now time.Duration) (from, to string, pkt []byte, ok bool) {
	if n.lent >= 0 {
		n.free = append(n.free, n.lent)
		n.lent = -1
	}
	if len(n.heap) == 0 || n.slots[n.heap[0]].due > now {
		return "", "", nil, false
	}
	i := n.heap[0]
	last := len(n.heap) - 1
	n.heap[0] = n.heap[last]
	n.heap = n.heap[:last]
	if last > 0 {
		n.down(0)
	}
	sl := &n.slots[i]
	n.stats.Delivered++
	n.lent = i
	return sl.from, sl.to, n.mem[int(i)*MaxPacketSize : int(i)*MaxPacketSize+sl.n], true
}

func (n *Path) less(a, b int) bool {
	x, y := &n.slots[n.heap[a]], &n.slots[n.heap[b]]
	return x.due < y.due || (x.due == y.due && x.seq < y.seq)
}

func (n *Path) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !n.less(i, p) {
			return
		}
		n.heap[i], n.heap[p] = n.heap[p], n.heap[i]
		i = p
	}
}

func (n *Path) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(n.heap) {
			return
		}
		m := l
		if r := l + 1; r < len(n.heap) && n.less(r, l) {
			m = r
		}
		if !n.less(m, i) {
			return
		}
		n.heap[i], n.heap[m] = n.heap[m], n.heap[i]
		i = m
	}
}
