package main

import "strconv"

// writeRollback writes the rollback netcode's costs: saving the world
// (a snapshot) and restoring it and running 8 ticks again, beside the
// time to copy the snapshot's bytes.
func (r *results) writeRollback(p func(string, ...any)) {
	counts := []string{"1", "1k", "100k", "1M"}
	if _, ok := r.bench["physics.BenchmarkSnapshot/1k"]; !ok {
		return
	}
	p("## Rollback\n\n")
	p("`go test -run '^$' -bench 'Snapshot|Rollback8' ./physics`: the rollback netcode saves the world before every tick that runs on a predicted input, and a misprediction restores one and runs the ticks since again. The floor is `copy()` of the same 24 bytes a ball.\n\n")
	p("| balls | snapshot | copy floor | snapshot / floor | rollback of 8 ticks |\n|---:|---:|---:|---:|---:|\n")
	for _, n := range counts {
		snap := r.bench["physics.BenchmarkSnapshot/"+n]["ns/op"]
		floor := r.bench["physics.BenchmarkSnapshotCopyFloor/"+n]["ns/op"]
		rb := r.bench["physics.BenchmarkRollback8/"+n]["ns/op"]
		ratio := "-"
		if floor > 0 {
			ratio = fmtFloat(snap/floor, 2) + "x"
		}
		p("| %s | %s | %s | %s | %s |\n", n, ns(snap), ns(floor), ratio, ns(rb))
	}
	p("\n")
}

// ns formats a duration in nanoseconds with a readable unit.
func ns(v float64) string {
	switch {
	case v >= 1e6:
		return fmtFloat(v/1e6, 2) + " ms"
	case v >= 1e3:
		return fmtFloat(v/1e3, 2) + " µs"
	}
	return fmtFloat(v, 1) + " ns"
}

func fmtFloat(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
