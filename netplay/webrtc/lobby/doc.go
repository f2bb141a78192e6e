// Package lobby is a signaling server and its client for netplay over
// WebRTC: it puts peers that name the same room together, so that they
// can trade the offers, answers and ICE candidates that open their data
// channels. It relays, it does not look inside.
//
// The protocol is JSON text over a WebSocket. A peer connects to
// ws://HOST:PORT/ROOM?players=N (a room of N players, 2 to 8, host
// included) or ws://HOST:PORT/ROOM?spectate. The first to arrive hosts
// the room. The lobby answers
//
//	{"type":"welcome","id":"p2","host":"p1","players":2,"spectator":false}
//
// (where the lobby has STUN and TURN servers to hand out, Config.ICE,
// the welcome carries them too, "ice":[{"urls":[...],"username":"...",
// "credential":"..."}], a TURN server's credential possibly made for that
// peer alone and good for a while: Config.TURNSecret) and then relays
// each {"type":"signal","to":"p1","data":{...}} to its recipient as
// {"type":"signal","from":"p2","data":{...}}. The host hears
// {"type":"joined",...} and {"type":"left",...} of each peer; when the
// host leaves, every other peer hears that it left and the room
// closes. Anything the lobby will not do (a full room, a bad message,
// too many messages...) gets {"type":"error","reason":"lobby: ..."} and
// the connection closes. A signal to an ID the room never gave is such
// an error; a signal to a peer that has left is dropped without one, for
// the sender may not have heard of the departure yet.
//
// A Server is the lobby (command lobby runs one); a Client is a peer's
// end. Natively the Client speaks through github.com/coder/websocket; in
// a browser (GOOS=js) through the browser's own WebSocket, and neither
// that library nor the Server (nor net/http) is built there:
//
//	c, err := lobby.Join(ctx, "ws://127.0.0.1:8780/r1?players=2")
//	if err != nil {
//		return err // lobby: room "r1" is full (2 of 2 players)
//	}
//	defer c.Close()
//	if !c.IsHost() {
//		err = c.Send(c.Host(), []byte(`{"sdp":"...","kind":"offer"}`))
//	}
//	from, data, err := c.Recv(ctx)
//
// Client's Send and Recv are the Signaler that netplay/webrtc's
// transport takes; netplay/webrtc/room joins a room and opens the
// transport in one call.
package lobby
