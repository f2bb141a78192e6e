package demo

import (
	"github.com/interpdemo/interpdemo/internal/report"
	"github.com/interpdemo/interpdemo/internal/sim"
	"github.com/interpdemo/interpdemo/netplay"
)

// report is the network game's part of -stats.
func (g *netGame) report(s *sim.Sim) *report.Net {
	if g.spec != nil {
		st := g.spec.Stats()
		end := "game over"
		if err := g.spec.Err(); err != nil {
			end = err.Error()
		} else if g.left {
			end = "quit"
		}
		return &report.Net{
			Role: "spectator", Players: st.Players, Player: -1, RTTMs: []float64{}, Transport: g.transport,
			PacketsSent: st.PacketsSent, PacketsReceived: st.PacketsReceived, BadPackets: st.BadPackets, BytesSent: st.BytesSent, TicksAhead: []int64{}, Kicked: []int{}, End: end, Netcode: "-",
			Spectator:  &report.Spectator{StartTick: st.Start, SnapshotBytes: st.SnapshotBytes, JoinMs: ms(st.JoinTime)},
			Spectators: new(int64),
		}
	}
	st := g.sess.Stats()
	r := &report.Net{
		Role: g.role(), Players: st.Players, Player: st.Index, InputDelay: st.Delay,
		RTTMs: rttMs(&st), StallFrames: st.StallFrames, StallMs: ms(st.StallTime), BytesSent: st.BytesSent, TicksAhead: ticksAhead(&st),
		PacketsSent: st.PacketsSent, PacketsReceived: st.PacketsReceived, BadPackets: st.BadPackets,
		Desyncs: st.Desyncs, Kicked: kicked(&st), End: st.End, Netcode: g.netcode, Transport: g.transport,
		StartMs: ms(st.StartedAt),
	}
	spectators := st.SpectatorsJoined
	r.Spectators = &spectators
	if adv, slow, ok := s.TimeSync(); ok {
		r.FrameAdvantage, r.TimeSyncMs = adv, ms(slow)
	}
	if rb, ok := s.Rollback(); ok {
		r.Rollback = &report.Rollback{
			Rollbacks: rb.Rollbacks, ResimulatedTicks: rb.Resimulated, MaxRollbackTicks: rb.MaxRollback,
			PredictionErrors: rb.PredictionErrors, SnapshotBytes: rb.SnapshotBytes,
			RollbackMsP99: ms(rb.ResimTime.Quantile(0.99)), StallFrames: rb.StallFrames,
		}
	}
	return r
}

// rttMs lists the round trips to every player, ms (0 for oneself).
func rttMs(st *netplay.Stats) []float64 {
	out := make([]float64, st.Players)
	for p := range out {
		out[p] = ms(st.Peers[p].RTT)
	}
	return out
}

// ticksAhead lists, per player, how many ticks this peer has run more
// than the player (by its last report; 0 for oneself).
func ticksAhead(st *netplay.Stats) []int64 {
	out := make([]int64, st.Players)
	for p := range out {
		out[p] = int64(st.Peers[st.Index].Tick) - int64(st.Peers[p].Tick)
	}
	return out
}

// kicked lists the kicked players.
func kicked(st *netplay.Stats) []int {
	out := []int{}
	for p := 0; p < st.Players; p++ {
		if st.Peers[p].Kicked {
			out = append(out, p)
		}
	}
	return out
}
