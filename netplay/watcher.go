package netplay

import (
	"fmt"
	"hash/fnv"
	"time"
)

// frame. It ends at the game's end.
type watcher struct {
	sp     *spectator
	game   Game
	snap   Snapshotter
	conf   Confirmer
	loaded bool
	head   uint64
	owed   int64
	in     Inputs
	ticks  int64
}

// newWatcher plays what sp receives on g, which must be a Snapshotter
// made from the game's settings (Spectator.Settings, known from the
// Welcome on; make it once the spectator is in the lobby or later).
func newWatcher(sp *spectator, g Game) (*watcher, error) {
	snap, ok := g.(Snapshotter)
	if sp == nil || !ok {
		return nil, fmt.Errorf("netplay: %w: NewWatcher needs a spectator and a game that is a Snapshotter", ErrInvalid)
	}
	w := &watcher{sp: sp, game: g, snap: snap}
	w.conf, _ = g.(Confirmer)
	return w, nil
}

// Head is the game's next tick.
func (w *watcher) Head() uint64 { return w.head }

// Behind is how many ticks the game is behind the host's confirmed ones.
func (w *watcher) Behind() int64 { return int64(w.sp.confirmed) - int64(w.head) }

// Loaded reports whether the snapshot is in the game.
func (w *watcher) Loaded() bool { return w.loaded }

// Done reports whether the game ran to its end, or the spectator left
// (Spectator.Leave), and the host was told so (the Spectator's next Poll),
// or the spectator failed: the caller may close its socket.
func (w *watcher) Done() bool {
	sp := w.sp
	return sp.err != nil || (sp.left && sp.told) || (w.loaded && sp.endSet && w.head >= sp.end && sp.told)
}

// Frame runs the ticks due (as Runner.Frame), those that arrived.
func (w *watcher) Frame(now time.Duration, due, maxLoops int) (ran int) {
	sp := w.sp
	if sp.err != nil || sp.left {
		return 0
	}
	if !w.loaded {
		if sp.state != StateLobby || sp.snapGot < sp.snapLen {
			return 0
		}
		sum := fnv.New64a()
		sum.Write(sp.snap)
		if got := sum.Sum64(); got != sp.snapSum {
			sp.fail(&Error{Reason: ErrMismatch, What: "snapshot", Local: got, Remote: sp.snapSum})
			return 0
		}
		if err := w.snap.SetState(sp.snap); err != nil {
			sp.fail(fmt.Errorf("the snapshot: %w", err))
			return 0
		}
		if got := w.game.Hash(); got != sp.stateHash {
			sp.fail(&Error{Reason: ErrMismatch, What: "snapshot", Local: got, Remote: sp.stateHash})
			return 0
		}
		w.loaded, w.head = true, sp.start
		sp.state, sp.loadedAt = StateRunning, now
		sp.snap, sp.held = nil, nil // taken: let it go
		return 0
	}
	w.owed += int64(max(due, 0))
	// Behind the host: owe what it confirmed, so the loop catches up.
	w.owed = max(w.owed, int64(sp.confirmed)-int64(w.head)-1)
	for w.owed > 0 && ran < maxLoops && w.head < sp.received {
		t := w.head
		in := &w.in
		*in = Inputs{Tick: t, players: sp.players, size: sp.inputSize}
		in.in = sp.ring[t%spectatorWindow]
		for p := range sp.players {
			if sp.kicked[p] && t >= sp.kickFrom[p] {
				in.auto |= 1 << p
				in.in[p] = record{}
			}
		}
		w.game.Advance(in)
		if w.conf != nil {
			w.conf.Confirmed(in, 0, false)
		}
		w.head++
		sp.played = w.head
		w.owed--
		ran++
		w.ticks++
	}
	if sp.endSet && w.head >= sp.end {
		w.owed = 0
		if sp.state < StateEnded {
			sp.state = StateEnded
		}
	}
	return ran
}
