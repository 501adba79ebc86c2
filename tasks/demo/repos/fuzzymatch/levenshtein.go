package main

import (
	"strings"
	"unicode"
)

// Distance returns the Levenshtein distance between a and b: the least
// number of single-character insertions, deletions and substitutions that
// turn a into b. Characters are Unicode code points, not bytes.
func Distance(a, b string) int {
	return distanceRunes([]rune(a), []rune(b))
}

func distanceRunes(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a // keep the row as short as possible
	}
	if len(b) == 0 {
		return len(a)
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0] // D[i-1][j-1]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			up := row[j] // D[i-1][j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(up+1, row[j-1]+1, diag+cost)
			diag = up
		}
	}
	return row[len(b)]
}

// Ratio returns the similarity of a and b in [0, 1]:
//
//	1 - Distance(a, b) / max(len(a), len(b))
//
// with lengths counted in code points. Identical strings (including two
// empty strings) have ratio 1; strings with nothing in common have 0.
func Ratio(a, b string) float64 {
	return ratioRunes([]rune(a), []rune(b))
}

func ratioRunes(a, b []rune) float64 {
	longest := max(len(a), len(b))
	if longest == 0 {
		return 1
	}
	return 1 - float64(distanceRunes(a, b))/float64(longest)
}

// Op is one step of an edit script.
type Op struct {
	Kind string // "keep", "sub", "ins" or "del"
	From rune   // character of a (keep, sub, del)
	To   rune   // character of b (keep, sub, ins)
	PosA int    // 1-based position in a (0 for an insertion before a[0])
	PosB int    // 1-based position in b (0 for a deletion before b[0])
}

// EditScript returns a shortest edit script turning a into b, including
// the characters kept. Its number of non-"keep" steps equals Distance(a, b).
func EditScript(a, b string) []Op {
	ra, rb := []rune(a), []rune(b)
	n, m := len(ra), len(rb)
	d := make([][]int, n+1)
	for i := range d {
		d[i] = make([]int, m+1)
		d[i][0] = i
	}
	for j := 0; j <= m; j++ {
		d[0][j] = j
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	var ops []Op
	i, j := n, m
	for i > 0 || j > 0 {
		switch {
		case i > 0 && j > 0 && ra[i-1] == rb[j-1] && d[i][j] == d[i-1][j-1]:
			ops = append(ops, Op{Kind: "keep", From: ra[i-1], To: rb[j-1], PosA: i, PosB: j})
			i, j = i-1, j-1
		case i > 0 && j > 0 && d[i][j] == d[i-1][j-1]+1:
			ops = append(ops, Op{Kind: "sub", From: ra[i-1], To: rb[j-1], PosA: i, PosB: j})
			i, j = i-1, j-1
		case i > 0 && d[i][j] == d[i-1][j]+1:
			ops = append(ops, Op{Kind: "del", From: ra[i-1], PosA: i, PosB: j})
			i--
		default:
			ops = append(ops, Op{Kind: "ins", To: rb[j-1], PosA: i, PosB: j})
			j--
		}
	}
	for l, r := 0, len(ops)-1; l < r; l, r = l+1, r-1 {
		ops[l], ops[r] = ops[r], ops[l]
	}
	return ops
}

// Normalize prepares a string for fuzzy comparison: surrounding space is
// trimmed, inner runs of white space become one space, and letters are
// lower-cased when foldCase is set.
func Normalize(s string, foldCase bool) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	if foldCase {
		s = strings.ToLower(s)
	}
	return s
}
