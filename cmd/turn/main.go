// Command turn runs a small TURN server (RFC 8656, pion/turn): the relay
// a lobby's peers fall back on where no direct path joins them, to try
// -ice and -ice-relay on one machine or a LAN. It takes one long-term
// credential (-user, -pass), or the credentials a lobby makes for each
// peer from a secret they share (-secret-file; the lobby's
// -turn-secret-file: the TURN REST API's, as coturn's use-auth-secret).
// Production relays are coturn's (see docs/NETPLAY.md).
//
// It prints "turn: listening on HOST:PORT" as its first line of standard
// output (with -addr 127.0.0.1:0 the system picks the port), then one
// line per allocation made ("turn: allocation for USER ...") and per
// request refused for its credential; on SIGINT or SIGTERM it says how
// many bytes it relayed ("turn: relayed N bytes to peers, M from them")
// and exits 0. A bad flag exits 2 with a one-line error.
//
//	turn -addr 127.0.0.1:3478 -user alice -pass s3cret
//	interpdemo -lobby ws://127.0.0.1:8780/r1 -ice 'turn:alice:s3cret@127.0.0.1:3478?transport=udp' -ice-relay
//
//	turn -addr 127.0.0.1:3478 -secret-file secret
//	lobby -ice 'turn:127.0.0.1:3478?transport=udp' -turn-secret-file secret
//	interpdemo -lobby ws://127.0.0.1:8780/r1 -ice-relay
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"

	"github.com/interpdemo/interpdemo/internal/cmdline"
	"github.com/pion/logging"
	"github.com/pion/turn/v5"
)

func main() { cmdline.Main(run) }

// options are the command line's, checked.
type options struct {
	addr, host string
	ip         net.IP // host's: the address relayed on
	user, pass string // the long-term credential, or
	secret     string // the secret shared with a lobby
	realm      string
}

// parse reads the command line: ok false says to exit with code (0
// after -h, 2 for a bad flag, said in one line on stderr).
func parse(args []string, stdout, stderr io.Writer) (o options, code int, ok bool) {
	fs := flag.NewFlagSet("turn", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:3478", "UDP `HOST:PORT` to listen on (port 0 picks one); HOST is also the address relayed on")
	fs.StringVar(&o.user, "user", "", "the credential's `USER` (with -pass)")
	fs.StringVar(&o.pass, "pass", "", "the credential's `PASSWORD` (with -user)")
	secretFile := fs.String("secret-file", "", "instead of -user and -pass: the `FILE` whose first line is the secret shared with a lobby (its -turn-secret-file), which makes each peer a credential of its own, good until the time it names")
	fs.StringVar(&o.realm, "realm", "interpdemo", "the `REALM` of the credential")
	if code, ok := cmdline.Parse(fs, args, stdout, stderr); !ok {
		return o, code, false
	}
	switch {
	case *secretFile != "" && (o.user != "" || o.pass != ""):
		fmt.Fprintln(stderr, "turn: -secret-file, or -user and -pass: not both")
		return o, 2, false
	case *secretFile != "":
		var err error
		if o.secret, err = cmdline.ReadSecret("secret-file", *secretFile); err != nil {
			fmt.Fprintf(stderr, "turn: %v\n", err)
			return o, 2, false
		}
	case o.user == "" || o.pass == "":
		fmt.Fprintln(stderr, "turn: -user and -pass are required (or -secret-file)")
		return o, 2, false
	}
	host, _, err := net.SplitHostPort(o.addr)
	o.host, o.ip = host, net.ParseIP(host)
	if err != nil || o.ip == nil || o.ip.IsUnspecified() {
		fmt.Fprintf(stderr, "turn: -addr %q: want IP:PORT, an address the peers reach (it is relayed on)\n", o.addr)
		return o, 2, false
	}
	return o, 0, true
}

// auth is how the server checks a request's credential, and the reason
// it says where one is refused (a format taking the user).
func (o *options) auth() (turn.AuthHandler, string) {
	if o.secret != "" {
		return turn.LongTermTURNRESTAuthHandler(o.secret, logging.NewDefaultLeveledLoggerForScope("turn", logging.LogLevelDisabled, io.Discard)),
			"user %q has expired, or its credential was not made with this server's secret"
	}
	key := turn.GenerateAuthKey(o.user, o.realm, o.pass)
	return func(ra *turn.RequestAttributes) (string, []byte, bool) {
		if ra.Username != o.user || ra.Realm != o.realm {
			return "", nil, false
		}
		return ra.Username, key, true
	}, "user %q, or its password, is not this server's"
}

// run serves until ctx ends and returns the exit status: 0 after a
// shutdown, 1 when it cannot serve, 2 for a bad flag.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, ok := parse(args, stdout, stderr)
	if !ok {
		return code
	}
	conn, err := net.ListenPacket("udp", o.addr)
	if err != nil {
		fmt.Fprintf(stderr, "turn: %v\n", err)
		return 1
	}
	var mu sync.Mutex // one line at a time on stdout
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stdout, format+"\n", a...)
	}
	var bytes [2]atomic.Int64 // relayed to peers, from peers
	auth, refused := o.auth()
	srv, err := turn.NewServer(turn.ServerConfig{
		Realm:       o.realm,
		AuthHandler: auth,
		EventHandler: turn.EventHandler{
			OnAuth: func(src, _ net.Addr, _, username, _, method string, verdict bool) {
				if !verdict {
					say("turn: %s from %s refused: "+refused, method, src, username)
				}
			},
			OnAllocationCreated: func(src, _ net.Addr, _, username, _ string, relay net.Addr, _ int) {
				say("turn: allocation for %s from %s, relayed on %s", username, src, relay)
			},
		},
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn: conn,
			RelayAddressGenerator: &countingRelays{
				RelayAddressGeneratorStatic: turn.RelayAddressGeneratorStatic{RelayAddress: o.ip, Address: o.host},
				bytes:                       &bytes,
			},
		}},
	})
	if err != nil {
		conn.Close()
		fmt.Fprintf(stderr, "turn: %v\n", err)
		return 1
	}
	say("turn: listening on %s", conn.LocalAddr())
	<-ctx.Done()
	err = srv.Close()
	say("turn: relayed %d bytes to peers, %d from them", bytes[0].Load(), bytes[1].Load())
	if err != nil {
		fmt.Fprintf(stderr, "turn: %v\n", err)
		return 1
	}
	return 0
}

// countingRelays makes the allocations' relay sockets, which count the
// bytes they carry.
type countingRelays struct {
	turn.RelayAddressGeneratorStatic
	bytes *[2]atomic.Int64
}

func (r *countingRelays) AllocatePacketConn(conf turn.AllocateListenerConfig) (net.PacketConn, net.Addr, error) {
	conn, addr, err := r.RelayAddressGeneratorStatic.AllocatePacketConn(conf)
	if err != nil {
		return nil, nil, err
	}
	return countingConn{PacketConn: conn, bytes: r.bytes}, addr, nil
}

// countingConn is a relay socket: to peers, and from them.
type countingConn struct {
	net.PacketConn
	bytes *[2]atomic.Int64
}

func (c countingConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	n, err := c.PacketConn.WriteTo(b, addr)
	c.bytes[0].Add(int64(n))
	return n, err
}

func (c countingConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := c.PacketConn.ReadFrom(b)
	c.bytes[1].Add(int64(n))
	return n, addr, err
}
