package sim

import (
	"testing"

	"github.com/interpdemo/interpdemo/input"
)

// A missing record is predicted as the keys held at the end of the last
// known tick, held on: a press or a release in the last record is not
// repeated (a repeated press would tap the key again every tick).
func TestPredictHoldsTheKeysHeld(t *testing.T) {
	var g game
	for _, last := range []input.Record{
		{},
		{Held: input.Of(input.Left), Pressed: input.Of(input.Left)},
		{Held: input.Of(input.Up), Released: input.Of(input.Right)},
		{Pressed: input.Of(input.Down), Released: input.Of(input.Down)}, // a tap
	} {
		var b, dst [InputSize]byte
		EncodeInput(b[:], last)
		g.Predict(0, b[:], dst[:])
		if got, want := DecodeInput(dst[:]), (input.Record{Held: last.Held}); got != want {
			t.Errorf("after %+v: predicted %+v, want %+v", last, got, want)
		}
	}
	var dst [InputSize]byte
	g.Predict(0, nil, dst[:])
	if got := DecodeInput(dst[:]); got != (input.Record{}) {
		t.Errorf("with nothing known: predicted %+v", got)
	}
}
