package trace

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

func TestReadTrace(t *testing.T) {
	in := Header +
		"0,1000,200000000,0,0.0010,0,false,200000000,fixed,320.000,320.000\n" +
		"1,200001000,300000000,5,1.0000,60000000,true,300000000,fixed,NaN,NaN\n"
	rows, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	want := Row{Frame: 0, Start: 1000, Dur: 200 * time.Millisecond, Ticks: 0, Percent: 0.001,
		RenderLoad: 200 * time.Millisecond, Mode: "fixed", Ball0X: 320, Ball0NextX: 320}
	if rows[0] != want {
		t.Errorf("row 0 = %+v, want %+v", rows[0], want)
	}
	if r := rows[1]; r.Ticks != 5 || !r.Capped || r.Discarded != 60*time.Millisecond || !math.IsNaN(r.Ball0X) || !math.IsNaN(r.Ball0NextX) {
		t.Errorf("row 1 = %+v", r)
	}
}

// TestRoundTrip: what the writer appends, the reader gives back (percent
// to the 4 decimals written).
func TestRoundTrip(t *testing.T) {
	in := []Row{
		{Frame: 0, Start: 5, Dur: 16_666_667, Ticks: 0, Percent: 0.4167, Mode: "fixed", Ball0X: 331.25, Ball0NextX: 336.5},
		{Frame: 1, Start: 16_666_672, Dur: 300_000_000, Ticks: 5, Percent: 1, Discarded: 1_234_567, Capped: true, RenderLoad: 300 * time.Millisecond, Mode: "substep", Ball0X: 8, Ball0NextX: 631.996},
	}
	b := []byte(Header)
	for i := range in {
		b = AppendRow(b, &in[i])
	}
	out, err := Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("%d rows back, want %d", len(out), len(in))
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("row %d: %+v back, wrote %+v", i, out[i], in[i])
		}
	}
}

func TestAppendRowAllocatesNothing(t *testing.T) {
	r := Row{Frame: 123456, Start: 1 << 40, Dur: 1 << 30, Ticks: 5, Percent: 0.5, Mode: "fixed"}
	b := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() { b = AppendRow(b[:0], &r) }); n != 0 {
		t.Errorf("AppendRow allocates %v times", n)
	}
}

func TestReadTraceErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty trace"},
		{"a,b,c,d,e,f,g,h,i,j,k\n", "not an interpdemo -trace file"},
		{"a,b,c\n", "wrong number of fields"},
		{Header, "no frames"},
		{Header + "0,1,2,x,0,0,false,0,fixed,0,0\n", "line 2"},
		{Header + "0,1,2,3\n", "wrong number of fields"},
		{Header + "0,1,-2,3,0,0,false,0,fixed,0,0\n", "negative"},
		{Header + "0,1,2,3,0,0,false,0,fixed,x,0\n", "line 2"},
	} {
		_, err := Read(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want %q", c.in, err, c.want)
		}
	}
}
