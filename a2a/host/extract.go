package host

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"mime"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/vocab"
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
	m := quotedRE.FindAllStringSubmatchIndex(unmarked(text), 3)
	if len(m) != 1 {
		return ""
	}
	for g := 2; g+1 < len(m[0]); g += 2 {
		if m[0][g] >= 0 {
			return text[m[0][g]:m[0][g+1]]
		}
	}
	return ""
}

// unmarked is text with each straight double quote that cannot open a
// quoted phrase (one right after a digit: the inch or seconds mark of
// 12" or 40°26'46") blanked to a NUL byte, offsets kept. A quote after a
// digit that closes an open phrase ("1.2.3") stays.
func unmarked(text string) string {
	if !strings.Contains(text, `"`) {
		return text
	}
	b := []byte(text)
	open := false
	for i, c := range b {
		if c != '"' {
			continue
		}
		if !open && i > 0 && b[i-1] >= '0' && b[i-1] <= '9' {
			b[i] = 0
			continue
		}
		open = !open
	}
	return string(b)
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
			// "molar_mass" is said "molar mass".
			words := strings.Fields(strings.NewReplacer("_", " ", "-", " ").Replace(strings.ToLower(h)))
			for i, w := range words {
				words[i] = regexp.QuoteMeta(w)
			}
			for _, form := range []string{regexp.QuoteMeta(strings.ToLower(h)), strings.Join(words, `[\s_-]+`)} {
				re, err := regexp.Compile(`(^|[^\pL\pN_])` + form + `($|[^\pL\pN_])`)
				if err == nil && form != "" && re.MatchString(lower) {
					best = h
					break
				}
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
	// A table of one column has no separator to show it is one; its name
	// says so.
	if ext := strings.ToLower(filepath.Ext(path)); (ext == ".csv" || ext == ".tsv") && len(bytes.TrimSpace(line)) > 0 {
		r := csv.NewReader(bytes.NewReader(line))
		r.LazyQuotes = true
		if rec, err := r.Read(); err == nil && len(rec) == 1 {
			return rec
		}
	}
	return nil
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "fifty": 50, "hundred": 100,
}

var wordRE = lazyregexp.New(`[\pL\pN.]+`)

// countIn returns the one count that text states ("the three most
// frequent", "top 5"), for a parameter that is a count by its name.
func countIn(text string, p bundle.Param) (int, bool) {
	if p.Type != "integer" || !countNames()[strings.ToLower(strings.TrimLeft(p.Name, "-"))] {
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

// columnWords are the words by which a parameter says it names a table's
// column.
var columnWords = map[string]bool{"col": true, "cols": true, "column": true, "columns": true, "field": true, "fields": true,
	"header": true, "headers": true, "key": true, "keys": true, "attr": true, "attrs": true, "attribute": true, "attributes": true}

// columnLike reports whether parameter p names a table's column: its
// name's words or its description's first sentence say column, field,
// header, key or attribute — as words ("color" is no "col"), and not in a
// later sentence ("lines starting with this character are ignored; if your
// header row starts with it, …").
func columnLike(p bundle.Param) bool {
	first, _, _ := strings.Cut(p.Description, ". ")
	for _, w := range append(vocab.Words(p.Name), vocab.Words(first)...) {
		if columnWords[w] {
			return true
		}
	}
	return false
}

// pick returns the value for string parameter p of skill sk that the
// instruction text states: an attached table's column it names (for a
// column-like parameter), else its one quoted phrase, else its one token
// of the kind p holds (one of p's choices, a match of p's pattern, a
// version, a URL: see kindTokens); "" when it states none.
func pick(sk *bundle.Skill, p bundle.Param, text, work string, files []string) string {
	if columnLike(p) {
		if h := headerMention(text, work, files); h != "" {
			return h
		}
	}
	// A quoted phrase is the value, unless the parameter holds a kind of
	// token (a version, a URL, a key) the phrase is not and the text
	// writes one of: GREETING in `make it GREETING="hello there"`.
	vs := kindTokens(sk, p, text)
	if q := quoted(text); q != "" {
		if re := kindOf(sk, p); re == nil || re.MatchString(q) || len(vs) != 1 {
			return q
		}
	}
	if len(vs) == 1 {
		return vs[0]
	}
	return ""
}

// pickAll returns the values the instruction states for several string
// parameters (see pick). Parameters of one kind (version1, version2) take
// that kind's tokens in the order the text gives them and the command
// line takes the parameters, when there is one token for each; one quoted
// phrase would not tell them apart.
func pickAll(sk *bundle.Skill, ps []bundle.Param, text, work string, files []string) map[string]string {
	out := map[string]string{}
	groups := map[string][]bundle.Param{}
	for _, p := range ps {
		if re := kindOf(sk, p); re != nil && choicesOf(sk, p) == nil {
			groups[re.String()] = append(groups[re.String()], p)
		}
	}
	for _, p := range ps {
		if re := kindOf(sk, p); re != nil && choicesOf(sk, p) == nil && len(groups[re.String()]) > 1 {
			continue
		}
		if v := pick(sk, p, text, work, files); v != "" {
			out[p.Name] = v
		}
	}
	for _, same := range groups {
		if len(same) < 2 {
			continue
		}
		vs := kindTokens(sk, same[0], text)
		if len(vs) != len(same) {
			continue
		}
		slices.SortStableFunc(same, func(a, b bundle.Param) int { return runIndex(sk, a.Name) - runIndex(sk, b.Name) })
		for i, p := range same {
			out[p.Name] = vs[i]
		}
	}
	return out
}

// runIndex is where the skill's command line first uses parameter name;
// after every element when it does not.
func runIndex(sk *bundle.Skill, name string) int {
	for i, a := range sk.Run {
		if slices.Contains(bundle.Placeholders(a), name) {
			return i
		}
	}
	return len(sk.Run)
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

// A token is one word of a text as the rules below read it: split at
// white space (and at the runes of seps), stripped of the punctuation
// around it.
type token struct {
	s   string // as written
	low string // lower-cased
}

func tokens(text, seps string) []token {
	var out []token
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(seps, r) }) {
		s := strings.TrimLeft(f, "\"'“”‘’`([{<")
		s = strings.TrimRight(s, "\"'“”‘’`)]}>,;:!?.")
		if s != "" {
			out = append(out, token{s: s, low: strings.ToLower(s)})
		}
	}
	return out
}

// says reports whether token t is word w, or a form of it ("ignoring",
// "configuration" for ignore, config); words shorter than three letters
// must match whole.
func says(t token, w string) bool {
	if len(w) < 3 {
		return t.low == w
	}
	stem := w
	if len(stem) > 4 {
		stem = strings.TrimSuffix(stem, "s")
		stem = strings.TrimSuffix(stem, "e")
	}
	return strings.HasPrefix(t.low, stem)
}

var (
	inputRE = lazyregexp.New(`(?i)\b(input|file|files|path|paths|director(y|ies)|folder)\b`)
)

// fileSlot is a parameter that may take attached files.
type fileSlot struct {
	p     bundle.Param
	side  bool // an ignore list, configuration, log, cache
	score int  // higher is more likely the skill's input
}

// bindFiles gives the attached files (free, names in work) to the
// unbound parameters that take files, as a person reading the skill
// would: first to the skill's input (a required or positional parameter,
// a list when several files came, one whose name or description says
// input, file, path or directory), never to a file the tool writes, and
// to a side file (an ignore list, a configuration, a log, a cache) only
// when a file's name or the text says so or nothing else takes files.
// String parameters without format path take files only when their name
// says they are paths and no path parameter fits.
func bindFiles(sk *bundle.Skill, params []bundle.Param, args map[string]any, free []string, text, work string) {
	if len(free) == 0 {
		return
	}
	toks := tokens(text, "")
	var main, side, loose []fileSlot
	for _, p := range params {
		if _, ok := args[p.Name]; ok || writes(p) {
			continue
		}
		words := vocab.Words(p.Name)
		// A path parameter is a side file by its role (a setting); a
		// string one by its name.
		s := fileSlot{p: p, side: p.IsPath() && p.Role == bundle.RoleSetting || !p.IsPath() && hasAny(words, sideWords())}
		if p.Required {
			s.score += 8
		}
		if positional(sk, p.Name) {
			s.score += 4
		}
		if p.Type == "array" && len(free) > 1 {
			s.score += 2
		}
		if hasAny(words, fileWords()) || inputRE.MatchString(p.Description) {
			s.score++
		}
		if len(distinctive(p.Name)) == 0 && hasAny(words, fileWords()) {
			// "filename" is the input itself; "expr_file" holds something
			// else (an expression) in a file.
			s.score++
		}
		switch {
		case p.IsPath() && s.side:
			side = append(side, s)
		case p.IsPath():
			main = append(main, s)
		case !s.side && hasAny(words, fileWords()) && (p.Type == "string" || p.Type == "array") && s.score >= 4:
			loose = append(loose, s)
		}
	}
	if len(main) == 0 {
		main = loose
	}
	give := func(s fileSlot, files []string) {
		if s.p.Type != "array" {
			files = files[:1]
			args[s.p.Name] = filepath.Join(work, files[0])
		} else {
			var list []any
			for _, f := range files {
				list = append(list, filepath.Join(work, f))
			}
			args[s.p.Name] = list
		}
		for _, f := range files {
			free = slices.DeleteFunc(free, func(x string) bool { return x == f })
		}
	}
	// A side file goes where its name says (".sccignore" to ignore_file,
	// "lint-config.yaml" to config), or where the text puts it: a file the
	// text names next to the parameter's words; but never the last file an
	// input could take (a linter's one attached "config.yaml" is what it
	// lints).
	var rest []fileSlot
	for _, s := range side {
		words := distinctive(s.p.Name)
		var claim []string
		for _, f := range free {
			if fileNamed(f, words) || mentionedNear(toks, f, words) {
				claim = append(claim, f)
			}
		}
		if s.p.Type != "array" && len(claim) > 1 {
			claim = claim[:1]
		}
		switch {
		case len(claim) > 0 && (len(main) == 0 || len(claim) < len(free)):
			give(s, claim)
		case len(main) == 0 || namesAll(toks, words):
			s.score -= 16 // after every input
			rest = append(rest, s)
		}
	}
	main = append(main, rest...)
	slices.SortStableFunc(main, func(a, b fileSlot) int { return b.score - a.score })
	for _, s := range main {
		// A parameter takes only files of a type it accepts: a document
		// never goes to a parameter for images.
		fit := slices.DeleteFunc(slices.Clone(free), func(f string) bool { return !acceptsFile(s.p, work, f) })
		if len(fit) == 0 {
			continue
		}
		if s.p.Type == "array" {
			give(s, fit)
		} else {
			give(s, fit[:1])
		}
	}
}

// acceptsFile reports whether parameter p takes the attached file f: any
// file when p names no media types, or when f's type is unknown.
func acceptsFile(p bundle.Param, work, f string) bool {
	if len(p.Accepts) == 0 {
		return true
	}
	mt := fileType(work, f)
	return mt == "application/octet-stream" || bundle.Accepts(p.Accepts, mt)
}

// fileType is the media type of attached file f, by its name, else by its
// first bytes; parameters are dropped ("text/plain; charset=utf-8").
func fileType(work, f string) string {
	var head []byte
	if fh, err := os.Open(filepath.Join(work, f)); err == nil {
		buf := make([]byte, 512)
		n, _ := fh.Read(buf)
		head = buf[:n]
		fh.Close()
	}
	mt, _, _ := mime.ParseMediaType(mediaTypeOf(f, head))
	return mt
}

// writes reports whether p names a file the skill writes: its role.
func writes(p bundle.Param) bool {
	return p.Role == bundle.RoleOutput
}

func hasAny(words []string, set map[string]bool) bool {
	for _, w := range words {
		if set[w] {
			return true
		}
	}
	return false
}

// distinctive returns the words of a parameter name that say more than
// that it takes a file.
func distinctive(name string) []string {
	var out []string
	for _, w := range vocab.Words(name) {
		if !fileWords()[w] {
			out = append(out, w)
		}
	}
	return out
}

// fileNamed reports whether the file's name holds one of words (of three
// letters or more).
func fileNamed(file string, words []string) bool {
	base := strings.ToLower(file)
	for _, w := range words {
		if len(w) >= 3 && strings.Contains(base, w) {
			return true
		}
	}
	return false
}

// namesAll reports whether the text says every one of words.
func namesAll(toks []token, words []string) bool {
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if !slices.ContainsFunc(toks, func(t token) bool { return says(t, w) }) {
			return false
		}
	}
	return true
}

// mentionedNear reports whether the text names the file within a few
// words of one of words ("use rules.txt as the ignore list").
func mentionedNear(toks []token, file string, words []string) bool {
	const near = 5
	file = strings.ToLower(file)
	for i, t := range toks {
		if strings.TrimLeft(t.low, ".") != strings.TrimLeft(file, ".") {
			continue
		}
		for j := max(0, i-near); j < min(len(toks), i+near+1); j++ {
			for _, w := range words {
				if j != i && says(toks[j], w) {
					return true
				}
			}
		}
	}
	return false
}

var numberRE = lazyregexp.New(`^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][-+]?\d+)?$`)

// number is a number the text states, with its place among the text's
// tokens.
type number struct {
	v  float64
	at int
}

// numbersIn returns the numbers written in digits ("193", "-0.45",
// "10,000"); when there are none, those written as words ("twelve").
func numbersIn(toks []token) []number {
	var out []number
	for i, t := range toks {
		if !numberRE.MatchString(t.s) {
			continue
		}
		if v, err := strconv.ParseFloat(strings.ReplaceAll(t.s, ",", ""), 64); err == nil {
			out = append(out, number{v, i})
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, t := range toks {
		if v, ok := numberWords[t.low]; ok {
			out = append(out, number{float64(v), i})
		}
	}
	return out
}

// bindNumbers fills numeric parameters from the numbers the instruction
// states. A count parameter (n, top, limit) takes the one count stated
// (countIn). A required integer or number without a default takes the
// number written next to its name ("fast 5", "width=80"), or else, when
// it is the only such parameter left, the text's one number that no
// other parameter's name claims ("What is the ordinal of 193?").
func bindNumbers(params []bundle.Param, args map[string]any, text string) {
	unbound := func(p bundle.Param) bool { _, ok := args[p.Name]; return !ok }
	counted := false
	for _, p := range params {
		if n, ok := countIn(text, p); ok && unbound(p) {
			args[p.Name], counted = n, true
		}
	}
	if counted {
		return // the text's one number is the count
	}
	numeric := func(p bundle.Param) bool { return p.Type == "integer" || p.Type == "number" }
	var open, optional []bundle.Param
	for _, p := range params {
		switch {
		case !unbound(p) || !numeric(p):
		case p.Required && !p.HasDefault:
			open = append(open, p)
		default:
			optional = append(optional, p)
		}
	}
	if len(open) == 0 && len(optional) == 0 {
		return
	}
	toks := tokens(text, "=") // "fast=5" says fast, 5
	nums := numbersIn(toks)
	// owner[i] is the parameter whose name is nearest number i (see
	// nearest), "" when none is, "?" when two parameters are as near.
	owner := make([]string, len(nums))
	for i, n := range nums {
		best := 3
		for _, p := range params {
			d := nearest(toks, n.at, vocab.Words(p.Name))
			switch {
			case d == 0:
			case d < best:
				best, owner[i] = d, p.Name
			case d == best && owner[i] != p.Name:
				owner[i] = "?"
			}
		}
	}
	used := make([]bool, len(nums))
	var left []bundle.Param
	for _, p := range open {
		var mine []int
		for i := range nums {
			if owner[i] == p.Name {
				mine = append(mine, i)
			}
		}
		if len(mine) == 1 && setNumber(args, p, nums[mine[0]].v) {
			used[mine[0]] = true
			continue
		}
		left = append(left, p)
	}
	var unclaimed []int
	for i := range nums {
		if owner[i] == "" && !used[i] {
			unclaimed = append(unclaimed, i)
		}
	}
	if len(left) == 1 && len(unclaimed) == 1 {
		setNumber(args, left[0], nums[unclaimed[0]].v)
	}
	// An optional number is set only when the text names it beside its
	// value ("64 pixels wide", "width 8").
	for _, p := range optional {
		var mine []int
		for i := range nums {
			if owner[i] == p.Name && !used[i] {
				mine = append(mine, i)
			}
		}
		if len(mine) == 1 && setNumber(args, p, nums[mine[0]].v) {
			used[mine[0]] = true
		}
	}
}

// connectives may stand between a parameter's name and its number
// ("width of 8", "slow is 20").
var connectives = map[string]bool{"of": true, "is": true, "at": true, "to": true, "as": true, "be": true, "equals": true}

// units may stand between a number and the name it belongs to ("64
// pixels wide", "3 decimal places").
var units = map[string]bool{
	"px": true, "pixel": true, "pixels": true, "pt": true, "points": true, "char": true, "chars": true,
	"characters": true, "columns": true, "rows": true, "lines": true, "words": true, "digits": true,
	"decimal": true, "decimals": true, "places": true, "percent": true, "%": true, "days": true, "hours": true,
	"minutes": true, "seconds": true, "ms": true, "mm": true, "cm": true, "km": true, "m": true, "kb": true,
	"mb": true, "gb": true, "items": true, "bytes": true, "spaces": true, "levels": true,
}

// dimensions are the adjectives that name a measure ("64 pixels wide" is
// a width).
var dimensions = map[string][]string{
	"width": {"wide"}, "height": {"high", "tall"}, "length": {"long"}, "depth": {"deep"},
}

// nearest returns how far from toks[at] one of words is said: 1 right
// beside it, 2 with a connective or a unit between; 0 when it is not.
func nearest(toks []token, at int, words []string) int {
	for _, w := range slices.Clone(words) {
		words = append(words, dimensions[w]...)
	}
	is := func(j int) bool {
		return j >= 0 && j < len(toks) && slices.ContainsFunc(words, func(w string) bool { return says(toks[j], w) })
	}
	between := func(j int) bool { return j >= 0 && j < len(toks) && (connectives[toks[j].low] || units[toks[j].low]) }
	switch {
	case is(at-1) || is(at+1):
		return 1
	case between(at-1) && is(at-2) || between(at+1) && is(at+2):
		return 2
	}
	return 0
}

// setNumber binds v to numeric parameter p when it fits p's type.
func setNumber(args map[string]any, p bundle.Param, v float64) bool {
	if p.Type == "integer" {
		if v != float64(int64(v)) {
			return false
		}
		args[p.Name] = int64(v)
		return true
	}
	args[p.Name] = v
	return true
}

// Kinds of token a string parameter may hold, each recognised whole.
var (
	versionRE = lazyregexp.New(`^[vV]?\d+(\.\d+){1,3}(-[0-9A-Za-z][0-9A-Za-z.-]*)?(\+[0-9A-Za-z][0-9A-Za-z.-]*)?$`)
	urlRE     = lazyregexp.New(`^(?i:https?|ftp)://[^\s/?#]+[^\s]*$`)
	emailRE   = lazyregexp.New(`^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$`)
	dateRE    = lazyregexp.New(`^\d{4}-\d{2}-\d{2}$`)
	ipv4RE    = lazyregexp.New(`^(\d{1,3}\.){3}\d{1,3}$`)
	uuidRE    = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// kindByFormat and kindByWord name the kind of token a parameter holds by
// its JSON Schema format, or by a word of its name or of the opening of
// its description.
var (
	kindByFormat = map[string]*lazyregexp.Regexp{
		"uri": urlRE, "url": urlRE, "iri": urlRE, "email": emailRE, "idn-email": emailRE,
		"date": dateRE, "ipv4": ipv4RE, "uuid": uuidRE,
	}
	kindByWord = map[string]*lazyregexp.Regexp{
		"version": versionRE, "semver": versionRE, "ver": versionRE,
		"url": urlRE, "uri": urlRE, "href": urlRE, "email": emailRE, "date": dateRE, "uuid": uuidRE,
		"key": identifierRE, "var": identifierRE, "variable": identifierRE, "field": identifierRE,
		"attribute": identifierRE, "attr": identifierRE, "property": identifierRE,
	}
	// identifierRE is a name written the way programs write names, not
	// words: DATABASE_URL, DB, max_retries, maxRetries.
	identifierRE = lazyregexp.New(`^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{2,}[0-9]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]*)+)$`)
)

// choicesRE finds the quoted choices a description lists ("one of 'major',
// 'minor' or 'patch'", `choices are "python", "php"`).
var (
	choicesRE = lazyregexp.New(`(?i)\b(one of|choices? (?:are|is)(?: one of)?|either)\b(.*)`)
	choiceRE  = lazyregexp.New(`'([^']{1,40})'|"([^"]{1,40})"`)
)

// kindOf returns what a value of string parameter p must look like: the
// schema's pattern, else its format's kind, else the kind its name says
// (a version, a URL); nil when p may hold any text.
func kindOf(sk *bundle.Skill, p bundle.Param) *regexp.Regexp {
	prop := propertyOf(sk, p.Name)
	if pat, _ := prop["pattern"].(string); pat != "" {
		if re, err := regexp.Compile(`^(?:` + pat + `)$`); err == nil {
			return re
		}
	}
	if re := kindByFormat[p.Format]; re != nil {
		return re.Regexp()
	}
	// The name's last word says what it is ("base_url" a URL,
	// "date_format" not a date), and so may the description's subject
	// ("Version to check.", "The URL of the page").
	if words := vocab.Words(p.Name); len(words) > 0 {
		if re := kindByWord[words[len(words)-1]]; re != nil {
			return re.Regexp()
		}
	}
	if m := subjectRE.FindStringSubmatch(p.Description); m != nil {
		w := strings.ToLower(m[1])
		if re := kindByWord[w]; re != nil {
			return re.Regexp()
		}
		// A string said to hold a number ("Integer or float to convert.",
		// a Python float | str) takes the number the text writes.
		return numeralRE.Regexp()
	}
	return nil
}

// numeralRE is a number written in digits, with thousands separators.
var numeralRE = lazyregexp.New(`^[-+]?\d[\d,_]*(\.\d+)?$`)

// subjectRE finds a kind word as the subject that opens a description.
var subjectRE = lazyregexp.New(`(?i)^\s*(?:\pL+\s+){0,2}?(version|semver|url|uri|href|email|date|uuid|integer|float|number)(?:\s+(?:to|of|for|that|which|string|in|you|we)\b|\s*[.,;:(]|\s*$)`)

// choicesOf returns the values p allows: the schema's enum, or the quoted
// choices its description lists.
func choicesOf(sk *bundle.Skill, p bundle.Param) []string {
	var out []string
	if enum, ok := propertyOf(sk, p.Name)["enum"].([]any); ok {
		for _, v := range enum {
			if s, ok := v.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	m := choicesRE.FindStringSubmatch(p.Description)
	if m == nil {
		return nil
	}
	for _, c := range choiceRE.FindAllStringSubmatch(m[2], -1) {
		out = append(out, c[1]+c[2])
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// formatWords name output formats a switch may select (--json, --csv).
var formatWords = map[string]bool{"json": true, "csv": true, "tsv": true, "yaml": true, "xml": true, "html": true, "markdown": true, "ndjson": true, "jsonl": true}

// stringList reports whether p is a list of plain strings (not of paths).
func stringList(sk *bundle.Skill, p bundle.Param) bool {
	if p.Type != "array" || p.IsPath() {
		return false
	}
	items, _ := propertyOf(sk, p.Name)["items"].(map[string]any)
	t, _ := items["type"].(string)
	f, _ := items["format"].(string)
	return (t == "string" || t == "") && f != "path"
}

func propertyOf(sk *bundle.Skill, name string) map[string]any {
	props, _ := sk.Params["properties"].(map[string]any)
	prop, _ := props[name].(map[string]any)
	return prop
}

// kindTokens returns the distinct values of p's kind the text holds, in
// the order they come.
func kindTokens(sk *bundle.Skill, p bundle.Param, text string) []string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	toks := tokens(text, "")
	if choices := choicesOf(sk, p); choices != nil {
		for _, t := range toks {
			for _, c := range choices {
				if strings.EqualFold(t.s, c) {
					add(c)
				}
			}
		}
		return out
	}
	re := kindOf(sk, p)
	if re == nil {
		return nil
	}
	for _, t := range toks {
		if re.MatchString(t.s) {
			add(t.s)
		} else if k, _, ok := strings.Cut(t.s, "="); ok && re.MatchString(k) {
			add(k) // KEY=value
		}
	}
	if len(out) == 0 {
		// A pattern may allow spaces ("GB82 WEST 1234 5698 7654 32"): look
		// for it in the running text, between word boundaries.
		for _, v := range phrasesMatching(propertyOf(sk, p.Name), text) {
			add(v)
		}
	}
	return out
}

// phrasesMatching returns the stretches of text, starting and ending at
// word boundaries, that match the pattern property prop declares.
func phrasesMatching(prop map[string]any, text string) []string {
	pat, _ := prop["pattern"].(string)
	pat = strings.TrimPrefix(pat, "^")
	if strings.HasSuffix(pat, "$") && !strings.HasSuffix(pat, `\$`) {
		pat = strings.TrimSuffix(pat, "$")
	}
	if pat == "" {
		return nil
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range re.FindAllStringIndex(text, 20) {
		v := strings.TrimSpace(text[m[0]:m[1]])
		if v == "" || wordAt(text, m[0]-1) || wordAt(text, m[1]) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// wordAt reports whether the byte at i of s belongs to a word.
func wordAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// namedFileRE finds a file name the instruction gives to what it asks for:
// "save it as thumb.png", "a CSV file named compounds.csv", "write the
// result to out.json"; an extension is up to ten letters and digits
// (".msgpack", ".geojson", ".markdown").
var namedFileRE = lazyregexp.New("(?i)\\b(?:as|named|called|to|into)\\s+[\"'“`]?([A-Za-z0-9_][A-Za-z0-9_.-]*\\.[A-Za-z][A-Za-z0-9]{0,9})\\b")

// webSuffixes are domain endings, which a name like example.org has
// rather than a file extension.
var webSuffixes = map[string]bool{"com": true, "org": true, "net": true, "io": true, "dev": true, "edu": true, "gov": true}

// namedOutput returns the one file name the instruction asks its result
// to be saved under, or "" when it names none (or several). Names of the
// attached files are inputs, not outputs.
func namedOutput(text string, files []string) string {
	if !strings.ContainsRune(text, '.') {
		return ""
	}
	name := ""
	for _, m := range namedFileRE.FindAllStringSubmatch(text, 8) {
		n := strings.TrimRight(m[1], ".")
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(n), "."))
		if webSuffixes[ext] || slices.Contains(files, n) || ext == "" {
			continue
		}
		if name != "" && name != n {
			return ""
		}
		name = n
	}
	return safeName(name, "")
}

var (
	ordinalRE = lazyregexp.New(`^(\d+)(?:st|nd|rd|th)$`)
	// indexNames are parameter names that pick one of several things by
	// its position; their description says what things.
	indexNames = map[string]bool{"index": true, "idx": true, "nth": true, "n": true, "num": true, "number": true, "position": true, "pos": true}
)

// bindOrdinals fills an integer parameter that picks a thing by position
// from "the second table" in the text: the parameter is named for the
// thing ("--table 2"), or is an index whose description names it ("index:
// which table, 1-based"). "The last" is left alone: its number depends on
// the input.
func bindOrdinals(sk *bundle.Skill, params []bundle.Param, args map[string]any, text string) {
	toks := tokens(text, "")
	found := map[string][]int{}
	for i := 1; i+1 < len(toks); i++ {
		if toks[i-1].low != "the" {
			continue
		}
		n := slices.Index(vocab.List("ordinal"), toks[i].low) + 1
		ok := n > 0
		if m := ordinalRE.FindStringSubmatch(toks[i].low); m != nil {
			v, _ := strconv.Atoi(m[1])
			n, ok = v, v > 0
		}
		if !ok || n < 1 {
			continue
		}
		noun := toks[i+1]
		var owners []string
		for _, p := range params {
			if _, set := args[p.Name]; set || numberAs(sk, p, 1) == nil || p.IsPath() {
				continue
			}
			named := slices.ContainsFunc(vocab.Words(p.Name), func(w string) bool { return len(w) > 2 && !vocab.Has("count", w) && says(noun, w) })
			if p.Type != "integer" && (!named || p.Required || p.Role != bundle.RoleSetting) {
				continue // a list or text of numbers: an optional setting named for the thing
			}
			described := indexNames[strings.ToLower(p.Name)] && slices.ContainsFunc(tokens(p.Description, ""), func(t token) bool {
				return len(t.low) > 2 && says(noun, t.low)
			})
			if named || described {
				owners = append(owners, p.Name)
			}
		}
		if len(owners) == 1 {
			found[owners[0]] = append(found[owners[0]], n)
		}
	}
	for _, p := range params {
		if vs := found[p.Name]; len(vs) == 1 {
			args[p.Name] = numberAs(sk, p, vs[0])
		}
	}
}

// The vocabulary's sets (internal/vocab), shared with the bundle's role
// derivation and the generator.
func fileWords() map[string]bool    { return vocab.Set("file") }
func sideWords() map[string]bool    { return vocab.Set("side") }
func outWords() map[string]bool     { return vocab.Set("out") }
func textWords() map[string]bool    { return vocab.Set("text") }
func countNames() map[string]bool   { return vocab.Set("count") }
func metaSwitches() map[string]bool { return vocab.Set("meta") }
func formatNames() map[string]bool  { return vocab.Set("format") }
