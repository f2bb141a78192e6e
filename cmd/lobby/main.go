// Command lobby runs the signaling lobby of netplay over WebRTC (package
// netplay/webrtc/lobby): peers that connect to ws://ADDR/ROOM?players=N
// are put in rooms and trade their WebRTC offers, answers and candidates
// through it. GET /health answers its counters as JSON.
//
// It prints "lobby: listening on HOST:PORT" as its first line of
// standard output (with -addr 127.0.0.1:0 the system picks the port),
// logs one line per refusal on standard error, and shuts down gracefully
// on SIGINT or SIGTERM, exiting 0. A bad flag exits 2 with a one-line
// error.
//
// With -ice it hands every peer STUN and TURN servers in its welcome, for
// play across home routers without a flag on the players' side. A TURN
// server given without a credential gets, for each peer, a credential of
// its own made from -turn-secret-file's secret, which the TURN server
// shares (coturn's use-auth-secret and static-auth-secret, command turn's
// -secret-file) and which is good for -turn-ttl: no password is handed
// to everyone, nor good for ever.
//
//	lobby -addr :8780 -rooms 200
//	lobby -addr :8780 -ice turn:turn.example.com:3478?transport=udp -turn-secret-file /etc/lobby/turn-secret
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/interpdemo/interpdemo/internal/cmdline"
	"github.com/interpdemo/interpdemo/netplay/webrtc/lobby"
)

func main() { cmdline.Main(run) }

// defaultAddr is the lobby's address unless -addr says otherwise: the
// loopback interface, so that a lobby started to try things is not open
// to the network (-addr :8780 opens it).
const defaultAddr = "127.0.0.1:8780"

// run runs the lobby until ctx ends and returns the exit status: 0 after
// a graceful shutdown, 1 when it cannot serve, 2 for a bad flag.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lobby", flag.ContinueOnError)
	var f options
	f.define(fs)
	if code, ok := cmdline.Parse(fs, args, stdout, stderr); !ok {
		return code
	}
	cfg, err := f.config(fs)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	return serve(ctx, f, cfg, stdout, stderr)
}

// options are the command's flags.
type options struct {
	addr, origins, ice, secretFile, room, page string
	grace, ttl                                 time.Duration
	limits                                     lobby.Limits
}

// define defines the flags into f.
func (f *options) define(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "addr", defaultAddr, "`HOST:PORT` to listen on (port 0 picks one)")
	fs.StringVar(&f.origins, "origins", "", "comma-separated host `PATTERNS` of the web pages allowed to connect (empty: any)")
	fs.DurationVar(&f.grace, "grace", 5*time.Second, "how long shutdown waits for peers to say goodbye")
	fs.StringVar(&f.ice, "ice", "", "STUN and TURN servers handed to every peer in its welcome, `URLS` separated by commas: stun:HOST:PORT, turn:HOST:PORT?transport=udp (a credential made for each peer from -turn-secret-file), turn:USER:PASS@HOST:PORT (that one credential, for everyone)")
	fs.StringVar(&f.secretFile, "turn-secret-file", "", "the `FILE` whose first line is the secret shared with -ice's TURN servers that have no credential (coturn's static-auth-secret)")
	fs.DurationVar(&f.ttl, "turn-ttl", lobby.DefaultTURNTTL, "how long a TURN credential made from -turn-secret-file is good for: longer than a game")
	fs.StringVar(&f.room, "show-room", "", "after listening, print the commands that play a game in the `ROOM` (make lobby's)")
	fs.StringVar(&f.page, "show-page", "", "with -show-room, the web page's `URL` to print beside them (make serve's)")
	limitFlags(fs, &f.limits)
}

// config checks the flags and returns the server's configuration, or a
// one-line error naming the flag at fault.
func (f *options) config(fs *flag.FlagSet) (lobby.Config, error) {
	if err := check(fs, f.addr, f.grace, f.limits); err != nil {
		return lobby.Config{}, err
	}
	if f.page != "" && f.room == "" {
		return lobby.Config{}, errors.New("lobby: -show-page needs -show-room")
	}
	cfg := lobby.Config{Limits: f.limits, Origins: splitList(f.origins), TURNTTL: f.ttl}
	if err := checkOrigins(cfg.Origins); err != nil {
		return cfg, err
	}
	err := iceFlags(f.ice, f.secretFile, &cfg)
	return cfg, err
}

// serve serves the lobby on f.addr until ctx ends.
func serve(ctx context.Context, f options, cfg lobby.Config, stdout, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg.Log = log
	srv, err := lobby.NewServer(cfg)
	if err != nil { // the limits were checked: -ice, with the secret or without
		name := "ice"
		if errors.Is(err, lobby.ErrUnusedTURNSecret) {
			name = "turn-secret-file"
		}
		fmt.Fprintf(stderr, "lobby: -%s: %s\n", name, strings.TrimPrefix(err.Error(), "lobby: "))
		return 2
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		fmt.Fprintf(stderr, "lobby: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "lobby: listening on %s\n", ln.Addr())
	if f.room != "" {
		showPlay(stdout, ln.Addr().(*net.TCPAddr), f.room, f.page)
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: srv.Limits().Handshake,
		IdleTimeout:       srv.Limits().Idle,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		fmt.Fprintf(stderr, "lobby: %v\n", err)
		srv.Close()
		return 1
	case <-ctx.Done():
	}
	log.Info("lobby: shutting down", "grace", f.grace)
	sctx, cancel := context.WithTimeout(context.Background(), f.grace)
	defer cancel()
	err = errors.Join(hs.Shutdown(sctx), srv.Shutdown(sctx))
	<-served // ErrServerClosed, at once after Shutdown
	if err != nil {
		log.Warn("lobby: shutdown cut short", "err", err)
	}
	st := srv.Stats()
	log.Info("lobby: stopped", "relayed", st.Relayed, "dropped", st.Dropped)
	return 0
}

// limitFlags defines a flag for each field of lobby.Limits, named after
// the field in kebab case (MessageSize: -message-size), its default the
// default limit.
func limitFlags(fs *flag.FlagSet, l *lobby.Limits) {
	*l = lobby.DefaultLimits()
	n := func(field string, p *int, usage string) { fs.IntVar(p, kebab(field), *p, usage) }
	d := func(field string, p *time.Duration, usage string) { fs.DurationVar(p, kebab(field), *p, usage) }
	n("Rooms", &l.Rooms, "the most rooms open at once")
	n("Spectators", &l.Spectators, "the most spectators in one room")
	n("Conns", &l.Conns, "the most WebSocket connections open at once")
	n("MessageSize", &l.MessageSize, "the most `BYTES` in one message from a peer")
	n("Rate", &l.Rate, "messages a second a peer may send, on average")
	n("Burst", &l.Burst, "messages a peer may send at once")
	n("Queue", &l.Queue, "messages waiting for a peer before it is dropped as slow")
	d("Handshake", &l.Handshake, "the longest from a request to its welcome, or its refusal")
	d("Idle", &l.Idle, "a peer that answers no ping for this long is dropped")
}

// kebab writes a Go field name as a flag name: MessageSize, message-size.
func kebab(field string) string {
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// check returns a one-line error for the first bad flag, naming it.
func check(fs *flag.FlagSet, addr string, grace time.Duration, limits lobby.Limits) error {
	if err := cmdline.CheckListenAddr(addr); err != nil {
		return fmt.Errorf("lobby: -addr %q: %v", addr, err)
	}
	if grace <= 0 {
		return fmt.Errorf("lobby: -grace %v: want more than 0", grace)
	}
	var le *lobby.LimitError
	if err := limits.Validate(); errors.As(err, &le) {
		name := kebab(le.Field)
		if f := fs.Lookup(name); f != nil {
			return fmt.Errorf("lobby: -%s %s: %s", name, f.Value, le.Want())
		}
		return err
	} else if err != nil {
		return err
	}
	return nil
}

// checkOrigins returns a one-line error for the first pattern of -origins
// that the WebSocket library could not match a page's origin against: it
// matches them with path.Match, lowercased, and refuses every page from
// another host, with only a line in the log, when a pattern is malformed.
func checkOrigins(patterns []string) error {
	for _, p := range patterns {
		// path.Match checks the whole pattern, even when it does not match.
		if _, err := path.Match(strings.ToLower(p), ""); err != nil {
			return fmt.Errorf("lobby: -origins %q: %v", p, err)
		}
	}
	return nil
}

// iceFlags reads -ice and the secret of -turn-secret-file into cfg: a
// one-line error names the flag at fault (and never shows a credential
// nor the secret). NewServer checks the servers against the secret.
func iceFlags(list, secretFile string, cfg *lobby.Config) error {
	servers, err := lobby.ParseICEServers(list)
	if err != nil {
		return fmt.Errorf("lobby: -ice: %s", strings.TrimPrefix(err.Error(), "lobby: "))
	}
	cfg.ICE = servers
	if secretFile != "" {
		if cfg.TURNSecret, err = cmdline.ReadSecret("turn-secret-file", secretFile); err != nil {
			return fmt.Errorf("lobby: %v", err)
		}
	}
	if cfg.TURNTTL < time.Second {
		return fmt.Errorf("lobby: -turn-ttl %v: want at least 1s", cfg.TURNTTL)
	}
	return nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// showPlay prints the commands that play a game in room through the
// lobby listening on at (the address it really listens on: with port 0,
// the port the system picked), and with page the web page's URLs.
func showPlay(w io.Writer, at *net.TCPAddr, room, page string) {
	host := at.IP.String()
	if at.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	u := "ws://" + net.JoinHostPort(host, strconv.Itoa(at.Port)) + "/" + room
	fmt.Fprintf(w, "  play in the room %s: ./bin/interpdemo -lobby %s (the first to arrive hosts, the second joins)\n", room, u)
	fmt.Fprintf(w, "  watch it: ./bin/interpdemo -spectate %s\n", u)
	if page != "" {
		page = strings.TrimSuffix(page, "/")
		fmt.Fprintf(w, "  in a page (make serve running): %s/?lobby=%s, to watch: %s/?lobby=%s&spectate\n", page, u, page, u)
	}
}
