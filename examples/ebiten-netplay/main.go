// Command ebiten-netplay is a two-player game made with Ebitengine and put
// on the network with the interpdemo netcode library: package netplay
// (the session and its Runner, rollback or lockstep), a transport (UDP,
// netplay/udp; or WebRTC data channels through a lobby's room,
// netplay/webrtc) and loop (the fixed tick). The game is not the
// interpdemo demo's ball world: it is Puck (package puck), two squares on
// a 320×240 field pushing a puck into each other's goal. Its simulation
// is integer fixed-point math, its per-tick input one byte of direction
// bits, its settings (field, tick rate, netcode, seed) a 15-byte blob the
// host sends; that is all the library needs to know of it.
//
// Two terminals on one machine, over UDP:
//
//	go run . -host 127.0.0.1:7777
//	go run . -join 127.0.0.1:7777
//
// or through a lobby's room (go run ./cmd/lobby -addr 127.0.0.1:8780 at
// the repository's top), over WebRTC, where the first to arrive hosts:
//
//	go run . -lobby ws://127.0.0.1:8780/puck
//	go run . -lobby ws://127.0.0.1:8780/puck
//
// The same program runs in a browser (GOOS=js GOARCH=wasm, index.html),
// through a lobby's room only, its flags in the page's query:
// index.html?lobby=ws://127.0.0.1:8780/puck&bot=2 (see browser.go).
//
// Arrows or WASD move your square; Space toggles interpolation; Q, Escape
// or closing the window quits (for both players, at a tick they agree on).
//
// The loop is Ebitengine's own fixed update: Update runs TPS times a
// second (ebiten.SetTPS with the game's tick rate, the host's -tps), one
// tick a call. Update reads the clock once, stamps the key changes with
// that reading, reads the datagrams that arrived, lets puck.Peer run the
// call's tick through netplay.Runner.Update (which skips one now and then
// when time sync finds this peer ahead of the other), and writes the
// datagrams due. Draw draws every square between its position before and
// after the latest tick, by the time since that tick's Update; it changes
// nothing.
//
// At exit it prints one line, the game's end as this peer saw it:
//
//	ticks=300 hash=840764d1b9aa76ad rollbacks=41 resimulated=120 score=1:3 netcode=rollback
//
// and exits with status 0 after a clean end (a player quit, the tick
// limit), 1 after a failure (a desync, a silent peer, a room it could
// not enter), 2 for bad flags. The host prints "hosting on ADDR" (UDP)
// or "hosting the room URL as ID" (a lobby's room) first, a room's
// joiner "joined the room URL as ID: its host is ID"; both print "game
// started" when the game starts.
package main

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/interpdemo/interpdemo/examples/ebiten-netplay/puck"
	"github.com/interpdemo/interpdemo/input"
	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay"
)

const name = "ebiten-netplay"

// options are the command line.
type options struct {
	host, join string // a game over UDP (udp.go; not in a browser)
	lobby      string // a lobby's room: its URL, with the players it waits for
	bot        bool
	botSeed    uint64
	ticks      uint64
	settings   puck.Settings
	netDelay   time.Duration
	netTimeout time.Duration
	interp     bool
}

// hostOnly are the flags that set the host's game: a joiner plays the
// host's. In a lobby's room they count if this player arrives first.
var hostOnly = []string{"ticks", "netcode", "tps", "field", "seed"}

// parse reads the command line; the error is one line naming the flag.
func parse(args []string, stderr io.Writer) (options, error) {
	o := options{settings: puck.DefaultSettings()}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.lobby, "lobby", "", "play in the lobby's room at `URL` (ws://HOST:PORT/ROOM), over WebRTC: the first to arrive hosts, with its host flags; the other joins")
	defineUDP(fs, &o) // -host, -join, -net-delay: not in a browser
	fs.Func("bot", "your input comes from a deterministic bot seeded with `SEED`, not the keyboard", func(s string) error {
		v, err := strconv.ParseUint(s, 0, 64)
		o.bot, o.botSeed = true, v
		return err
	})
	fs.Uint64Var(&o.ticks, "ticks", 0, "host: end the game after `N` ticks (0: play until somebody quits)")
	netcode := fs.String("netcode", o.settings.Netcode.String(), "host: the `NETCODE`, rollback (predict, correct, no input delay) or lockstep (wait for every input, 2 ticks of input delay)")
	fs.IntVar(&o.settings.TPS, "tps", o.settings.TPS, fmt.Sprintf("host: logic ticks per second, `N` from %d to %d", puck.MinTPS, puck.MaxTPS))
	field := fs.String("field", fmt.Sprintf("%dx%d", o.settings.Width, o.settings.Height), "host: the field's `WxH` in pixels")
	fs.Uint64Var(&o.settings.Seed, "seed", o.settings.Seed, "host: the `SEED` of the serves' directions")
	fs.DurationVar(&o.netTimeout, "net-timeout", netplay.DefaultSilence, "the other player silent this `DURATION` is gone: the game ends with an error")
	fs.BoolVar(&o.interp, "interp", true, "start with interpolation on (Space toggles it)")
	fs.Usage = func() {} // an error is one line; -h prints the usage
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage: %s %s [flags]\n%s\n%s\n\n", name, modes, usageNote, helpLine())
			fs.PrintDefaults()
		}
		return o, err // the flag package printed any other
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := o.check(fs.Args(), set, *netcode, *field); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return o, err
	}
	return o, nil
}

// check checks the options parsed and completes them: the lobby's room
// URL, the netcode and the field's size (from netcode and field, the
// flags' values); args are the arguments left, set the flags given.
func (o *options) check(args []string, set map[string]bool, netcode, field string) error {
	switch {
	case len(args) > 0:
		return fmt.Errorf("takes flags only, not arguments (got %q)", args)
	case o.host == "" && o.join == "" && o.lobby == "":
		return errors.New(needed)
	case o.lobby != "" && (o.host != "" || o.join != ""):
		return errors.New("-lobby cannot be combined with -host or -join")
	case o.host != "" && o.join != "":
		return errors.New("-join cannot be combined with -host")
	case o.ticks > netplay.MaxTick:
		return fmt.Errorf("-ticks must be at most %d (got %d)", uint64(netplay.MaxTick), o.ticks)
	case o.netDelay < 0 || o.netDelay > 10*time.Second:
		return fmt.Errorf("-net-delay must be between 0 and 10s (got %v)", o.netDelay)
	case o.netTimeout <= 0 || o.netTimeout > time.Hour:
		return fmt.Errorf("-net-timeout must be more than 0 and at most 1h (got %v)", o.netTimeout)
	case o.lobby != "" && set["net-delay"]:
		return errors.New("-net-delay is for a game over UDP (-host, -join), not a lobby's room")
	}
	if o.lobby != "" {
		u, err := roomURL(o.lobby)
		if err != nil {
			return fmt.Errorf("-lobby: %v", err)
		}
		o.lobby = u
	}
	if o.join != "" {
		for _, f := range hostOnly {
			if set[f] {
				return fmt.Errorf("-%s is the host's to set: a joiner plays the host's game", f)
			}
		}
		if err := checkJoin(o.join); err != nil {
			return fmt.Errorf("-join: %v", err)
		}
	}
	switch netcode {
	case netplay.Rollback.String():
		o.settings.Netcode = netplay.Rollback
	case netplay.Lockstep.String():
		o.settings.Netcode = netplay.Lockstep
	default:
		return fmt.Errorf("-netcode must be rollback or lockstep (got %q)", netcode)
	}
	if o.settings.TPS < puck.MinTPS || o.settings.TPS > puck.MaxTPS {
		return fmt.Errorf("-tps must be between %d and %d (got %d)", puck.MinTPS, puck.MaxTPS, o.settings.TPS)
	}
	w, h, ok := strings.Cut(field, "x")
	var errW, errH error
	o.settings.Width, errW = strconv.Atoi(w)
	o.settings.Height, errH = strconv.Atoi(h)
	if !ok || errW != nil || errH != nil || o.settings.Check() != nil {
		return fmt.Errorf("-field must be WxH, each side %d to %d pixels (got %q)", puck.MinSize, puck.MaxSize, field)
	}
	return nil
}

// run is the program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	a, err := open(o, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	// In a browser this runs on the program's main goroutine, never in a
	// JavaScript callback (Ebitengine returns from RunGame there too), so
	// a Close that waits for the browser's events is safe.
	defer a.conn.Close()
	ebiten.SetWindowTitle("Puck over the network: " + helpLine())
	ebiten.SetWindowSize(2*o.settings.Width, 2*o.settings.Height) // a joiner's field comes with the host's Welcome
	ebiten.SetWindowClosingHandled(true)                          // closing quits for both players: see frame
	ebiten.SetTPS(o.settings.TPS)                                 // Ebitengine's fixed update, one tick a call (a joiner: the host's rate, set at the Welcome)
	if err := ebiten.RunGame(a); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	fmt.Fprintln(stdout, a.peer.Result())
	if err := a.peer.Err(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	return 0
}

// conn is the game's transport: a UDP socket (netplay/udp) or a lobby's
// room (WebRTC data channels, netplay/webrtc).
type conn interface {
	netplay.Transport
	Close() error
}

// open opens the transport (a UDP socket, or the lobby's room once
// entered) and the session.
func open(o options, stdout io.Writer) (*app, error) {
	nonce, err := newNonce()
	if err != nil {
		return nil, err
	}
	clock := loop.NewRealClock()
	var (
		c    conn
		sess *netplay.Session
		host string // a joiner's word on its host, for Draw
	)
	if o.lobby != "" {
		c, sess, host, err = openRoom(o, nonce, clock, stdout)
	} else {
		c, sess, host, err = openUDP(o, nonce, clock, stdout)
	}
	if err != nil {
		return nil, err
	}
	return &app{
		clock: clock, conn: c, tr: c, stdout: stdout, interp: o.interp, join: host,
		peer:    puck.NewPeer(sess, puck.PeerConfig{Bot: o.bot, BotSeed: o.botSeed}),
		pressed: make([]ebiten.Key, 0, 16), released: make([]ebiten.Key, 0, 16),
	}, nil
}

// hostConfig is the session configuration of a host of the game.
func (o options) hostConfig(nonce uint64) netplay.Config {
	c := puck.HostConfig(o.settings, nonce, o.ticks)
	c.Silence = o.netTimeout
	return c
}

// joinConfig is the session configuration of a joiner.
func (o options) joinConfig(nonce uint64) netplay.Config {
	c := puck.JoinConfig(nonce)
	c.Silence = o.netTimeout
	return c
}

// newNonce is 64 random bits, not 0.
func newNonce() (uint64, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		if n := binary.LittleEndian.Uint64(b[:]); n != 0 {
			return n, nil
		}
	}
}

// A key is what one key does: move the local player (a button of the
// input package) or act at once.
type key struct {
	keys   []ebiten.Key
	button input.Button // for a move
	act    func(a *app, now time.Duration)
	help   string
}

// keyTable drives the dispatch and the help line.
var keyTable = []key{
	{keys: []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyA}, button: input.Left},
	{keys: []ebiten.Key{ebiten.KeyArrowRight, ebiten.KeyD}, button: input.Right},
	{keys: []ebiten.Key{ebiten.KeyArrowUp, ebiten.KeyW}, button: input.Up},
	{keys: []ebiten.Key{ebiten.KeyArrowDown, ebiten.KeyS}, button: input.Down, help: "arrows/WASD move"},
	{keys: []ebiten.Key{ebiten.KeySpace}, act: (*app).toggleInterp, help: "Space: interpolation"},
	{keys: []ebiten.Key{ebiten.KeyQ, ebiten.KeyEscape}, act: (*app).quit, help: "Q quits"},
}

// lookup returns what key k does.
func lookup(k ebiten.Key) (*key, bool) {
	for i := range keyTable {
		for _, kk := range keyTable[i].keys {
			if kk == k {
				return &keyTable[i], true
			}
		}
	}
	return nil, false
}

func helpLine() string {
	var parts []string
	for _, k := range keyTable {
		if k.help != "" {
			parts = append(parts, k.help)
		}
	}
	return strings.Join(parts, ", ")
}

// app is the ebiten.Game: the shell around a puck.Peer. It turns key
// changes into timestamped events, carries the datagrams, and draws.
type app struct {
	clock  loop.Clock
	conn   conn
	tr     netplay.Transport // conn, converted once: see netplay.Read
	peer   *puck.Peer
	stdout io.Writer
	join   string // the host, for the line drawn while joining

	interp   bool
	quitting bool
	started  bool // "game started" was said
	sized    bool // the window has the game's field size

	pressed, released []ebiten.Key // reused for each Update's key changes
	hud               []byte
}

// Update is one frame: it gathers what Ebitengine knows and hands it to
// frame.
func (a *app) Update() error {
	a.pressed = inpututil.AppendJustPressedKeys(a.pressed[:0])
	a.released = inpututil.AppendJustReleasedKeys(a.released[:0])
	return a.frame(a.clock.Now(), a.pressed, a.released, ebiten.IsFocused(), ebiten.IsWindowBeingClosed())
}

// frame runs the frame at now, given the key changes since the last one,
// whether the window has the focus and whether it is being closed.
func (a *app) frame(now time.Duration, pressed, released []ebiten.Key, focused, closing bool) error {
	// Ebitengine reports key changes without their times: they are
	// stamped with this frame's reading, and act from the tick whose span
	// ends after it.
	for _, k := range pressed {
		if kk, ok := lookup(k); ok {
			if kk.act != nil {
				kk.act(a, now)
			} else {
				a.peer.Push(input.Event{Time: now, Button: kk.button, Down: true})
			}
		}
	}
	for _, k := range released {
		if kk, ok := lookup(k); ok && kk.act == nil {
			a.peer.Push(input.Event{Time: now, Button: kk.button, Down: false})
		}
	}
	if !focused {
		a.peer.ReleaseAll(now) // releases in another window are never reported
	}
	if closing {
		a.quit(now)
	}

	sess := a.peer.Session()
	netplay.Read(now, a.tr, sess)
	a.peer.Update(now) // the call's tick, unless time sync advises skipping it
	netplay.Write(now, a.tr, sess)

	if g := a.peer.Game(); g != nil && !a.sized {
		set := g.Settings()
		ebiten.SetWindowSize(2*set.Width, 2*set.Height)
		ebiten.SetTPS(set.TPS) // the host's tick rate
		a.sized = true
	}
	if !a.started && sess.State() >= netplay.StateRunning {
		a.started = true
		fmt.Fprintf(a.stdout, "game started: player %d of %d, %v\n", sess.Index(), sess.Players(), a.peer.Result().Netcode)
	}
	if a.peer.Done() {
		return ebiten.Termination
	}
	return nil
}

// quit ends the game for both players; the frames go on until the
// session has told the other one.
func (a *app) quit(now time.Duration) {
	if !a.quitting {
		a.quitting = true
		a.peer.Quit(now)
	}
}

func (a *app) toggleInterp(time.Duration) { a.interp = !a.interp }

var (
	background = color.RGBA{0x14, 0x1a, 0x29, 0xff}
	lines      = color.RGBA{0x3a, 0x44, 0x5c, 0xff}
	goalColor  = color.RGBA{0xe8, 0xc5, 0x47, 0xff}
	puckColor  = color.RGBA{0xf0, 0xf0, 0xf0, 0xff}
	players    = [puck.Players]color.RGBA{{0x4f, 0x9d, 0xf2, 0xff}, {0xf2, 0x7b, 0x4f, 0xff}}
)

// Draw draws the field, each square at percentWithinTick between its
// position before and after the latest tick, and a line of text. It
// changes no game state.
func (a *app) Draw(screen *ebiten.Image) {
	screen.Fill(background)
	g := a.peer.Game()
	if g == nil {
		ebitenutil.DebugPrint(screen, "joining "+a.join)
		return
	}
	set := g.Settings()
	w, h := float32(set.Width), float32(set.Height)
	vector.StrokeLine(screen, w/2, 0, w/2, h, 1, lines, false)
	vector.DrawFilledRect(screen, 0, h/4, 2, h/2, goalColor, false)
	vector.DrawFilledRect(screen, w-2, h/4, 2, h/2, goalColor, false)

	pct := 1.0 // interpolation off: the newest state
	if a.interp {
		pct = min(1, float64(a.clock.Now()-a.peer.TickAt())/float64(set.Tick()))
	}
	s := &g.State
	me := a.peer.Session().Index()
	for p := range s.Players {
		x, y := s.Players[p].At(pct)
		half := float32(puck.PlayerHalf / puck.One)
		vector.DrawFilledRect(screen, float32(x)-half, float32(y)-half, 2*half, 2*half, players[p], false)
		if p == me {
			vector.StrokeRect(screen, float32(x)-half-2, float32(y)-half-2, 2*half+4, 2*half+4, 1, puckColor, false)
		}
	}
	x, y := s.Puck.At(pct)
	half := float32(puck.PuckHalf / puck.One)
	vector.DrawFilledRect(screen, float32(x)-half, float32(y)-half, 2*half, 2*half, puckColor, false)

	ebitenutil.DebugPrint(screen, string(a.hudLine()))
}

// hudLine is the score and what the netcode is doing, or the lobby's
// state.
func (a *app) hudLine() []byte {
	st := a.peer.Session().Stats()
	r := a.peer.Result()
	b := a.hud[:0]
	switch st.State {
	case netplay.StateJoining, netplay.StateLobby:
		b = fmt.Appendf(b, "waiting for players %d/%d", st.Joined, st.Players)
	default:
		b = fmt.Appendf(b, "%d : %d  %v", r.Score[0], r.Score[1], r.Netcode)
		if peer := 1 - st.Index; st.Peers[peer].RTT > 0 {
			b = fmt.Appendf(b, "  ping %dms", st.Peers[peer].RTT.Milliseconds())
		}
		if r.Netcode == netplay.Rollback {
			b = fmt.Appendf(b, "  rollbacks %d", r.Rollbacks)
		}
		if !a.interp {
			b = append(b, "\ninterpolation off (Space)"...)
		}
		if st.End != "" {
			b = fmt.Appendf(b, "\ngame over: %s", st.End)
		}
	}
	a.hud = b
	return b
}

// Layout makes the screen the field: one pixel per unit, scaled by
// Ebitengine to the window.
func (a *app) Layout(int, int) (int, int) {
	if g := a.peer.Game(); g != nil {
		set := g.Settings()
		return set.Width, set.Height
	}
	return puck.DefaultWidth, puck.DefaultHeight
}

var _ ebiten.Game = (*app)(nil)
