// Package trace is the demo's -trace file: one CSV row per frame. The
// demo writes it with AppendRow and cmd/plottrace reads it with Read; the
// columns are defined once, here.
package trace

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Row is one frame.
type Row struct {
	Frame      int64         // frame index from 0
	Start      time.Duration // frame start on the loop's clock
	Dur        time.Duration // until the next frame's start
	Ticks      int           // logic ticks (cycles) the frame ran
	Percent    float64       // percentWithinTick it drew at
	Discarded  time.Duration // time debt discarded
	Capped     bool          // MaxLoops stopped the catch-up
	RenderLoad time.Duration // the render load in force
	Mode       string        // the timing mode
	Ball0X     float64       // where ball 0 was drawn, x in world units (NaN without a ball)
	Ball0NextX float64       // ball 0's logic position (nextPosition), x in world units
}

// Columns are the header's names, in order.
var Columns = []string{"frame", "start_ns", "duration_ns", "ticks", "percent_within_tick", "discarded_ns", "max_loops_hit", "render_load_ns", "mode", "ball0_x", "ball0_next_x"}

// Header is the file's first line.
var Header = strings.Join(Columns, ",") + "\n"

// AppendRow appends r as one CSV line to b. It allocates nothing when b
// has room.
func AppendRow(b []byte, r *Row) []byte {
	b = strconv.AppendInt(b, r.Frame, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Start), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Dur), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Ticks), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.Percent, 'f', 4, 64)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Discarded), 10)
	b = append(b, ',')
	b = strconv.AppendBool(b, r.Capped)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.RenderLoad), 10)
	b = append(b, ',')
	b = append(b, r.Mode...)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.Ball0X, 'f', 3, 64)
	b = append(b, ',')
	b = strconv.AppendFloat(b, r.Ball0NextX, 'f', 3, 64)
	return append(b, '\n')
}

// MaxRows bounds what a trace may hold: 10 million frames is hours of a
// fast machine; a file claiming more is not a trace of ours.
const MaxRows = 10_000_000

// Read parses a trace. Errors name the line.
func Read(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(Columns)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("empty trace")
	}
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	for i, c := range Columns {
		if head[i] != c {
			return nil, fmt.Errorf("header: column %d is %q, want %q (not an interpdemo -trace file?)", i+1, head[i], c)
		}
	}
	var rows []Row
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(rows) >= MaxRows {
			return nil, fmt.Errorf("more than %d frames", MaxRows)
		}
		var f Row
		var perr error
		num := func(s string) int64 {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil && perr == nil {
				perr = err
			}
			return v
		}
		f.Frame = num(rec[0])
		f.Start = time.Duration(num(rec[1]))
		f.Dur = time.Duration(num(rec[2]))
		f.Ticks = int(num(rec[3]))
		if f.Percent, err = strconv.ParseFloat(rec[4], 64); err != nil && perr == nil {
			perr = err
		}
		f.Discarded = time.Duration(num(rec[5]))
		if f.Capped, err = strconv.ParseBool(rec[6]); err != nil && perr == nil {
			perr = err
		}
		f.RenderLoad = time.Duration(num(rec[7]))
		f.Mode = rec[8]
		if f.Ball0X, err = strconv.ParseFloat(rec[9], 64); err != nil && perr == nil {
			perr = err
		}
		if f.Ball0NextX, err = strconv.ParseFloat(rec[10], 64); err != nil && perr == nil {
			perr = err
		}
		if perr != nil {
			return nil, fmt.Errorf("line %d: %v", line, perr)
		}
		if f.Dur < 0 || f.Ticks < 0 || f.Discarded < 0 {
			return nil, fmt.Errorf("line %d: negative duration or count", line)
		}
		rows = append(rows, f)
	}
	if len(rows) == 0 {
		return nil, errors.New("trace has no frames")
	}
	return rows, nil
}
