//go:build js

package webrtc

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"github.com/interpdemo/interpdemo/netplay"
)

// In a browser a link is the page's own RTCPeerConnection with one
// RTCDataChannel, driven through syscall/js; pion is not linked.
//
// The browser calls the handlers set here from its event loop, which
// waits for each to return, and which is also what settles the promises
// and delivers the messages that the rest of the program may be waiting
// for: a handler that blocked would stop them all. So a handler only
// copies what it is given and hands it over without blocking (a
// datagram into the ring, a candidate or a lost connection to a new
// goroutine), and the promises are awaited on the goroutines that made
// them (the signaling's, Dial's), each with a deadline.

var (
	jsRTCPeerConnection = js.Global().Get("RTCPeerConnection")
	jsUint8Array        = js.Global().Get("Uint8Array")
	jsString            = js.Global().Get("String")
)

// rtcConfig is what a Transport's connections are made with: in a
// browser, the RTCConfiguration, and the deadline of each promise.
type rtcConfig struct {
	conf    js.Value
	timeout time.Duration
}

// newRTCConfig makes the RTCConfiguration for cfg, checked and with its
// defaults set: its ICE servers, with their credentials, and the ICE
// transport policy "relay" if cfg.RelayOnly. IncludeLoopback does
// nothing here: the browser gathers its candidates as it will.
func newRTCConfig(cfg Config) (rtcConfig, error) {
	servers := make([]any, 0, len(cfg.ICEServers))
	for _, s := range cfg.ICEServers {
		urls := make([]any, len(s.URLs))
		for i, u := range s.URLs {
			urls[i] = u
		}
		server := map[string]any{"urls": urls}
		if s.Username != "" {
			server["username"] = s.Username
		}
		if s.Credential != "" {
			server["credential"] = s.Credential
		}
		servers = append(servers, server)
	}
	conf := map[string]any{"iceServers": servers}
	if cfg.RelayOnly {
		conf["iceTransportPolicy"] = "relay"
	}
	return rtcConfig{conf: js.ValueOf(conf), timeout: cfg.Timeout}, nil
}

// checkICEURL parses a STUN or TURN server's URL, and reports whether it
// is a TURN server's.
func checkICEURL(raw string) (turn bool, err error) { return parseICEURL(raw) }

// jsLink is a link through the browser's RTCPeerConnection.
type jsLink struct {
	p       *peer
	pc, dc  js.Value
	timeout time.Duration
	funcs   []js.Func     // the handlers set on pc and dc, released by close
	quit    chan struct{} // closed by close: awaits give up

	smu   sync.Mutex // guards what follows: Send's from any goroutine
	out   js.Value   // a Uint8Array of netplay.MaxPacketSize bytes, what send copies pkt into
	views []any      // views[n]: out.subarray(0, n) as made once, boxed for Call
}

var _ link = (*jsLink)(nil)

// handlers of pc and dc: close sets each to null.
var (
	pcHandlers = []string{"onicecandidate", "onconnectionstatechange", "oniceconnectionstatechange"}
	dcHandlers = []string{"onopen", "onclose", "onmessage"}
)

func newLink(p *peer) (_ link, err error) {
	if jsRTCPeerConnection.Type() != js.TypeFunction {
		return nil, fmt.Errorf("webrtc: new connection to %q: no RTCPeerConnection here (a page's window has it)", p.addr)
	}
	l := &jsLink{
		p:       p,
		timeout: p.t.rtc.timeout,
		quit:    make(chan struct{}),
		views:   make([]any, netplay.MaxPacketSize+1),
	}
	if err := catch(func() { l.pc = jsRTCPeerConnection.New(p.t.rtc.conf) }); err != nil {
		return nil, fmt.Errorf("webrtc: new connection to %q: %v", p.addr, err)
	}
	err = catch(func() {
		l.dc = l.pc.Call("createDataChannel", Label, map[string]any{
			"negotiated":     true,
			"id":             0,
			"ordered":        false,
			"maxRetransmits": 0,
		})
		l.dc.Set("binaryType", "arraybuffer") // not Blobs, which are read asynchronously
		l.out = jsUint8Array.New(netplay.MaxPacketSize)
	})
	if err != nil {
		_ = catch(func() { l.pc.Call("close") })
		return nil, fmt.Errorf("webrtc: data channel to %q: %v", p.addr, err)
	}
	t, addr := p.t, p.addr
	l.handle(l.pc, "onicecandidate", func(ev js.Value) {
		c := ev.Get("candidate")
		if c.IsNull() || c.IsUndefined() { // gathering is complete
			return
		}
		go p.local(candidateOf(c.Call("toJSON"))) // it signals, which may block
	})
	lost := func(state string) func(js.Value) {
		return func(js.Value) {
			if s := l.pc.Get(state).String(); s == "failed" || s == "closed" {
				go t.lose(p)
			}
		}
	}
	l.handle(l.pc, "onconnectionstatechange", lost("connectionState"))
	l.handle(l.pc, "oniceconnectionstatechange", lost("iceConnectionState"))
	l.handle(l.dc, "onopen", func(js.Value) { p.opens() })
	l.handle(l.dc, "onclose", func(js.Value) { go t.lose(p) })
	l.handle(l.dc, "onmessage", func(ev js.Value) {
		data := ev.Get("data")
		if data.Type() == js.TypeString { // sent as text by some other program
			t.push(addr, []byte(data.String()))
			return
		}
		view := jsUint8Array.New(data) // data is an ArrayBuffer
		t.enqueue(addr, view.Length(), func(dst []byte) int { return js.CopyBytesToGo(dst, view) })
	})
	return l, nil
}

// handle sets obj's event handler name to f, until close.
func (l *jsLink) handle(obj js.Value, name string, f func(ev js.Value)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := js.Undefined()
		if len(args) > 0 {
			ev = args[0]
		}
		f(ev)
		return nil
	})
	l.funcs = append(l.funcs, fn)
	obj.Set(name, fn)
}

// candidateOf reads an RTCIceCandidateInit (a candidate's toJSON()).
func candidateOf(j js.Value) candidate {
	c := candidate{Candidate: j.Get("candidate").String()}
	if v := j.Get("sdpMid"); v.Type() == js.TypeString {
		s := v.String()
		c.SDPMid = &s
	}
	if v := j.Get("sdpMLineIndex"); v.Type() == js.TypeNumber {
		i := uint16(v.Int())
		c.SDPMLineIndex = &i
	}
	if v := j.Get("usernameFragment"); v.Type() == js.TypeString {
		s := v.String()
		c.UsernameFragment = &s
	}
	return c
}

func (l *jsLink) describe(kind string) (string, error) {
	method := "createAnswer"
	if kind == kindOffer {
		method = "createOffer"
	}
	desc, err := l.await(method)
	if err != nil {
		return "", err
	}
	if _, err := l.await("setLocalDescription", desc); err != nil {
		return "", err
	}
	return desc.Get("sdp").String(), nil
}

func (l *jsLink) setRemote(kind, sdp string) error {
	_, err := l.await("setRemoteDescription", map[string]any{"type": kind, "sdp": sdp})
	return err
}

func (l *jsLink) addCandidate(c candidate) error {
	init := map[string]any{"candidate": c.Candidate}
	if c.SDPMid != nil {
		init["sdpMid"] = *c.SDPMid
	}
	if c.SDPMLineIndex != nil {
		init["sdpMLineIndex"] = int(*c.SDPMLineIndex)
	}
	if c.UsernameFragment != nil {
		init["usernameFragment"] = *c.UsernameFragment
	}
	_, err := l.await("addIceCandidate", init)
	return err
}

// await calls pc's method, which returns a promise, and waits until the
// promise settles, the link closes or the deadline passes. The promise's
// handlers only hand its outcome over, and release themselves when it
// comes (not before: a promise given up on may settle later).
func (l *jsLink) await(method string, args ...any) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 1)
	var resolve, reject js.Func
	settle := func(o outcome) {
		done <- o // never blocks: the one outcome a promise has
		resolve.Release()
		reject.Release()
	}
	resolve = js.FuncOf(func(_ js.Value, a []js.Value) any {
		o := outcome{v: js.Undefined()}
		if len(a) > 0 {
			o.v = a[0]
		}
		settle(o)
		return nil
	})
	reject = js.FuncOf(func(_ js.Value, a []js.Value) any {
		reason := js.Undefined()
		if len(a) > 0 {
			reason = a[0]
		}
		settle(outcome{err: errors.New(jsString.Invoke(reason).String())})
		return nil
	})
	if err := catch(func() { l.pc.Call(method, args...).Call("then", resolve, reject) }); err != nil {
		resolve.Release()
		reject.Release()
		return js.Undefined(), fmt.Errorf("%s: %v", method, err)
	}
	timer := time.NewTimer(l.timeout)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.err != nil {
			return o.v, fmt.Errorf("%s: %v", method, o.err)
		}
		return o.v, nil
	case <-l.quit:
		return js.Undefined(), fmt.Errorf("%s: connection closed", method)
	case <-timer.C:
		return js.Undefined(), fmt.Errorf("%s: not done within %v", method, l.timeout)
	}
}

func (l *jsLink) buffered() int { return l.dc.Get("bufferedAmount").Int() }

// send copies pkt into the link's one Uint8Array and sends a view of it
// (the data channel copies what it is given at once): after the first
// datagram of each length, nothing is allocated.
func (l *jsLink) send(pkt []byte) error {
	return catch(func() { // the data channel throws when it is not open
		l.smu.Lock()
		defer l.smu.Unlock()
		n := len(pkt)
		if n >= len(l.views) { // longer than netplay sends
			big := jsUint8Array.New(n)
			js.CopyBytesToJS(big, pkt)
			l.dc.Call("send", big)
			return
		}
		js.CopyBytesToJS(l.out, pkt)
		view := l.views[n]
		if view == nil {
			view = l.out.Call("subarray", 0, n)
			l.views[n] = view
		}
		l.dc.Call("send", view)
	})
}

func (l *jsLink) iceState() string { return l.pc.Get("iceConnectionState").String() }

// close takes the handlers away first (events already queued find none),
// closes the data channel and the connection, and releases the handlers.
func (l *jsLink) close() {
	for _, h := range pcHandlers {
		l.pc.Set(h, js.Null())
	}
	for _, h := range dcHandlers {
		l.dc.Set(h, js.Null())
	}
	_ = catch(func() { l.dc.Call("close") })
	_ = catch(func() { l.pc.Call("close") })
	for _, f := range l.funcs {
		f.Release()
	}
	l.funcs = nil
	close(l.quit)
}

// catch runs f, and returns the JavaScript exception it threw, if any.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = errors.New(jsString.Invoke(e.Value).String())
		}
	}()
	f()
	return nil
}
