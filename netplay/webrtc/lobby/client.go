package lobby

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Errors a Client returns. A refusal from the lobby is an error whose
// text is the lobby's reason (`lobby: room "r1" is full (2 of 2
// players)`) and that matches ErrRefused with errors.Is.
var (
	// ErrRefused matches every refusal from the lobby.
	ErrRefused = errors.New("lobby: refused")
	// ErrHostLeft is what a joiner's Recv returns after the host left:
	// the room is closed.
	ErrHostLeft = errors.New("lobby: the host left; the room is closed")
	// ErrClosed is what Send and Recv return after Close.
	ErrClosed = errors.New("lobby: client closed")
	// ErrRoomFull matches a refusal of a player by a room whose players
	// are all there (a spectator may still watch it).
	ErrRoomFull = errors.New("lobby: room full")
	// ErrNoLobby matches a Join that reached no lobby: nothing listens
	// at the address, the host name is unknown, or nothing answered in
	// time.
	ErrNoLobby = errors.New("lobby: no lobby there")
	// ErrNotLobby matches a Join answered by a server that is not a
	// lobby (a web server's HTTP 404, say).
	ErrNotLobby = errors.New("lobby: not a lobby")
)

// refusedError is a refusal: the lobby's reason, as it said it.
type refusedError struct{ reason string }

func (e *refusedError) Error() string { return e.reason }
func (e *refusedError) Is(target error) bool {
	return target == ErrRefused || target == ErrRoomFull && strings.HasSuffix(e.reason, " players)") && strings.Contains(e.reason, " is full (")
}

// dialError is a Join that reached no lobby: its text says where and
// why in a few words, and it matches kind (ErrNoLobby or ErrNotLobby)
// and the cause with errors.Is.
type dialError struct {
	msg   string
	kind  error
	cause error
}

func (e *dialError) Error() string        { return e.msg }
func (e *dialError) Is(target error) bool { return target == e.kind }
func (e *dialError) Unwrap() error        { return e.cause }

func refused(reason string) error {
	if !strings.HasPrefix(reason, "lobby: ") {
		reason = "lobby: refused: " + reason
	}
	return &refusedError{reason: reason}
}

// Event is news of the room, for its host: a peer joined or left. A
// joiner gets one event, the host's leaving.
type Event struct {
	// Type is TypeJoined or TypeLeft.
	Type MsgType
	// ID is the peer's.
	ID string
	// Spectator says whether a peer that joined is a spectator.
	Spectator bool
}

// Option changes how Join joins.
type Option func(*joinOptions)

type joinOptions struct{ buffer int }

// Buffer sets how many signals, and separately how many events, the
// client holds for the caller (default 64). A signal past that ends the
// client with an error, for a lost signal would leave a connection
// half-made; an event past that is dropped.
func Buffer(n int) Option { return func(o *joinOptions) { o.buffer = n } }

// Client is one peer's place in a lobby room: it relays signals to the
// other peers of the room (it is a Signaler for netplay/webrtc) and
// tells the host who comes and goes. Its methods may be called from any
// goroutine. It reads from the lobby with one goroutine of its own,
// which ends when the connection does.
type Client struct {
	conn    socket
	welcome ServerMsg
	signals chan signalMsg
	events  chan Event

	life     context.Context // ends at Close
	endLife  context.CancelFunc
	done     chan struct{} // closed when the reader ends, err set
	err      error
	closing  atomic.Bool
	closeRun sync.Once
}

// socket is the client's WebSocket: coder/websocket's natively, the
// browser's in a page (socket_native.go, socket_js.go).
type socket interface {
	// read returns the next message, and whether it is text.
	read(ctx context.Context) (text bool, b []byte, err error)
	// write sends b as a text message.
	write(ctx context.Context, b []byte) error
	// close closes with a normal closure, waiting a little for the answer.
	close()
	// closeNow closes without the closing handshake.
	closeNow()
}

type signalMsg struct {
	from string
	data []byte
}

// Timeouts of a Client.
const (
	// JoinTimeout bounds Join when its ctx has no deadline.
	JoinTimeout = 30 * time.Second
	// SendTimeout bounds one Send.
	SendTimeout = 10 * time.Second
	// closeGrace bounds Close's goodbye to the lobby.
	closeGrace = 2 * time.Second
)

// Join joins the room at url, ws://HOST:PORT/ROOM?players=N (N players
// in all, 2 to 8, 2 if not given) or ws://HOST:PORT/ROOM?spectate, and
// waits for the lobby's welcome until ctx ends (JoinTimeout if ctx has
// no deadline). The first peer in a room hosts it. A refusal is an error
// with the lobby's reason, matching ErrRefused.
func Join(ctx context.Context, url string, opts ...Option) (*Client, error) {
	o := joinOptions{buffer: 64}
	for _, opt := range opts {
		opt(&o)
	}
	if o.buffer < 1 {
		return nil, fmt.Errorf("lobby: Buffer(%d): want at least 1", o.buffer)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, JoinTimeout)
		defer cancel()
	}
	conn, err := dial(ctx, url)
	if err != nil {
		var de *dialError
		if errors.As(err, &de) {
			return nil, err
		}
		return nil, fmt.Errorf("lobby: join %s: %w", url, err)
	}
	text, b, err := conn.read(ctx)
	if err != nil {
		conn.closeNow()
		return nil, fmt.Errorf("lobby: join %s: no welcome: %w", url, err)
	}
	m, err := DecodeServer(b)
	if err == nil && !text {
		err = errors.New("lobby: a binary message")
	}
	switch {
	case err != nil:
		conn.closeNow()
		return nil, fmt.Errorf("lobby: join %s: %s", url, strings.TrimPrefix(err.Error(), "lobby: "))
	case m.Type == TypeError:
		conn.closeNow()
		return nil, refused(m.Reason)
	case m.Type != TypeWelcome:
		conn.closeNow()
		return nil, fmt.Errorf("lobby: join %s: %s message before the welcome", url, m.Type)
	}
	life, endLife := context.WithCancel(context.Background())
	c := &Client{
		conn:    conn,
		welcome: m,
		signals: make(chan signalMsg, o.buffer),
		events:  make(chan Event, o.buffer),
		life:    life,
		endLife: endLife,
		done:    make(chan struct{}),
	}
	go c.read()
	return c, nil
}

// ID returns this peer's ID in the room.
func (c *Client) ID() string { return c.welcome.ID }

// Host returns the host's ID.
func (c *Client) Host() string { return c.welcome.Host }

// IsHost reports whether this peer hosts the room.
func (c *Client) IsHost() bool { return c.welcome.ID == c.welcome.Host }

// Players returns the room's players, its host included.
func (c *Client) Players() int { return c.welcome.Players }

// Spectator reports whether this peer joined as a spectator.
func (c *Client) Spectator() bool { return c.welcome.Spectator }

// ICEServers returns the STUN and TURN servers the lobby handed this
// peer in its welcome (a TURN server's credential may be this peer's
// own, and expire: see Config.TURNSecret); nil where it handed none.
// netplay/webrtc/room adds them to the peer's own.
func (c *Client) ICEServers() []ICEServer {
	out := make([]ICEServer, len(c.welcome.ICE))
	for i, s := range c.welcome.ICE {
		out[i] = s
		out[i].URLs = append([]string(nil), s.URLs...)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Events returns the room's news: for the host, each peer that joins
// or leaves; for a joiner, the host's leaving. The channel closes when
// the client ends. Events not taken are dropped past the buffer, never
// block the client.
func (c *Client) Events() <-chan Event { return c.events }

// Send relays data, one JSON object of at most MaxData bytes, to the
// peer of the room named to. It returns an error when data is not such
// an object, when the client has ended (why it ended), or when the
// write fails or takes longer than SendTimeout. A peer that has left
// does not get it, and the lobby says nothing: the host hears of the
// departure, a joiner of the host's.
func (c *Client) Send(to string, data []byte) error {
	if !ValidID(to) {
		return fmt.Errorf("lobby: send to %s: not a peer ID", clipTo(fmt.Sprintf("%q", to), 40))
	}
	if err := checkData(data); err != nil {
		return fmt.Errorf("lobby: send to %s: %s", to, strings.TrimPrefix(err.Error(), "lobby: "))
	}
	select {
	case <-c.done:
		return c.err
	default:
	}
	b := AppendClient(make([]byte, 0, len(data)+64), ClientMsg{To: to, Data: data})
	ctx, cancel := context.WithTimeout(c.life, SendTimeout)
	defer cancel()
	if err := c.conn.write(ctx, b); err != nil {
		if c.closing.Load() {
			return ErrClosed
		}
		select {
		case <-c.done:
			return c.err // why the connection ended, said better
		default:
		}
		return fmt.Errorf("lobby: send to %s: %w", to, err)
	}
	return nil
}

// Recv waits until ctx ends for the next signal relayed to this peer,
// and returns its sender and data (the caller's to keep). When the
// client has ended, it returns the signals still held, then why it
// ended: ErrClosed, ErrHostLeft, a refusal (a message the lobby would
// not relay), or the connection's end.
func (c *Client) Recv(ctx context.Context) (from string, data []byte, err error) {
	select {
	case s := <-c.signals:
		return s.from, s.data, nil
	default:
	}
	select {
	case s := <-c.signals:
		return s.from, s.data, nil
	case <-c.done:
		select {
		case s := <-c.signals:
			return s.from, s.data, nil
		default:
			return "", nil, c.err
		}
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

// Close leaves the room: it closes the connection (a WebSocket close,
// waiting at most a couple of seconds for the lobby's answer) and waits
// for the client's goroutine to end. Send then returns ErrClosed, and
// Recv does once the signals it held are taken. Close always returns
// nil; closing twice does nothing.
func (c *Client) Close() error {
	c.closeRun.Do(func() {
		c.closing.Store(true)
		force := time.AfterFunc(closeGrace, c.endLife)
		c.conn.close()
		force.Stop()
		c.endLife()
		<-c.done
	})
	return nil
}

// read reads the lobby's messages until the connection ends, handing
// signals to Recv and news to Events.
func (c *Client) read() {
	var refusal error
	hostLeft := false
	var end error
	for end == nil {
		text, b, err := c.conn.read(c.life)
		if err != nil {
			end = c.why(err, refusal, hostLeft)
			break
		}
		m, err := DecodeServer(b)
		if err == nil && !text {
			err = errors.New("lobby: a binary message from the lobby")
		}
		if err != nil {
			end = err
			break
		}
		switch m.Type {
		case TypeSignal:
			select {
			case c.signals <- signalMsg{from: m.From, data: m.Data}:
			default:
				end = fmt.Errorf("lobby: %d signals unread: Recv did not keep up", cap(c.signals))
			}
		case TypeJoined, TypeLeft:
			if m.Type == TypeLeft && m.ID == c.welcome.Host {
				hostLeft = true
			}
			select {
			case c.events <- Event{Type: m.Type, ID: m.ID, Spectator: m.Spectator}:
			default:
			}
		case TypeError:
			refusal = refused(m.Reason) // the lobby closes next
		case TypeWelcome:
			end = errors.New("lobby: a second welcome")
		}
	}
	if c.closing.Load() {
		end = ErrClosed
	}
	c.err = end
	c.endLife()
	if !c.closing.Load() {
		c.conn.closeNow() // Close, under way, closes it
	}
	close(c.events)
	close(c.done)
}

// why says why the connection ended with err.
func (c *Client) why(err, refusal error, hostLeft bool) error {
	switch {
	case refusal != nil:
		return refusal
	case hostLeft && !c.IsHost():
		return ErrHostLeft
	}
	if reason, ok := closeReason(err); ok && strings.HasPrefix(reason, "lobby: ") {
		return errors.New(oneLine(reason))
	}
	return fmt.Errorf("lobby: connection lost: %w", err)
}
