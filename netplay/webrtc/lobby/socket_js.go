//go:build js

package lobby

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"syscall/js"
	"time"
)

// In a page the client speaks through the browser's WebSocket: a
// WebSocket library for Go links net/http and crypto/tls into the page,
// which the browser already is.

// jsQueue bounds the messages the browser has handed over and the client
// has not read yet: its goroutine reads them as they come, so only a
// flood fills it, and that ends the connection.
const jsQueue = 256

// dial opens the lobby's WebSocket at url with the browser's WebSocket
// and waits until it is open, it fails, or ctx ends.
func dial(ctx context.Context, url string) (s socket, err error) {
	defer func() {
		if r := recover(); r != nil { // the constructor throws on a malformed URL
			s, err = nil, fmt.Errorf("%v", r)
		}
	}()
	ws := js.Global().Get("WebSocket").New(url)
	ws.Set("binaryType", "arraybuffer")
	j := &jsSocket{ws: ws, msgs: make(chan jsMsg, jsQueue), open: make(chan struct{}), closed: make(chan struct{})}
	j.funcs = []js.Func{
		js.FuncOf(func(js.Value, []js.Value) any { close(j.open); return nil }),
		js.FuncOf(func(_ js.Value, a []js.Value) any { j.onMessage(a[0].Get("data")); return nil }),
		js.FuncOf(func(_ js.Value, a []js.Value) any {
			j.end(&closeError{code: a[0].Get("code").Int(), reason: a[0].Get("reason").String()})
			return nil
		}),
	}
	ws.Set("onopen", j.funcs[0])
	ws.Set("onmessage", j.funcs[1])
	ws.Set("onclose", j.funcs[2])
	select {
	case <-j.open:
		return j, nil
	case <-j.closed:
		// The browser tells a page no more than that (code 1006): not
		// whether nothing listens there or a web server answered.
		at := url
		if u, err := neturl.Parse(url); err == nil {
			at = u.Scheme + "://" + u.Host
		}
		return nil, &dialError{fmt.Sprintf("lobby: no lobby answered at %s (the browser's WebSocket %v)", at, j.err), ErrNoLobby, j.err}
	case <-ctx.Done():
		j.closeNow()
		return nil, ctx.Err()
	}
}

type jsMsg struct {
	text bool
	b    []byte
}

type jsSocket struct {
	ws     js.Value
	funcs  []js.Func
	msgs   chan jsMsg
	open   chan struct{}
	closed chan struct{} // closed at the end, err set
	err    error
}

// onMessage takes a message from the browser; it never blocks.
func (j *jsSocket) onMessage(d js.Value) {
	var m jsMsg
	if d.Type() == js.TypeString {
		m = jsMsg{text: true, b: []byte(d.String())}
	} else {
		a := js.Global().Get("Uint8Array").New(d)
		if a.Length() > MaxServerMessage {
			j.end(fmt.Errorf("a message of %d bytes, over %d", a.Length(), MaxServerMessage))
			return
		}
		m.b = make([]byte, a.Length())
		js.CopyBytesToGo(m.b, a)
	}
	if len(m.b) > MaxServerMessage {
		j.end(fmt.Errorf("a message of %d bytes, over %d", len(m.b), MaxServerMessage))
		return
	}
	select {
	case j.msgs <- m:
	default:
		j.end(fmt.Errorf("%d messages unread", jsQueue))
	}
}

// end ends the socket with err, once: the browser's socket is closed and
// its callbacks released.
func (j *jsSocket) end(err error) {
	select {
	case <-j.closed:
		return
	default:
	}
	j.err = err
	close(j.closed)
	j.ws.Call("close")
	for _, f := range []string{"onopen", "onmessage", "onclose"} {
		j.ws.Set(f, js.Null())
	}
	for _, f := range j.funcs {
		f.Release()
	}
}

func (j *jsSocket) read(ctx context.Context) (bool, []byte, error) {
	select {
	case m := <-j.msgs:
		return m.text, m.b, nil
	default:
	}
	select {
	case m := <-j.msgs:
		return m.text, m.b, nil
	case <-j.closed:
		return false, nil, j.err
	case <-ctx.Done():
		return false, nil, ctx.Err()
	}
}

func (j *jsSocket) write(_ context.Context, b []byte) error {
	select {
	case <-j.closed:
		return j.err
	default:
	}
	j.ws.Call("send", string(b))
	return nil
}

// close closes with a normal closure and waits for the lobby's answer,
// at most closeGrace (Client.Close's bound).
func (j *jsSocket) close() {
	j.ws.Call("close", 1000)
	select {
	case <-j.closed:
	case <-time.After(closeGrace):
		j.closeNow()
	}
}

func (j *jsSocket) closeNow() { j.end(errors.New("closed")) }

// closeError is the end of a connection the browser reported.
type closeError struct {
	code   int
	reason string
}

func (e *closeError) Error() string {
	if e.reason == "" {
		return fmt.Sprintf("closed with status %d", e.code)
	}
	return fmt.Sprintf("closed with status %d: %s", e.code, e.reason)
}

// closeReason is the reason of the close frame that ended a read with err.
func closeReason(err error) (string, bool) {
	var ce *closeError
	if errors.As(err, &ce) {
		return ce.reason, true
	}
	return "", false
}
