package netplay

import (
	"bytes"
	"testing"
)

// FuzzDecode feeds the decoder arbitrary datagrams: it must never panic,
// and whatever it accepts must encode back to exactly the same bytes (one
// encoding per packet, so nothing unchecked slips through). The datagram
// then goes to a host and a joiner, from a player's address and from a
// stranger's, which must not panic either and must count it as bad unless
// it is a packet they can take.
//
// The seed corpus is a valid packet of every type (and the corpus in
// testdata/fuzz/FuzzDecode).
func FuzzDecode(f *testing.F) {
	g := &gen{rng: 3}
	buf := make([]byte, MaxPacketSize)
	for i := range 15 {
		p := g.packet(msgType(1 + i%5))
		f.Add(append([]byte(nil), buf[:p.encode(buf)]...))
	}
	f.Add([]byte{})
	f.Add([]byte("NP\x01\x05"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var p packet
		err := p.decode(b)
		if err == nil {
			out := make([]byte, MaxPacketSize)
			n := p.encode(out)
			if !bytes.Equal(out[:n], b) {
				t.Fatalf("decoded and encoded again:\n% x\nwas\n% x", out[:n], b)
			}
		}
		host, _ := newHost(config{InputSize: testInputSize, Nonce: 5, Players: 3, Delay: DefaultDelay}, 0)
		join, _ := newJoiner(config{InputSize: testInputSize, Nonce: 6}, addr(0), 0)
		stranger := "192.0.2.9:9"
		for _, s := range []*session{host, join} {
			s.Receive(1, stranger, b)
			s.Receive(2, addr(0), b)
			s.Poll(3, sendFunc(func(to string, _ []byte) {
				if to == stranger && !(s == host && len(b) == helloSize) {
					t.Fatalf("%v answered a stranger", s.Role())
				}
			}))

		}
		if host.Stats().BadPackets == 0 && (err != nil || p.typ != msgHello) {
			t.Fatalf("host took a datagram from a stranger: % x", b)
		}
	})
}
