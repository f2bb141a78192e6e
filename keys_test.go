package main

import (
	"os"
	"strings"
	"testing"

	"github.com/veandco/go-sdl2/sdl"
)

// TestREADMEKeyTable: the README shows the demo's own key table, as
// keyTableMarkdown writes it from the bindings.
func TestREADMEKeyTable(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := keyTableMarkdown(); !strings.Contains(string(b), want) {
		t.Errorf("README.md's key table is not the demo's (the bindings in keys.go).\n"+
			"Replace the table in README.md with this text, exactly:\n\n%s", want)
	}
}

// TestKeyHelpNamesEveryBinding: -h's key lines and the HUD's help are
// made from the bindings, one entry each, in order.
func TestKeyHelpNamesEveryBinding(t *testing.T) {
	labels := map[string]bool{}
	for _, k := range bindings {
		if k.label == "" || k.help == "" || k.short == "" {
			t.Errorf("binding %+v lacks a label, help or short name", k)
		}
		if labels[k.label] {
			t.Errorf("label %q used twice", k.label)
		}
		labels[k.label] = true
	}

	// -h: a heading, then a line per binding: the label, padding, what
	// it does.
	lines := strings.Split(strings.TrimSuffix(keyHelp(), "\n"), "\n")
	if len(lines) != len(bindings)+1 {
		t.Fatalf("-h's key table has %d lines for %d bindings:\n%s", len(lines), len(bindings), keyHelp())
	}
	for i, k := range bindings {
		line := lines[i+1]
		rest, ok := strings.CutPrefix(line, "  "+k.label+" ")
		if !ok || strings.TrimLeft(rest, " ") != k.help {
			t.Errorf("-h line %d is %q; want %q, spaces, %q", i+1, line, k.label, k.help)
		}
	}

	// The HUD: "label short" items, three spaces apart, several a line.
	var items []string
	for _, line := range strings.Split(hudKeyHelp(), "\n") {
		items = append(items, strings.Split(line, "   ")...)
	}
	if len(items) != len(bindings) {
		t.Fatalf("the HUD's help has %d items for %d bindings:\n%s", len(items), len(bindings), hudKeyHelp())
	}
	for i, k := range bindings {
		if want := k.label + " " + k.short; items[i] != want {
			t.Errorf("HUD help item %d is %q, want %q", i, items[i], want)
		}
	}
}

// TestBindingsMapBack: every key code in the table leads back to its own
// row, and no key is bound twice.
func TestBindingsMapBack(t *testing.T) {
	seen := map[sdl.Keycode]string{}
	for i := range bindings {
		k := &bindings[i]
		if (k.codes == nil) != (k.act == nil) {
			t.Errorf("%q: keys %v but action %v; want both or neither", k.label, k.codes, k.act != nil)
		}
		for _, c := range k.codes {
			if other, dup := seen[c]; dup {
				t.Errorf("key %d bound by %q and %q", c, other, k.label)
			}
			seen[c] = k.label
			if got := bindingOf(c); got != k {
				t.Errorf("bindingOf(%d) = %v, want the row %q", c, got, k.label)
			}
		}
	}
	// A key the table does not name has no row.
	if got := bindingOf(sdl.K_F12); got != nil {
		t.Errorf("bindingOf(F12) = %q, want none", got.label)
	}
}
