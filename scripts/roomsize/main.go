// Command roomsize fails when a Go file outside the tests is too long to
// read as one room: a file over 800 lines, or a function over 80 (from
// its func line to its closing brace). make lint runs it on the whole
// repository, every module included.
//
// Usage: go run ./scripts/roomsize [dir ...] (default: the current folder).
//
// It walks each folder as the go command does (folders named testdata,
// vendor, or starting with . or _ are passed over), reads every .go file
// but the _test.go ones, and prints one line per room too big:
//
//	pkg/big.go:1: 801 lines (limit 800)
//	pkg/long.go:12: func (*T).m is 81 lines (limit 80)
//
// It exits 1 when it printed any, 2 when a file cannot be read or parsed.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The limits: a file or a function of this many lines passes, one more
// does not.
const (
	maxFileLines = 800
	maxFuncLines = 80
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = []string{"."}
	}
	found := 0
	for _, dir := range args {
		rooms, err := check(dir)
		if err != nil {
			fmt.Fprintf(stderr, "roomsize: %v\n", err)
			return 2
		}
		for _, r := range rooms {
			fmt.Fprintln(stdout, r)
		}
		found += len(rooms)
	}
	if found > 0 {
		fmt.Fprintf(stderr, "roomsize: %d too big: split them by role (files at most %d lines, functions at most %d)\n",
			found, maxFileLines, maxFuncLines)
		return 1
	}
	return 0
}

// A room is one file or function over its limit.
type room struct {
	file  string // the path as walked
	line  int
	what  string // "" for the file itself, else "func Name" or "func (*T).Name"
	lines int
	limit int
}

func (r room) String() string {
	if r.what == "" {
		return fmt.Sprintf("%s:%d: %d lines (limit %d)", r.file, r.line, r.lines, r.limit)
	}
	return fmt.Sprintf("%s:%d: %s is %d lines (limit %d)", r.file, r.line, r.what, r.lines, r.limit)
}

// check walks dir and returns the rooms over their limits, in the walk's
// order (by path, then by line).
func check(dir string) ([]room, error) {
	var rooms []room
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || name == "vendor" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		r, err := checkFile(path)
		rooms = append(rooms, r...)
		return err
	})
	return rooms, err
}

// checkFile returns the rooms of one file over their limits.
func checkFile(path string) ([]room, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var rooms []room
	if n := countLines(src); n > maxFileLines {
		rooms = append(rooms, room{file: path, line: 1, lines: n, limit: maxFileLines})
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start := fset.Position(fn.Type.Func).Line
		n := fset.Position(fn.Body.Rbrace).Line - start + 1
		if n > maxFuncLines {
			rooms = append(rooms, room{file: path, line: start, what: funcName(fn), lines: n, limit: maxFuncLines})
		}
	}
	return rooms, nil
}

// countLines counts the lines as wc -l does, and a last one with no
// newline.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// funcName is a function's name as go doc's readers know it: "func Name",
// or "func (T).Name" / "func (*T).Name" for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return "func " + fn.Name.Name
	}
	return "func (" + recvType(fn.Recv.List[0].Type) + ")." + fn.Name.Name
}

func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + recvType(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr: // a generic type: T[E]
		return recvType(t.X)
	case *ast.IndexListExpr: // T[K, V]
		return recvType(t.X)
	case *ast.ParenExpr:
		return recvType(t.X)
	}
	return "?"
}
