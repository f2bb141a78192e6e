package web

import "github.com/interpdemo/interpdemo/internal/demo"

// KeyOf is the demo's key for a KeyboardEvent's code: the physical key,
// whatever the layout types with it, as the window maps the direction
// keys by position (the arrows and WASD; ZQSD on an AZERTY keyboard).
// Unknown codes are demo.KeyNone.
func KeyOf(code string) demo.Key { return codeKeys[code] }

// codeKeys maps KeyboardEvent.code to the demo's keys: the same keys as
// the window's table (internal/desktop's symKeys), by position.
var codeKeys = map[string]demo.Key{
	"Space": demo.KeySpace, "KeyE": demo.KeyE, "KeyV": demo.KeyV, "KeyJ": demo.KeyJ,
	"KeyH": demo.KeyH, "F1": demo.KeyF1, "Slash": demo.KeyQuestion,
	"KeyF": demo.KeyF, "KeyG": demo.KeyG, "KeyX": demo.KeyX, "KeyL": demo.KeyL, "KeyK": demo.KeyK, "KeyC": demo.KeyC,
	"KeyM": demo.KeyM, "BracketLeft": demo.KeyLeftBracket, "BracketRight": demo.KeyRightBracket,
	"KeyP": demo.KeyP, "KeyR": demo.KeyR,
	"Equal": demo.KeyPlus, "NumpadAdd": demo.KeyPlus,
	"Minus": demo.KeyMinus, "NumpadSubtract": demo.KeyMinus,
	"PageUp": demo.KeyPageUp, "PageDown": demo.KeyPageDown,
	"KeyQ": demo.KeyQ, "Escape": demo.KeyEscape,
	"ArrowLeft": demo.KeyLeft, "ArrowRight": demo.KeyRight, "ArrowUp": demo.KeyUp, "ArrowDown": demo.KeyDown,
	"KeyA": demo.KeyA, "KeyD": demo.KeyD, "KeyW": demo.KeyW, "KeyS": demo.KeyS,
}
