package host

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// Without a model, a skill's arguments come from the message by rules that
// hold for command-line tools in general. These helpers pick values out of
// an instruction written in plain language.

var quotedRE = lazyregexp.New("\"([^\"]{1,200})\"|“([^”]{1,200})”|`([^`]{1,200})`")

// quoted returns the single quoted phrase of text ("...", “...” or `...`),
// or "" when there is none or several.
func quoted(text string) string {
	if !strings.ContainsAny(text, "\"“`") {
		return "" // most messages; the expression's bounded repeats make it slow to run
	}
	m := quotedRE.FindAllStringSubmatch(text, 3)
	if len(m) != 1 {
		return ""
	}
	return m[0][1] + m[0][2] + m[0][3]
}

// headerMention returns the column header of the attached CSV files that
// text names (the longest one, matched as whole words, case-insensitively),
// or "". Tools that take a column name are common; the name is in the
// attached file, not in the skill's schema.
func headerMention(text string, work string, files []string) string {
	lower := strings.ToLower(text)
	best := ""
	for _, f := range files {
		for _, h := range csvHeader(filepath.Join(work, f)) {
			h = strings.TrimSpace(h)
			if len(h) < 2 || len(h) <= len(best) {
				continue
			}
			re, err := regexp.Compile(`(^|[^\pL\pN_])` + regexp.QuoteMeta(strings.ToLower(h)) + `($|[^\pL\pN_])`)
			if err == nil && re.MatchString(lower) {
				best = h
			}
		}
	}
	return best
}

// csvHeader reads the first record of a comma-, semicolon- or tab-separated
// file; nil when the file does not look like one.
func csvHeader(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return nil
	}
	line = bytes.TrimRight(line, "\r\n")
	for _, sep := range []rune{',', ';', '\t'} {
		if !bytes.ContainsRune(line, sep) {
			continue
		}
		r := csv.NewReader(bytes.NewReader(line))
		r.Comma, r.LazyQuotes = sep, true
		if rec, err := r.Read(); err == nil && len(rec) > 1 {
			return rec
		}
	}
	return nil
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "fifty": 50, "hundred": 100,
}

var countNames = map[string]bool{"n": true, "num": true, "number": true, "count": true, "limit": true, "top": true, "k": true, "max": true, "lines": true}

var wordRE = lazyregexp.New(`[\pL\pN.]+`)

// countIn returns the one count that text states ("the three most
// frequent", "top 5"), for a parameter that is a count by its name.
func countIn(text string, p bundle.Param) (int, bool) {
	if p.Type != "integer" || !countNames[strings.ToLower(strings.TrimLeft(p.Name, "-"))] {
		return 0, false
	}
	found, n := 0, 0
	for _, w := range wordRE.FindAllString(strings.ToLower(text), -1) {
		v, ok := numberWords[w]
		if !ok {
			if i, err := strconv.Atoi(w); err == nil && i > 0 && i < 10000 {
				v, ok = i, true
			}
		}
		if ok {
			found++
			n = v
		}
	}
	if found != 1 {
		return 0, false
	}
	return n, true
}

var columnNameRE = lazyregexp.New(`(?i)col|field|header|key|attr`)

// pick returns the value for string parameter p that the instruction text
// states: an attached table's column it names (for a column-like
// parameter), else its one quoted phrase; "" when it states none.
func pick(p bundle.Param, text, work string, files []string) string {
	if columnNameRE.MatchString(p.Name + " " + p.Description) {
		if h := headerMention(text, work, files); h != "" {
			return h
		}
	}
	return quoted(text)
}

// positional reports whether the skill's command line passes parameter
// name as a positional argument rather than as a flag's value.
func positional(sk *bundle.Skill, name string) bool {
	ref := "{{" + name + "}}"
	for i, a := range sk.Run {
		if !strings.Contains(a, ref) {
			continue
		}
		if a != ref {
			return !strings.HasPrefix(a, "-") && !strings.Contains(a, "=")
		}
		if i == 0 {
			return true
		}
		prev := sk.Run[i-1]
		// A bare flag ("--base") takes this element as its value; a flag
		// with its value attached ("--mode=x") does not.
		return !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=")
	}
	return false
}
