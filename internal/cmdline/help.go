package cmdline

import (
	"flag"
	"fmt"
	"strings"
)

// HelpWidth is the most columns a line of -h takes (a tab counted to
// the next multiple of 8, as a terminal shows it).
const HelpWidth = 100

// Fold breaks every line of text longer than width columns at spaces,
// each continuation indented as far as the line's text begins: after
// its leading blanks, or, for a "  NAME   what it does" line, after the
// gap of two or more spaces that follows the name. Tabs are expanded.
// A word longer than the room is left whole.
func Fold(text string, width int) string {
	var b strings.Builder
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		foldLine(&b, expandTabs(line), width)
	}
	return b.String()
}

// foldLine writes line to b, folded to width.
func foldLine(b *strings.Builder, line string, width int) {
	indent := strings.Repeat(" ", hangingIndent(line))
	for len(line) > width {
		cut := strings.LastIndexByte(line[:width+1], ' ')
		if cut <= len(indent) || strings.TrimSpace(line[:cut]) == "" {
			break // one word fills the line
		}
		b.WriteString(strings.TrimRight(line[:cut], " "))
		b.WriteByte('\n')
		line = indent + strings.TrimLeft(line[cut:], " ")
	}
	b.WriteString(line)
}

// hangingIndent is the column where line's text begins: after its
// leading blanks, or after a gap of two or more spaces within the first
// 30 columns that follows a name ("  arrows, WASD   what they do").
func hangingIndent(line string) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[lead:]
	if gap := strings.Index(rest, "  "); gap > 0 && lead+gap < 30 {
		after := rest[gap:]
		return lead + gap + len(after) - len(strings.TrimLeft(after, " "))
	}
	return lead
}

// expandTabs replaces each tab with the spaces up to the next multiple
// of 8 columns.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '\t' {
			b.WriteString(strings.Repeat(" ", 8-b.Len()%8))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// notDefined is the flag package's error for a flag it does not know.
const notDefined = "flag provided but not defined: -"

// Misspelt returns, for a flag package's error about a flag fs does not
// define, the name of fs's flag nearest to the one typed, when it is
// near enough to be a misspelling (-lobyy: lobby; one edit in a name of
// three or four letters, two in a longer one); otherwise "".
func Misspelt(fs *flag.FlagSet, err error) string {
	typed, ok := strings.CutPrefix(err.Error(), notDefined)
	if !ok {
		return ""
	}
	best, bestD := "", 3 // at most 2 edits
	switch {
	case len(typed) < 3:
		return "" // a letter or two: anything is near
	case len(typed) <= 4:
		bestD = 2 // a short name: 1 edit
	}
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(typed, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// FlagError is the one line a bad command line gets: the flag package's
// error, then the flag meant when it looks misspelt, or else where the
// flags are listed.
func FlagError(fs *flag.FlagSet, err error) string {
	if m := Misspelt(fs, err); m != "" {
		return fmt.Sprintf("%s: %v (did you mean -%s?)", fs.Name(), err, m)
	}
	return fmt.Sprintf("%s: %v (%s -h lists the flags)", fs.Name(), err, fs.Name())
}

// editDistance is the Damerau-Levenshtein distance of a and b (optimal
// string alignment): inserts, deletes, substitutions and swaps of two
// neighbours, each one edit.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
