package webrtc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
)

// hub relays signaling messages in memory between the Signalers it
// makes, as a lobby would.
type hub struct {
	mu    sync.Mutex
	boxes map[string]chan message
}

type message struct {
	from string
	data []byte
}

func newHub() *hub { return &hub{boxes: make(map[string]chan message)} }

// join makes the Signaler of the peer named id.
func (h *hub) join(id string) *endpoint {
	h.mu.Lock()
	defer h.mu.Unlock()
	box := make(chan message, 1024)
	h.boxes[id] = box
	return &endpoint{h: h, id: id, box: box}
}

// endpoint is a peer's Signaler.
type endpoint struct {
	h   *hub
	id  string
	box chan message
}

func (e *endpoint) Send(to string, data []byte) error {
	if len(data) > maxSignal {
		return errors.New("message too large")
	}
	e.h.mu.Lock()
	box := e.h.boxes[to]
	e.h.mu.Unlock()
	if box == nil {
		return fmt.Errorf("unknown recipient %q", to)
	}
	select {
	case box <- message{e.id, bytes.Clone(data)}:
		return nil
	default:
		return fmt.Errorf("%q is not reading", to)
	}
}

func (e *endpoint) Recv(ctx context.Context) (string, []byte, error) {
	select {
	case m := <-e.box:
		return m.from, m.data, nil
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}
