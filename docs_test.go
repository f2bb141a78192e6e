package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// mdLink matches a Markdown link or image, [text](target) or
// ![alt](target), with the target's path and #fragment apart.
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)#\s]*)(#[^)\s]*)?\)`)

// TestDocLinksResolve: every relative link in README.md and docs/*.md
// names a file or directory that exists, and a #fragment names a heading
// of the file it points into (as GitHub makes anchors of headings). Links
// inside code blocks and to other sites are not checked.
func TestDocLinksResolve(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"README.md"}, files...)
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range proseLines(string(b)) {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target, fragment := m[1], strings.TrimPrefix(m[2], "#")
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				dest := file // a bare #fragment points into the file itself
				if target != "" {
					dest = filepath.Join(filepath.Dir(file), target)
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link to %s: %v", file, n, m[1], err)
						continue
					}
				}
				if fragment == "" {
					continue
				}
				anchors, err := headingAnchors(dest)
				if err != nil {
					t.Errorf("%s:%d: link to %s#%s: %v", file, n, target, fragment, err)
					continue
				}
				if !anchors[fragment] {
					t.Errorf("%s:%d: link to %s#%s: %s has no such heading", file, n, target, fragment, dest)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links checked: the link pattern no longer matches the docs", checked)
	}
}

// proseLines are a Markdown file's lines by line number (from 1), with
// the lines of fenced code blocks left out.
func proseLines(s string) map[int]string {
	lines := map[int]string{}
	fenced := false
	for i, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			lines[i+1] = line
		}
	}
	return lines
}

// headingAnchors are the anchors GitHub gives a Markdown file's headings:
// lower case, spaces to hyphens, punctuation other than hyphens and
// underscores dropped, a repeated anchor numbered from -1.
func headingAnchors(path string) (map[string]bool, error) {
	if filepath.Ext(path) != ".md" {
		return nil, os.ErrInvalid
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(string(b)) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		anchor := headingAnchor(title)
		if k := seen[anchor]; k > 0 {
			anchors[anchor+"-"+strconv.Itoa(k)] = true
		} else {
			anchors[anchor] = true
		}
		seen[anchor]++
	}
	return anchors, nil
}

func headingAnchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestHeadingAnchor pins the anchors the link test expects GitHub to make.
func TestHeadingAnchor(t *testing.T) {
	for title, want := range map[string]string{
		"Use the loop in your game": "use-the-loop-in-your-game",
		"-stats":                    "-stats",
		"Input that never loses a tap, and replay":   "input-that-never-loses-a-tap-and-replay",
		"Frame pacing on real displays":              "frame-pacing-on-real-displays",
		"Where `internal/demo` ends (and desktop's)": "where-internaldemo-ends-and-desktops",
	} {
		if got := headingAnchor(title); got != want {
			t.Errorf("headingAnchor(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestNoConflictMarkers: no file git tracks, apart from the binary ones,
// holds a line a merge conflict leaves (<<<<<<< ours, =======, >>>>>>>
// theirs): a conflict resolved by accident into a commit.
func TestNoConflictMarkers(t *testing.T) {
	out, err := exec.Command("git", "ls-files").Output()
	if err != nil {
		t.Skipf("no git checkout: %v", err)
	}
	marker := regexp.MustCompile(`(?m)^(<<<<<<< |>>>>>>> |=======$)`)
	for _, f := range strings.Fields(string(out)) {
		b, err := os.ReadFile(f)
		if err != nil || strings.IndexByte(string(b[:min(len(b), 8000)]), 0) >= 0 {
			continue // gone from the working tree, or binary
		}
		if loc := marker.FindIndex(b); loc != nil {
			line := strings.Count(string(b[:loc[0]]), "\n") + 1
			t.Errorf("%s:%d: a merge conflict's marker", f, line)
		}
	}
}

// Docs' sizes: reference a reader gets through, not a lab notebook.
const (
	docsMax       = 120_000 // bytes of docs/*.md in all
	designMax     = 25_000  // docs/DESIGN.md: the architecture
	netplayDocMax = 30_000  // docs/NETPLAY.md
	readmeLines   = 150
	proseLineMax  = 800 // characters in a line of prose (tables, code and links apart)
)

// datedLine matches a line that dates what it says (2026-11-27): the
// story of a figure belongs in git, and only docs/PERFORMANCE.md, which
// make bench writes, says when its figures were measured.
var datedLine = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)

// TestDocsAreReference holds the docs to their sizes: all of docs/*.md,
// DESIGN.md and NETPLAY.md in bytes, the README in lines, and every line
// of prose (a table's row, a code block's line and a link's target
// apart) in characters; no dated line outside PERFORMANCE.md.
func TestDocsAreReference(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range append(files, "README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if f != "README.md" {
			total += len(b)
		}
		switch f {
		case "docs/DESIGN.md":
			checkMax(t, f+" bytes", len(b), designMax)
		case "docs/NETPLAY.md":
			checkMax(t, f+" bytes", len(b), netplayDocMax)
		case "README.md":
			checkMax(t, f+" lines", strings.Count(string(b), "\n"), readmeLines)
		}
		code := false
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				code = !code
			}
			if code || strings.HasPrefix(line, "|") {
				continue
			}
			if n := len([]rune(mdLink.ReplaceAllString(line, "[]"))); n > proseLineMax {
				t.Errorf("%s:%d: a line of %d characters (at most %d): break it into paragraphs", f, i+1, n, proseLineMax)
			}
			if f != "docs/PERFORMANCE.md" && datedLine.MatchString(line) {
				t.Errorf("%s:%d: a dated line; the story goes in git, the figures in PERFORMANCE.md: %.80s", f, i+1, line)
			}
		}
	}
	checkMax(t, "docs/*.md bytes in all", total, docsMax)
}

func checkMax(t *testing.T, what string, n, limit int) {
	t.Helper()
	if n > limit {
		t.Errorf("%s: %d, at most %d", what, n, limit)
	}
}
