//go:build js && wasm

package web

import (
	"context"
	"errors"

	"github.com/interpdemo/interpdemo/internal/demo"
	"github.com/interpdemo/interpdemo/internal/room"
	"github.com/interpdemo/interpdemo/netplay/netsim"
	"github.com/interpdemo/interpdemo/netplay/webrtc"
)

// pageNetwork is a page's network: a lobby's rooms, over the browser's
// WebRTC data channels (package room). A page has no UDP.
type pageNetwork struct{}

var _ demo.Network = pageNetwork{}

var errNoUDP = errors.New("a page has no UDP: play through a lobby's room (?lobby=ws://HOST:PORT/ROOM)")

func (pageNetwork) Listen(string, netsim.Conditions, uint64) (demo.Conn, error) {
	return nil, errNoUDP
}

func (pageNetwork) Resolve(context.Context, string) (string, error) { return "", errNoUDP }

// Lobby enters a lobby's room.
func (pageNetwork) Lobby(ctx context.Context, url string, cfg webrtc.Config) (demo.Room, error) {
	return room.Enter(ctx, url, cfg)
}

// Nonce returns 64 random bits, never 0 (the browser's crypto).
func (pageNetwork) Nonce() (uint64, error) { return demo.CryptoNonce() }
