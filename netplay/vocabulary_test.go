package netplay

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// demoWords is the vocabulary of the demo that uses the library, which a
// public doc comment of netplay or netplay/udp must not use: a newcomer
// reading go doc knows nothing of balls, the demo's HUD or its flags.
var demoWords = regexp.MustCompile(`(?i)\bballs?\b|\bHUD\b|-stats\b|MAX_LOOPS|interp_demo|game-loop article|world\.Hash|as in package replay|\bautonomous(ly)?\b|\bdemo\b`)

// publicDocs returns the text go doc -all shows of the package in dir: the
// package comment, and every exported declaration with its doc comment
// and the comments inside it (struct fields, constants of a group).
func publicDocs(t *testing.T, dir string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	src := map[string][]byte{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, b, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		src[name] = b
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	p, err := doc.NewFromFiles(fset, files, "example.com/"+filepath.Base(dir))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	text := func(n ast.Node) {
		if n == nil {
			return
		}
		from, to := fset.Position(n.Pos()), fset.Position(n.End())
		sb.Write(src[from.Filename][from.Offset:to.Offset])
		sb.WriteByte('\n')
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			sb.WriteString(v.Doc)
			text(v.Decl)
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			sb.WriteString(f.Doc)
		}
	}
	sb.WriteString(p.Doc)
	values(p.Consts)
	values(p.Vars)
	funcs(p.Funcs)
	for _, ty := range p.Types {
		sb.WriteString(ty.Doc)
		text(ty.Decl)
		values(ty.Consts)
		values(ty.Vars)
		funcs(ty.Funcs)
		funcs(ty.Methods)
	}
	return sb.String()
}

// TestNoDemoVocabulary: no public doc comment of netplay or netplay/udp
// speaks of the demo.
func TestNoDemoVocabulary(t *testing.T) {
	for _, dir := range []string{".", "udp"} {
		docs := publicDocs(t, dir)
		if !strings.Contains(docs, "Runner") && !strings.Contains(docs, "Conn") {
			t.Fatalf("%s: the docs read are not the package's:\n%s", dir, docs)
		}
		for _, line := range strings.Split(docs, "\n") {
			if w := demoWords.FindString(line); w != "" {
				t.Errorf("%s: public doc says %q: %s", dir, w, strings.TrimSpace(line))
			}
		}
	}
}

// TestDemoWordsCaught: the check above would see each word of the demo.
func TestDemoWordsCaught(t *testing.T) {
	for _, s := range []string{
		"its ball is autonomous", "Balls bounce", "shown in the HUD", "with -stats",
		"(MAX_LOOPS)", "the interp_demo game-loop article", "sess.Advance(world.Hash)",
		"counted from 1, as in package replay", "for the HUD and -stats", "Autonomous reports",
		"the demo that uses it",
	} {
		if !demoWords.MatchString(s) {
			t.Errorf("%q not caught", s)
		}
	}
	for _, s := range []string{"github.com/interpdemo/interpdemo/netplay", "Disconnected reports", "the game's state hash"} {
		if demoWords.MatchString(s) {
			t.Errorf("%q caught", s)
		}
	}
}
