package input_test

import (
	"fmt"
	"time"

	"github.com/interpdemo/interpdemo/input"
)

// A 30 ms tap while the game draws at 5 frames per second: the frame at
// 200 ms delivers the press and the release together and runs five 40 ms
// ticks. The tap acts on the one tick whose span it fell in, not on none
// and not on all five.
func Example() {
	const tick = 40 * time.Millisecond
	s := input.NewSampler()
	// Delivered by the frame at 200 ms, stamped with when they happened.
	s.Push(input.Event{Time: 85 * time.Millisecond, Button: input.Right, Down: true})
	s.Push(input.Event{Time: 115 * time.Millisecond, Button: input.Right, Down: false})

	var prev input.Record
	x := 0
	for j := range 5 {
		end := time.Duration(j+1) * tick
		rec := s.Tick(end)
		x += int(input.Axis(rec.Down(prev), input.Left, input.Right))
		fmt.Printf("tick [%v, %v): %v, x = %d\n", end-tick, end, rec, x)
		prev = rec
	}
	// Output:
	// tick [0s, 40ms): held=- pressed=- released=-, x = 0
	// tick [40ms, 80ms): held=- pressed=- released=-, x = 0
	// tick [80ms, 120ms): held=- pressed=Right released=Right, x = 1
	// tick [120ms, 160ms): held=- pressed=- released=-, x = 1
	// tick [160ms, 200ms): held=- pressed=- released=-, x = 1
}

// A key held across three tick spans acts on exactly three ticks.
func ExampleRecord_Down() {
	s := input.NewSampler()
	s.Push(input.Event{Time: 30 * time.Millisecond, Button: input.Up, Down: true})
	s.Push(input.Event{Time: 100 * time.Millisecond, Button: input.Up, Down: false})
	var prev input.Record
	for j := range 4 {
		rec := s.Tick(time.Duration(j+1) * 40 * time.Millisecond)
		fmt.Printf("tick %d acts on %v (just pressed: %v)\n", j, rec.Down(prev), rec.JustPressed(input.Up))
		prev = rec
	}
	// Output:
	// tick 0 acts on Up (just pressed: true)
	// tick 1 acts on Up (just pressed: false)
	// tick 2 acts on Up (just pressed: false)
	// tick 3 acts on - (just pressed: false)
}

func ExampleFromMillis() {
	// Read both clocks together each frame, after polling the events:
	nowMillis := uint32(123_456)   // sdl.GetTicks()
	now := 2500 * time.Millisecond // the loop clock's Now()
	stamp := uint32(123_440)       // the KeyboardEvent's Timestamp
	fmt.Println(input.FromMillis(stamp, nowMillis, now))
	// Output: 2.484s
}
