package demo

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/interpdemo/interpdemo/internal/cmdline"
)

// TestDocsKeyTable: docs/DEMO.md shows the demo's own key table, as
// keyTableMarkdown writes it from the bindings.
func TestDocsKeyTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/DEMO.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := KeyTableMarkdown(); !strings.Contains(string(b), want) {
		t.Errorf("docs/DEMO.md's key table is not the demo's (the bindings in internal/demo/keys.go).\n"+
			"Replace the table in docs/DEMO.md with this text, exactly:\n\n%s", want)
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
	lines := strings.Split(strings.TrimSuffix(KeyHelp(), "\n"), "\n")
	if len(lines) != len(bindings)+1 {
		t.Fatalf("-h's key table has %d lines for %d bindings:\n%s", len(lines), len(bindings), KeyHelp())
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

// TestBindingsMapBack: every key in the table leads back to its own
// row, no key is bound twice, and no direction key is a command key.
func TestBindingsMapBack(t *testing.T) {
	seen := map[Key]string{}
	for i := range bindings {
		k := &bindings[i]
		if (k.keys == nil) != (k.act == nil) {
			t.Errorf("%q: keys %v but action %v; want both or neither", k.label, k.keys, k.act != nil)
		}
		for _, c := range k.keys {
			if other, dup := seen[c]; dup {
				t.Errorf("key %d bound by %q and %q", c, other, k.label)
			}
			seen[c] = k.label
			if got := bindingOf(c); got != k {
				t.Errorf("bindingOf(%d) = %v, want the row %q", c, got, k.label)
			}
			if _, dir := buttonOf(c); dir {
				t.Errorf("key %d of %q is also a direction key", c, k.label)
			}
		}
	}
	// Every key is a command key or a direction key, but KeyNone.
	for k := KeyNone + 1; k < NumKeys; k++ {
		if _, dir := buttonOf(k); !dir && bindingOf(k) == nil {
			t.Errorf("key %d does nothing", k)
		}
	}
	if got := bindingOf(KeyNone); got != nil {
		t.Errorf("bindingOf(KeyNone) = %q, want none", got.label)
	}
}

// TestDocsListEveryFlag: docs/DEMO.md's flag tables name every flag -h
// lists, as `-name` or `-name ARG`, and no flag the demo lacks.
func TestDocsListEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../docs/DEMO.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, "## Flags"), strings.Index(doc, "## -stats")
	if i < 0 || j < i {
		t.Fatal("docs/DEMO.md lost its Flags section")
	}
	section := doc[i:j]
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`-([a-z][a-z0-9-]*)[ `]").FindAllStringSubmatch(section, -1) {
		listed[m[1]] = true
	}
	known := map[string]bool{"h": true} // the flag package's own -h
	for _, name := range FlagNames() {
		known[name] = true
		if !listed[name] {
			t.Errorf("docs/DEMO.md's flag tables lack -%s", name)
		}
	}
	for name := range listed {
		if !known[name] {
			t.Errorf("docs/DEMO.md's flag tables list -%s, which the demo does not have", name)
		}
	}
}

var updateGolden = flag.Bool("update", false, "rewrite testdata/usage.golden with the current -h")

// TestUsageGolden: -h is the text in testdata/usage.golden, which a
// reviewer reads as a user would (go test -run TestUsageGolden -update
// rewrites it after a deliberate change), and that text has its groups in
// order, each flag once, and the examples at the end.
func TestUsageGolden(t *testing.T) {
	const path = "testdata/usage.golden"
	got := Usage()
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestUsageGolden -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("-h differs from %s (go test -run TestUsageGolden -update rewrites it after a deliberate change):\n%s", path, got)
	}
	golden := string(want)
	at := -1
	for _, g := range append(flagGroupTitles[:], "Examples") {
		i := strings.Index(golden, "\n"+g+":\n")
		if i <= at {
			t.Errorf("%s: the heading %q is missing or out of order", path, g)
		}
		at = i
	}
	for _, name := range FlagNames() {
		if n := strings.Count(golden, "\n  -"+name+" ") + strings.Count(golden, "\n  -"+name+"\n"); n != 1 {
			t.Errorf("%s: -%s appears %d times", path, name, n)
		}
	}
}

// TestUsageFits: every line of -h fits cmdline.HelpWidth columns.
func TestUsageFits(t *testing.T) {
	for i, line := range strings.Split(Usage(), "\n") {
		if n := len([]rune(strings.ReplaceAll(line, "\t", "        "))); n > cmdline.HelpWidth {
			t.Errorf("-h line %d: %d columns: %q", i+1, n, line)
		}
	}
}
