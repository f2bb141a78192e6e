package demo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCoreTouchesNoPlatform: the demo's own files import no SDL, no GL,
// no operating system (files, processes, sockets, system calls) and read
// no clock. A web page builds the same package; what it needs of a
// platform it gets through Platform.
func TestCoreTouchesNoPlatform(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	banned := []string{"os", "os/exec", "os/signal", "syscall", "net", "unsafe", "runtime/cgo",
		"golang.org/x/sys/", "github.com/veandco/go-sdl2/", "github.com/go-gl/",
		"github.com/interpdemo/interpdemo/render", "github.com/interpdemo/interpdemo/internal/platform",
		"github.com/interpdemo/interpdemo/internal/desktop", "github.com/interpdemo/interpdemo/atomicfile"}
	clockReads := map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "Tick": true, "NewTimer": true, "NewTicker": true, "AfterFunc": true}
	checked := 0
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		checked++
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if hasBuildTag(f) {
			t.Errorf("%s has build constraints: the core is the same on every platform", name)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, b := range banned {
				if path == b || strings.HasSuffix(b, "/") && strings.HasPrefix(path, b) || path == strings.TrimSuffix(b, "/") {
					t.Errorf("%s imports %s", name, path)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && clockReads[sel.Sel.Name] {
				t.Errorf("%s: time.%s reads the clock (a front end gives the demo the time)", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("only %d files checked", checked)
	}
}

// hasBuildTag reports whether f starts with a //go:build line.
func hasBuildTag(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return true
			}
		}
	}
	return false
}
