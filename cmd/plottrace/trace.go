package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// frame is one row of an interpdemo -trace file.
type frame struct {
	index      int64
	start, dur time.Duration
	ticks      int
	percent    float64
	discarded  time.Duration
	capped     bool
	renderLoad time.Duration
	mode       string
}

var traceColumns = []string{"frame", "start_ns", "duration_ns", "ticks", "percent_within_tick", "discarded_ns", "max_loops_hit", "render_load_ns", "mode"}

// maxRows bounds what a trace may hold: 10 million frames is hours of a
// fast machine; a file claiming more is not a trace of ours.
const maxRows = 10_000_000

// readTrace parses a trace. Errors name the line.
func readTrace(r io.Reader) ([]frame, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(traceColumns)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty trace")
	}
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	for i, c := range traceColumns {
		if head[i] != c {
			return nil, fmt.Errorf("header: column %d is %q, want %q (not an interpdemo -trace file?)", i+1, head[i], c)
		}
	}
	var frames []frame
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(frames) >= maxRows {
			return nil, fmt.Errorf("more than %d frames", maxRows)
		}
		var f frame
		var perr error
		num := func(s string) int64 {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil && perr == nil {
				perr = err
			}
			return v
		}
		f.index = num(rec[0])
		f.start = time.Duration(num(rec[1]))
		f.dur = time.Duration(num(rec[2]))
		f.ticks = int(num(rec[3]))
		if f.percent, err = strconv.ParseFloat(rec[4], 64); err != nil && perr == nil {
			perr = err
		}
		f.discarded = time.Duration(num(rec[5]))
		if f.capped, err = strconv.ParseBool(rec[6]); err != nil && perr == nil {
			perr = err
		}
		f.renderLoad = time.Duration(num(rec[7]))
		f.mode = rec[8]
		if perr != nil {
			return nil, fmt.Errorf("line %d: %v", line, perr)
		}
		if f.dur < 0 || f.ticks < 0 || f.discarded < 0 {
			return nil, fmt.Errorf("line %d: negative duration or count", line)
		}
		frames = append(frames, f)
	}
	if len(frames) == 0 {
		return nil, errors.New("trace has no frames")
	}
	return frames, nil
}
