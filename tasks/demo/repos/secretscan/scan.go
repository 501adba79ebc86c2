package main

import (
	"math"
	"sort"
	"strings"
)

// Finding is one secret found in a text.
type Finding struct {
	Rule   string // rule ID
	Line   int    // 1-based line of the start of the secret
	Column int    // 1-based column (in characters) of the start
	Start  int    // byte offset of the secret in the whole text
	End    int    // byte offset just past the secret
	Secret string // the secret itself (never printed by scan)
}

// Masked returns the secret as it may be shown: a few leading characters
// and asterisks. Private key findings show the BEGIN marker only.
func (f Finding) Masked() string {
	if f.Rule == privateKeyRule {
		return keyBeginRE.FindString(f.Secret)
	}
	return Mask(f.Secret)
}

// Mask hides all but the first quarter of s (at most 4 characters), e.g.
// AKIA**************** for an AWS key ID; at most 16 asterisks are shown.
func Mask(s string) string {
	r := []rune(s)
	show := min(4, len(r)/4)
	return string(r[:show]) + strings.Repeat("*", min(len(r)-show, 16))
}

// Options tune a scan.
type Options struct {
	MinEntropy float64         // threshold of the high-entropy-string rule
	Disabled   map[string]bool // rule IDs to skip
}

// allowMarker on a line makes the scanner ignore that line.
const allowMarker = "secretscan:allow"

// Scan finds the secrets in text, in order of position. Lines containing
// "secretscan:allow" are skipped.
func Scan(text string, opt Options) []Finding {
	if opt.MinEntropy == 0 {
		opt.MinEntropy = MinEntropy
	}
	type finder struct {
		id   string
		find func(string) [][2]int
	}
	var finders []finder
	for _, r := range Rules {
		if opt.Disabled[r.ID] || r.ID == privateKeyRule {
			continue
		}
		f := r.find
		if r.ID == "high-entropy-string" {
			f = highEntropyRule(opt.MinEntropy)
		}
		finders = append(finders, finder{r.ID, f})
	}
	scanKeys := !opt.Disabled[privateKeyRule]

	var out []Finding
	var block *Finding // open private key block
	offset := 0
	lines := strings.SplitAfter(text, "\n")
	for n, raw := range lines {
		lineNo := n + 1
		line := strings.TrimRight(raw, "\r\n")
		start := offset
		offset += len(raw)
		if block != nil {
			if loc := keyEndRE.FindStringIndex(line); loc != nil {
				block.End = start + loc[1]
				block.Secret = text[block.Start:block.End]
				out = append(out, *block)
				block = nil
			}
			continue
		}
		if strings.Contains(line, allowMarker) {
			continue
		}
		var taken [][2]int // spans already reported on this line
		if loc := keyBeginRE.FindStringIndex(line); scanKeys && loc != nil {
			f := Finding{Rule: privateKeyRule, Line: lineNo, Column: column(line, loc[0]), Start: start + loc[0]}
			if end := keyEndRE.FindStringIndex(line[loc[1]:]); end != nil {
				f.End = start + loc[1] + end[1]
				f.Secret = text[f.Start:f.End]
				out = append(out, f)
				taken = append(taken, [2]int{loc[0], loc[1] + end[1]})
			} else {
				block = &f
				taken = append(taken, [2]int{loc[0], len(line)})
			}
		}
		var found []Finding
		for _, fd := range finders {
			for _, sp := range fd.find(line) {
				if overlaps(taken, sp) {
					continue
				}
				taken = append(taken, sp)
				found = append(found, Finding{Rule: fd.id, Line: lineNo, Column: column(line, sp[0]),
					Start: start + sp[0], End: start + sp[1], Secret: line[sp[0]:sp[1]]})
			}
		}
		sort.SliceStable(found, func(i, j int) bool { return found[i].Start < found[j].Start })
		out = append(out, found...)
	}
	if block != nil { // unterminated block: it runs to the end of the text
		block.End = len(strings.TrimRight(text, "\r\n"))
		block.Secret = text[block.Start:block.End]
		out = append(out, *block)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func overlaps(spans [][2]int, s [2]int) bool {
	for _, t := range spans {
		if s[0] < t[1] && t[0] < s[1] {
			return true
		}
	}
	return false
}

// column converts a byte offset in line to a 1-based character column.
func column(line string, off int) int {
	return len([]rune(line[:off])) + 1
}

// Redact returns text with every finding replaced by replacement. A
// private key block is replaced as a whole, from BEGIN to END marker.
func Redact(text string, findings []Finding, replacement string) string {
	var b strings.Builder
	prev := 0
	for _, f := range findings {
		if f.Start < prev {
			continue
		}
		b.WriteString(text[prev:f.Start])
		b.WriteString(replacement)
		prev = f.End
	}
	b.WriteString(text[prev:])
	return b.String()
}

// Entropy returns the Shannon entropy of s in bits per character:
// -sum(p * log2 p) over the frequencies p of its characters.
func Entropy(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	if n == 0 {
		return 0
	}
	// Sum in a fixed order so results are reproducible to the last bit.
	keys := make([]rune, 0, len(counts))
	for r := range counts {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	h := 0.0
	for _, r := range keys {
		p := float64(counts[r]) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}
