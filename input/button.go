package input

import (
	"math/bits"
	"strconv"
	"strings"
)

// A Button is a game button: an abstract control such as "move left", not a
// physical key. The platform adapter decides which keys drive which button
// (the demo maps the arrow keys and WASD to Left, Right, Up and Down).
//
// Buttons are numbered 0 to MaxButton; a Buttons set holds any of them.
type Button uint8

// The buttons the demo uses. Games may define more, up to MaxButton:
//
//	const Fire = input.Button(4)
const (
	Left Button = iota
	Right
	Up
	Down
)

// MaxButton is the highest valid Button: a Buttons set is a 32-bit mask.
const MaxButton Button = 31

var buttonNames = [...]string{Left: "Left", Right: "Right", Up: "Up", Down: "Down"}

// Valid reports whether b fits in a Buttons set (b <= MaxButton).
func (b Button) Valid() bool { return b <= MaxButton }

// String returns the button's name ("Left"), or "Button(7)" for buttons
// without one.
func (b Button) String() string {
	if int(b) < len(buttonNames) {
		return buttonNames[b]
	}
	return "Button(" + strconv.Itoa(int(b)) + ")"
}

// Buttons is a set of buttons: bit b is set when Button b is in the set.
// The zero value is the empty set.
type Buttons uint32

// Of returns the set holding the given buttons. Invalid buttons are left out.
func Of(bs ...Button) Buttons {
	var s Buttons
	for _, b := range bs {
		s = s.With(b)
	}
	return s
}

// bit returns the mask of b, or 0 for an invalid button.
func bit(b Button) Buttons {
	if b > MaxButton {
		return 0
	}
	return 1 << b
}

// Has reports whether b is in s.
func (s Buttons) Has(b Button) bool { return s&bit(b) != 0 }

// With returns s with b added.
func (s Buttons) With(b Button) Buttons { return s | bit(b) }

// Without returns s with b removed.
func (s Buttons) Without(b Button) Buttons { return s &^ bit(b) }

// Count returns the number of buttons in s.
func (s Buttons) Count() int { return bits.OnesCount32(uint32(s)) }

// String lists the buttons in s, joined by "|", or returns "-" for the
// empty set.
func (s Buttons) String() string {
	if s == 0 {
		return "-"
	}
	var sb strings.Builder
	for b := Button(0); b <= MaxButton; b++ {
		if s.Has(b) {
			if sb.Len() > 0 {
				sb.WriteByte('|')
			}
			sb.WriteString(b.String())
		}
	}
	return sb.String()
}

// Axis turns two opposing buttons into a direction: -1 when only neg is in
// down, +1 when only pos is, 0 when both or neither are. Pass it the
// buttons a tick acts on (Record.Down), for example
//
//	dx := input.Axis(rec.Down(prev), input.Left, input.Right)
func Axis(down Buttons, neg, pos Button) int8 {
	var v int8
	if down.Has(neg) {
		v--
	}
	if down.Has(pos) {
		v++
	}
	return v
}
