package desktop

import (
	"context"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/room"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/udp"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
)

// udpNetwork is the demo's network: UDP sockets (package netplay/udp).
type udpNetwork struct{}

var _ demo.Network = udpNetwork{}

func (udpNetwork) Listen(address string, cond netsim.Conditions, seed uint64) (demo.Conn, error) {
	c, err := udp.Listen(address, udp.Config{Outgoing: cond, Incoming: cond, Seed: seed})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (udpNetwork) Resolve(ctx context.Context, hostport string) (string, error) {
	return udp.ResolveContext(ctx, hostport)
}

// Lobby enters a lobby's room: WebRTC data channels (package room).
func (udpNetwork) Lobby(ctx context.Context, url string, cfg webrtc.Config) (demo.Room, error) {
	return room.Enter(ctx, url, cfg)
}

// Nonce returns 64 random bits, never 0.
func (udpNetwork) Nonce() (uint64, error) { return demo.CryptoNonce() }
