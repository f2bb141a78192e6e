package cdp

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// keyDef is one key of a US keyboard, as a KeyboardEvent reports it.
type keyDef struct {
	code    string // KeyboardEvent.code: the physical key
	key     string // KeyboardEvent.key without Shift
	shifted string // KeyboardEvent.key with Shift
	keyCode int    // the Windows virtual key code, KeyboardEvent.keyCode
	text    bool   // the key types its key
}

// shiftDef is the left Shift key, which KeyDown can hold.
var shiftDef = keyDef{code: "ShiftLeft", key: "Shift", shifted: "Shift", keyCode: 16}

// keys maps the names Key takes to their keys: the KeyboardEvent.code,
// and for letters also the bare letter ("A" as well as "KeyA").
var keys = func() map[string]keyDef {
	m := map[string]keyDef{
		"Space":        {key: " ", shifted: " ", keyCode: 32, text: true},
		"Escape":       {key: "Escape", keyCode: 27},
		"F1":           {key: "F1", keyCode: 112},
		"ArrowLeft":    {key: "ArrowLeft", keyCode: 37},
		"ArrowUp":      {key: "ArrowUp", keyCode: 38},
		"ArrowRight":   {key: "ArrowRight", keyCode: 39},
		"ArrowDown":    {key: "ArrowDown", keyCode: 40},
		"PageUp":       {key: "PageUp", keyCode: 33},
		"PageDown":     {key: "PageDown", keyCode: 34},
		"BracketLeft":  {key: "[", shifted: "{", keyCode: 219, text: true},
		"BracketRight": {key: "]", shifted: "}", keyCode: 221, text: true},
		"Equal":        {key: "=", shifted: "+", keyCode: 187, text: true},
		"Minus":        {key: "-", shifted: "_", keyCode: 189, text: true},
		"Slash":        {key: "/", shifted: "?", keyCode: 191, text: true},
		"Shift":        shiftDef,
	}
	for name, k := range m {
		if k.code == "" {
			k.code = name
		}
		if k.shifted == "" {
			k.shifted = k.key
		}
		m[name] = k
	}
	for c := 'A'; c <= 'Z'; c++ {
		k := keyDef{code: "Key" + string(c), key: strings.ToLower(string(c)), shifted: string(c), keyCode: int(c), text: true}
		m[string(c)] = k
		m[k.code] = k
	}
	return m
}()

// modShift is Shift's bit in Input.dispatchKeyEvent's modifiers.
const modShift = 8

// Key presses and releases the named key, as a person would. The names
// are KeyboardEvent.code values: "Space", "KeyA" to "KeyZ" (or just "A"
// to "Z"), "Escape", "F1", "ArrowLeft", "ArrowRight", "ArrowUp",
// "ArrowDown", "PageUp", "PageDown", "BracketLeft", "BracketRight",
// "Equal", "Minus", "Slash" and "Shift". An unknown name is an error.
func (p *Page) Key(ctx context.Context, name string) error {
	if err := p.KeyDown(ctx, name); err != nil {
		return err
	}
	return p.KeyUp(ctx, name)
}

// KeyWith presses and releases the named key, holding Shift around it if
// shift is set: KeyWith(ctx, "Slash", true) types "?".
func (p *Page) KeyWith(ctx context.Context, name string, shift bool) error {
	if !shift {
		return p.Key(ctx, name)
	}
	if err := p.KeyDown(ctx, "Shift"); err != nil {
		return err
	}
	err := p.Key(ctx, name)
	if upErr := p.KeyUp(ctx, "Shift"); err == nil {
		err = upErr
	}
	return err
}

// KeyDown presses the named key (see Key) and holds it until KeyUp.
// While "Shift" is held, other keys come with Shift: shiftKey is set and
// they type their shifted character. A held key does not repeat.
func (p *Page) KeyDown(ctx context.Context, name string) error {
	return p.dispatchKey(ctx, name, true)
}

// KeyUp releases the named key (see Key).
func (p *Page) KeyUp(ctx context.Context, name string) error {
	return p.dispatchKey(ctx, name, false)
}

// dispatchKey sends one key event. A key that types text goes down as
// "keyDown" with its text, so that the page also sees keypress and
// input; others go down as "rawKeyDown", as Chromium's own keyboard
// does.
func (p *Page) dispatchKey(ctx context.Context, name string, down bool) error {
	k, ok := keys[name]
	if !ok {
		return fmt.Errorf("cdp: unknown key %q (known: %s)", name, knownKeys())
	}
	p.mu.Lock()
	if k.code == shiftDef.code {
		p.shift = down
	}
	shift := p.shift
	p.mu.Unlock()

	params := map[string]any{
		"code":                  k.code,
		"key":                   k.key,
		"windowsVirtualKeyCode": k.keyCode,
		"nativeVirtualKeyCode":  k.keyCode,
	}
	if shift {
		params["modifiers"] = modShift
		params["key"] = k.shifted
	}
	if k.code == shiftDef.code {
		params["location"] = 1 // the left one
	}
	switch {
	case !down:
		params["type"] = "keyUp"
	case k.text:
		params["type"] = "keyDown"
		params["text"] = params["key"]
		params["unmodifiedText"] = k.key
	default:
		params["type"] = "rawKeyDown"
	}
	return p.call(ctx, "Input.dispatchKeyEvent", params, nil)
}

// knownKeys lists the key names for an error message, letters as "A".."Z".
func knownKeys() string {
	var names []string
	for name := range keys {
		if len(name) > 1 && !(strings.HasPrefix(name, "Key") && len(name) == 4) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return `"A".."Z", ` + strings.Join(names, ", ")
}
