package physics

import "fmt"

// MaxPlayers is the most balls under player control: balls 0 to
// MaxPlayers-1, one per player of a network game. The player-controlled
// balls are a uint8 bit mask (Players, and one byte of the state file):
// MaxPlayers may not exceed 8, which the constant below checks.
const MaxPlayers = 8

const _ = uint8(1 << (MaxPlayers - 1))

// TickPlayers runs one fixed logic tick with one Control per player:
// cs[i] drives ball i, as Tick's c drives ball 0. Ball i is autonomous
// until the first tick whose cs[i] is non-zero and player-controlled from
// then on (until Release, Reset, or SetBalls removing it). With one
// Control it is exactly Tick(cs[0]); with none, Tick(Control{}). At most
// MaxPlayers controls are used.
func (w *World) TickPlayers(cs []Control) {
	if len(cs) <= 1 {
		var c Control
		if len(cs) == 1 {
			c = cs[0]
		}
		w.Tick(c)
		return
	}
	p := min(len(cs), MaxPlayers, w.N())
	k := w.k
	for i := 0; i < p; i++ {
		bit := uint8(1) << i
		if w.players&bit == 0 && cs[i] == (Control{}) {
			w.moveOne(i, k)
			continue
		}
		w.players |= bit
		x, y := w.Next[2*i], w.Next[2*i+1]
		w.Last[2*i], w.Last[2*i+1] = x, y
		x += sign(cs[i].X) * int32(k)
		y += sign(cs[i].Y) * int32(k)
		w.Next[2*i] = min(max(x, w.loX), w.loX+w.spanX)
		w.Next[2*i+1] = min(max(y, w.loY), w.loY+w.spanY)
	}
	w.move(k, p)
	w.ticks++
}

// moveOne is move for ball i alone: Last = Next, then Next += Dir*k >>
// DirBits, bounced, exactly as the hot loop does it.
func (w *World) moveOne(i int, k int64) {
	w.Last[2*i], w.Last[2*i+1] = w.Next[2*i], w.Next[2*i+1]
	x, fx := fold(w.Next[2*i]+displace(w.Dir[2*i], k), w.loX, w.spanX)
	y, fy := fold(w.Next[2*i+1]+displace(w.Dir[2*i+1], k), w.loY, w.spanY)
	w.Next[2*i], w.Next[2*i+1] = x, y
	if fx {
		w.Dir[2*i] = -w.Dir[2*i]
	}
	if fy {
		w.Dir[2*i+1] = -w.Dir[2*i+1]
	}
}

// Players returns the player-controlled balls as a bit mask: bit i is
// ball i.
func (w *World) Players() uint8 { return w.players }

// Release makes ball i autonomous again from the next tick (its player
// left the game): it goes on from where it is, in the direction it had
// before it was taken over. On error nothing changes.
func (w *World) Release(i int) error {
	if i < 0 || i >= MaxPlayers {
		return fmt.Errorf("physics: player %d out of range 0..%d", i, MaxPlayers-1)
	}
	w.players &^= 1 << i
	return nil
}
