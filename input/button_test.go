package input

import (
	"testing"
	"time"
)

func TestButtons(t *testing.T) {
	s := Of(Left, Up, MaxButton, MaxButton+1)
	if want := Buttons(1<<0 | 1<<2 | 1<<31); s != want {
		t.Fatalf("Of = %#x, want %#x", s, want)
	}
	if !s.Has(Left) || s.Has(Right) || !s.Has(MaxButton) || s.Has(MaxButton+1) {
		t.Fatalf("Has wrong on %v", s)
	}
	if got := s.Without(Up).With(Right); got != Buttons(1|1<<1|1<<31) {
		t.Fatalf("Without/With = %#x", got)
	}
	if s.With(MaxButton+5) != s || s.Without(MaxButton+5) != s {
		t.Fatal("invalid button changed a set")
	}
	if s.Count() != 3 {
		t.Fatalf("Count = %d, want 3", s.Count())
	}
	if got := s.String(); got != "Left|Up|Button(31)" {
		t.Fatalf("String = %q", got)
	}
	if got := Buttons(0).String(); got != "-" {
		t.Fatalf("empty String = %q", got)
	}
	if !MaxButton.Valid() || (MaxButton + 1).Valid() {
		t.Fatal("Valid wrong at the edge")
	}
}

func TestAxis(t *testing.T) {
	for _, tc := range []struct {
		down Buttons
		want int8
	}{
		{0, 0},
		{Of(Left), -1},
		{Of(Right), 1},
		{Of(Left, Right), 0},
		{Of(Up, Right), 1},
		{Of(Up, Down), 0},
	} {
		if got := Axis(tc.down, Left, Right); got != tc.want {
			t.Errorf("Axis(%v, Left, Right) = %d, want %d", tc.down, got, tc.want)
		}
	}
}

func TestRecordHelpers(t *testing.T) {
	prev := Record{Held: Of(Up)}
	r := Record{Held: Of(Left), Pressed: Of(Left, Right), Released: Of(Right, Up)}
	if got, want := r.Down(prev), Of(Left, Right, Up); got != want {
		t.Fatalf("Down = %v, want %v", got, want)
	}
	if !r.JustPressed(Right) || r.JustPressed(Up) || !r.JustReleased(Up) || r.JustReleased(Left) {
		t.Fatal("JustPressed/JustReleased wrong")
	}
	if got := r.String(); got != "held=Left pressed=Left|Right released=Right|Up" {
		t.Fatalf("String = %q", got)
	}
	if got := r.GoString(); got != "input.Record{Held: 0x1, Pressed: 0x3, Released: 0x6}" {
		t.Fatalf("GoString = %q", got)
	}
	if got := press(12*ms, Left).String() + " " + release(52*ms, Down).String(); got != "12ms +Left 52ms -Down" {
		t.Fatalf("Event.String = %q", got)
	}
}

func TestFromMillis(t *testing.T) {
	now := 10 * time.Second
	for _, tc := range []struct {
		name             string
		stamp, nowMillis uint32
		want             time.Duration
	}{
		{"same instant", 5000, 5000, now},
		{"12 ms ago", 4988, 5000, now - 12*ms},
		{"across the 2^32 wrap", 0xFFFF_FFF0, 0x0000_0010, now - 32*ms},
		{"stamped after the reading", 5003, 5000, now},
		{"long ago", 0, 1 << 30, now - (1<<30)*ms},
	} {
		if got := FromMillis(tc.stamp, tc.nowMillis, now); got != tc.want {
			t.Errorf("%s: FromMillis(%d, %d) = %v, want %v", tc.name, tc.stamp, tc.nowMillis, got, tc.want)
		}
	}
}
