package demo

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/interpdemo/interpdemo/loop"
	"github.com/interpdemo/interpdemo/netplay/netsim"
)

// errSIGINT is the cause a front end gives for the user's Ctrl-C.
var errSIGINT = errors.New("interrupted by SIGINT")

// clockStop is a Platform.Stop that is done from the time at on the
// manual clock on, its cause errSIGINT: a Ctrl-C that comes in the middle
// of a wait, at a time the test picks.
type clockStop struct {
	context.Context
	clock *loop.ManualClock
	at    time.Duration
}

func (s clockStop) Err() error {
	if s.clock.Now() >= s.at {
		return errSIGINT // context.Cause of a context that is not a cancelCtx
	}
	return nil
}

// newStopped makes the demo for args with Platform.Stop done at at, and
// returns the time New returned at, and its error.
func newStopped(t *testing.T, clock *loop.ManualClock, net Network, at time.Duration, args ...string) (time.Duration, error) {
	t.Helper()
	f := &front{t: t, clock: clock, display: &testDisplay{}, files: newMemFiles(), frame: time.Millisecond}
	p := f.platform(net)
	p.Stop = clockStop{Context: context.Background(), clock: clock, at: at}
	cfg, err := Parse(args, io.Discard, p)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	d, err := New(cfg, p)
	if err == nil {
		d.Close()
		t.Fatalf("%v: New waited out the Ctrl-C and returned a demo", args)
	}
	return clock.Now(), err
}

// A Ctrl-C (Platform.Stop) while a joiner waits for a host that does not
// answer, while a spectator waits for one, or while a lobby's room is
// entered, ends the wait at once, with one line naming the signal and the
// wait: not after the joiner's 10 s, the spectator's minute or the
// lobby's 15 s. (Before, New saw no Stop and waited them out.)
func TestStopEndsTheWaitsBeforeTheLoop(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-join", "127.0.0.1:9"}, "interrupted by SIGINT while waiting for the host at 127.0.0.1:9"},
		{[]string{"-spectate", "127.0.0.1:9"}, "interrupted by SIGINT while waiting to watch the game at 127.0.0.1:9"},
		{[]string{"-lobby", "ws://127.0.0.1:1/r1"}, "interrupted by SIGINT while entering the room ws://127.0.0.1:1/r1"},
	} {
		clock := loop.NewManualClock(time.Second)
		net := newSimNet(t, clock, netsim.Conditions{})
		at := clock.Now() + time.Second // in the middle of the wait
		if strings.HasPrefix(c.args[0], "-lobby") {
			at = clock.Now() // the lobby is waited for in one call: the signal came before it returned
		}
		end, err := newStopped(t, clock, net, at, c.args...)
		if err.Error() != c.want {
			t.Errorf("%v: %q, want %q", c.args, err, c.want)
		}
		if end > at+100*time.Millisecond {
			t.Errorf("%v: New returned %v after the Ctrl-C, want at once", c.args, end-at)
		}
		for _, conn := range net.conns {
			if !conn.closed {
				t.Errorf("%v: a socket was left open", c.args)
			}
		}
	}
}

// slowNames is simNet with a name server that does not answer: a lookup
// waits (on the manual clock) until its context is done, or for 30 s,
// as the system's resolver would for its tries.
type slowNames struct{ *simNet }

func (n slowNames) Resolve(ctx context.Context, hostport string) (string, error) {
	for end := n.clock.Now() + 30*time.Second; n.clock.Now() < end; n.clock.Advance(10 * time.Millisecond) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
	return "", errors.New("lookup " + hostport + ": i/o timeout")
}

// A Ctrl-C while -join's or -spectate's host name is looked up (the
// flags' check, before any window) ends the lookup at once, with one line
// and status 1, not the usage error of a name that does not resolve.
// (Before, the lookup took no Stop, and a name server that did not answer
// held the Ctrl-C for its tries.)
func TestStopEndsTheLookup(t *testing.T) {
	for _, args := range [][]string{{"-join", "game.example:7777"}, {"-spectate", "game.example:7777"}} {
		clock := loop.NewManualClock(time.Second)
		at := clock.Now() + time.Second
		f := &front{t: t, clock: clock, display: &testDisplay{}, files: newMemFiles(), frame: time.Millisecond}
		p := f.platform(slowNames{newSimNet(t, clock, netsim.Conditions{})})
		p.Stop = clockStop{Context: context.Background(), clock: clock, at: at}
		_, err := Parse(append(args, "-headless"), io.Discard, p)
		var usage UsageError
		if want := "interrupted by SIGINT while looking up game.example:7777"; err == nil || err.Error() != want || errors.As(err, &usage) {
			t.Errorf("%v: %v; want %q, not a usage error", args, err, want)
		}
		if end := clock.Now(); end > at+100*time.Millisecond {
			t.Errorf("%v: Parse returned %v after the Ctrl-C, want at once", args, end-at)
		}
		// With no Ctrl-C, the name that does not resolve is the flag's error.
		p.Stop = nil
		if _, err := Parse(append(args, "-headless"), io.Discard, p); !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), args[0]+": lookup game.example:7777: i/o timeout") {
			t.Errorf("%v without a Ctrl-C: %v; want the usage error of the lookup", args, err)
		}
	}
}

// A host's wait for its players, in the loop: a Ctrl-C (Interrupt) ends
// the run with an error that says the game never started and who was
// there, in place of the line a Q gives (which ends with status 0); the
// files are written still. A running game that is interrupted ends as
// with Q: no error. (Before, a Ctrl-C in the host's wait was a Q: status
// 0, as if the game had been played.)
func TestInterruptWhileWaitingForPlayers(t *testing.T) {
	clock := loop.NewManualClock(time.Second)
	host := newFront(t, clock, newSimNet(t, clock, netsim.Conditions{}), "-host", ":7777", "-stats", "-state", "world.json")
	for range 10 {
		host.step()
	}
	host.d.Interrupt(clock.Now(), errSIGINT)
	host.run(100)
	out, err := host.finish()
	const want = "interrupted by SIGINT while waiting for players (1 of 2 there): the game never started"
	if err == nil || err.Error() != want {
		t.Errorf("Finish: %v, want %q", err, want)
	}
	if log := host.log.String(); strings.Contains(log, "never started: you quit") {
		t.Errorf("the log says a Q ended it:\n%s", log)
	}
	if _, ok := host.files.files["world.json"]; !ok || !strings.HasPrefix(out, "{") {
		t.Errorf("the files were not written: -state %v, -stats %q", ok, out)
	}

	g := newNetTestGame(t, netsim.Conditions{}, []string{"-bot", "1"}, []string{"-bot", "2"})
	for n := 0; n < 100000 && !g.peers[0].d.net.running(); n++ {
		for _, f := range g.peers {
			f.stepKeys(g.clock.Now())
		}
		g.clock.Advance(2 * time.Millisecond)
	}
	if !g.peers[0].d.net.running() {
		t.Fatal("the game never started")
	}
	g.peers[1].d.Interrupt(g.clock.Now(), errSIGINT)
	g.run(nil)
	g.reports() // fails on an error
}

// -net-wait: a host that nobody joined within it gives up with one line
// naming the flag, and one that some joined names how many; a host whose
// players all came in time plays its game past the deadline. (Before, a
// host waited for its players for ever.)
func TestNetWaitEndsAHostsWait(t *testing.T) {
	for _, c := range []struct {
		players, joiners int
		want             string
	}{
		{2, 0, "nobody joined within 2s (-net-wait)"},
		{3, 1, "only 2 of 3 players joined within 2s (-net-wait)"},
	} {
		var joins [][]string
		for i := range c.joiners {
			joins = append(joins, []string{"-bot", string(rune('2' + i))})
		}
		g := newNetTestGame(t, netsim.Conditions{}, []string{"-players", string(rune('0' + c.players)), "-net-wait", "2s", "-bot", "1"}, joins...)
		g.run(nil)
		host := g.peers[0]
		start := host.d.net.hostedAt // "hosting on ..."
		_, err := host.finish()
		if err == nil || err.Error() != c.want {
			t.Errorf("%d of %d players: %v, want %q", c.joiners+1, c.players, err, c.want)
		}
		if took := g.clock.Now() - start; took < 2*time.Second || took > 3*time.Second {
			t.Errorf("%d of %d players: the host gave up after %v, want 2s", c.joiners+1, c.players, took)
		}
		if log := host.log.String(); strings.Contains(log, "never started") {
			t.Errorf("two lines for one end:\n%s", log)
		}
	}
	// Everyone there in time: the game plays past the deadline.
	g := newNetTestGame(t, netsim.Conditions{}, []string{"-net-wait", "200ms", "-bot", "1", "-ticks", "100"}, []string{"-bot", "2"})
	g.run(nil)
	for i, r := range g.reports() {
		if r.WorldTicks != 100 {
			t.Errorf("peer %d ended at tick %d, want 100 (4 s, past -net-wait)", i, r.WorldTicks)
		}
	}
}

// -net-wait is checked with the flags: one line naming it, before any
// socket is opened.
func TestNetWaitFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-host", ":7777", "-net-wait", "-1s"}, "-net-wait: must not be negative"},
		{[]string{"-host", ":7777", "-net-wait", "soon"}, "invalid value \"soon\" for flag -net-wait"},
		{[]string{"-join", "127.0.0.1:7777", "-net-wait", "1s"}, "-net-wait: is the host's to set"},
		{[]string{"-spectate", "127.0.0.1:7777", "-net-wait", "1s"}, "-net-wait: is not for a spectator"},
		{[]string{"-net-wait", "1s"}, "-net-wait: needs -host or -lobby"},
	} {
		net := newSimNet(t, loop.NewManualClock(0), netsim.Conditions{})
		_, err := Parse(c.args, io.Discard, Platform{Network: net})
		var ue UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want a one-line usage error with %q", c.args, err, c.want)
		}
		if len(net.conns) != 0 {
			t.Errorf("%v: a socket was opened", c.args)
		}
	}
	for _, args := range [][]string{
		{"-host", ":7777", "-net-wait", "0"},
		{"-host", ":7777", "-net-wait", "30s"},
		{"-lobby", "ws://127.0.0.1:1/r1", "-net-wait", "30s"},
	} {
		if _, err := Parse(args, io.Discard, Platform{Network: newSimNet(t, loop.NewManualClock(0), netsim.Conditions{})}); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}
