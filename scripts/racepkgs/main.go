// Command racepkgs prints the packages, of those in the folders it is
// given, that can have a data race: those whose code or tests start a
// goroutine. make test runs the race detector on them alone: it reports
// accesses from two goroutines, so in a package that starts none (the
// simulation, the loop, netplay's core: they read no clock and start no
// goroutine, by design) it finds nothing, at 5 to 20 times the CPU.
//
// Usage: go list -f '{{.Dir}}' PATTERNS... | go run ./scripts/racepkgs
//
// It reads the folders, one a line, on stdin, and prints each folder that
// starts a goroutine, relative to the current one (./netplay/udp), one a
// line. A folder starts a goroutine when one of its .go files, tests
// included, has a go statement, calls Parallel (t.Parallel) or
// AfterFunc (time's, context's), or imports os/signal or net/http, which
// start goroutines of their own, or os/exec: in a test, only where it
// calls Start (a child that runs beside the test, its output copied by
// goroutines; Run, Output and CombinedOutput return once those are
// done). It exits 2 when a folder cannot be read or a file parsed.
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() { os.Exit(run(os.Stdin, os.Stdout, os.Stderr)) }

func run(stdin io.Reader, stdout, stderr io.Writer) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "racepkgs: %v\n", err)
		return 2
	}
	lines := bufio.NewScanner(stdin)
	for lines.Scan() {
		dir := strings.TrimSpace(lines.Text())
		if dir == "" {
			continue
		}
		starts, err := startsGoroutine(dir)
		if err != nil {
			fmt.Fprintf(stderr, "racepkgs: %v\n", err)
			return 2
		}
		if starts {
			fmt.Fprintln(stdout, relative(wd, dir))
		}
	}
	if err := lines.Err(); err != nil {
		fmt.Fprintf(stderr, "racepkgs: reading the folders: %v\n", err)
		return 2
	}
	return 0
}

// relative is dir as the go command takes it from wd: ./a/b, or dir
// itself where it is not under wd.
func relative(wd, dir string) string {
	rel, err := filepath.Rel(wd, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return dir
	}
	return "./" + filepath.ToSlash(rel)
}

// goroutineImports start goroutines of their own: a signal delivered,
// a server's connections.
var goroutineImports = map[string]bool{"os/signal": true, "net/http": true}

// startsGoroutine reports whether a .go file in dir (not its
// sub-folders) starts a goroutine, by the rules in the package's doc.
func startsGoroutine(dir string) (bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return false, err
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return false, err
		}
		if fileStarts(f, strings.HasSuffix(name, "_test.go")) {
			return true, nil
		}
	}
	return false, nil
}

// fileStarts reports whether f starts a goroutine; test says whether it
// is a test's file.
func fileStarts(f *ast.File, test bool) bool {
	execs := false
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		switch {
		case err != nil:
		case goroutineImports[path]:
			return true
		case path == "os/exec" && !test:
			return true
		case path == "os/exec":
			execs = true
		}
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			found = true
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				name := sel.Sel.Name
				found = found || name == "Parallel" || name == "AfterFunc" || execs && name == "Start" && len(n.Args) == 0
			}
		}
		return !found
	})
	return found
}
