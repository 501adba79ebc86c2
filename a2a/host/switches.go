package host

import (
	"slices"
	"strings"
	"sync"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/vocab"
)

// bindSwitches sets an optional switch the text names by its own words:
// "--aggressive" for "fix it aggressively", "--dry-run" for "a dry run",
// "--decrypt" for "decrypt this"; a one-letter switch by its help's key
// words; any switch whose help the text restates ("each line is a
// separate JSON object" for "treat each line of input as a separate JSON
// object"). Not after a negation ("without a diff"), never the switches
// that change how a tool talks rather than what it does (--verbose,
// --color, --version), and never a switch named for a data format, which
// the formats step sets only when that format is asked for.
func bindSwitches(sk *bundle.Skill, params []bundle.Param, args map[string]any, text string) {
	w := newReadWords(text)
	keys, owners := letterKeys(sk, params)
	helps := helpWords(sk, params)
	said := helpOwners(helps)
	for _, p := range params {
		if _, ok := args[p.Name]; ok || p.Type != "boolean" || formatWords[strings.ToLower(p.Name)] {
			continue
		}
		switch {
		case len(keys[p.Name]) > 0:
			if w.namesKey(keys[p.Name], owners) {
				args[p.Name] = true
			}
		case w.namesSwitch(p.Name), w.restates(helps[p.Name], said, p.Name):
			args[p.Name] = true
		}
	}
	if p := reverseSwitch(params, args); p != "" && reversed(sk.Description, unnegated(text)) {
		args[p] = true
	}
}

// reverseSwitch is the one unset switch whose help says it runs the
// operation the other way ("Reverse the operation", "turn it back into
// JSON"), or "".
func reverseSwitch(params []bundle.Param, args map[string]any) string {
	found := ""
	for _, p := range params {
		if _, ok := args[p.Name]; ok || p.Type != "boolean" {
			continue
		}
		if hasAny(vocab.Words(p.Description), vocab.Set("reverse")) {
			if found != "" {
				return ""
			}
			found = p.Name
		}
	}
	return found
}

// reversed reports whether text asks for the skill's operation the other
// way round: what the description says the tool turns things into, the
// text works from, and neither what goes in nor what comes out is the
// same ("Transform JSON into assignments" against "rebuild the
// JSON from these assignments" or "turn these assignments into JSON").
func reversed(desc, text string) bool {
	dsrc, ddst := sides(desc, false)
	tsrc, tdst := sides(text, true)
	if len(ddst) == 0 || len(tdst) == 0 {
		return false
	}
	return shares(tsrc, ddst) && !shares(tsrc, dsrc) && !shares(tdst, ddst)
}

// sides splits text's stemmed content words at its first word that turns
// from what goes in to what comes out ("into", "to", "as"), or, with from,
// at "from" the other way round: what comes out, then what goes in.
func sides(text string, from bool) (src, dst []string) {
	words := bm25.Tokenize(text)
	raw := strings.Fields(strings.ToLower(text))
	for i, f := range raw {
		f = strings.Trim(f, ".,;:!?\"'()")
		switch {
		case vocab.Has("yields", f):
			return bm25.Tokenize(strings.Join(raw[:i], " ")), bm25.Tokenize(strings.Join(raw[i+1:], " "))
		case from && f == "from":
			return bm25.Tokenize(strings.Join(raw[i+1:], " ")), bm25.Tokenize(strings.Join(raw[:i], " "))
		}
	}
	return words, nil
}

func shares(a, b []string) bool {
	return slices.ContainsFunc(a, func(x string) bool { return slices.Contains(b, x) })
}

// readWords are the instruction's words as the switch rules read them.
type readWords struct {
	toks    []token
	stems   []string
	negated []bool // in a clause after a negation ("without treating each line as …")
}

func newReadWords(text string) readWords {
	var w readWords
	neg := false
	for _, f := range strings.Fields(text) {
		for _, t := range tokens(f, "-_/") {
			w.toks = append(w.toks, t)
			w.stems = append(w.stems, bm25.Stem(t.low))
			w.negated = append(w.negated, neg)
			neg = neg || negations[t.low]
		}
		if clauseEnd(f) != 0 {
			neg = false
		}
	}
	return w
}

// unnegated is text less its negations and the rest of their clauses
// ("Without decrypting it, what key …?" is "what key …?"); the clauses'
// ends stay.
func unnegated(text string) string {
	var b strings.Builder
	neg := false
	for _, f := range strings.Fields(text) {
		toks := tokens(f, "")
		starts := len(toks) > 0 && negations[toks[0].low]
		neg = neg || starts
		end := clauseEnd(f)
		switch {
		case !neg:
			b.WriteString(f + " ")
		case end != 0:
			b.WriteString(string(end) + " ")
		}
		if end != 0 {
			neg = false
		}
	}
	return strings.TrimSpace(b.String())
}

// clauseEnd is the punctuation that ends a clause at the end of word f
// (past closing quotes and brackets), or 0.
func clauseEnd(f string) byte {
	if end := strings.TrimRight(f, "\"'”’)]}"); end != "" && strings.ContainsRune(",;:.!?", rune(end[len(end)-1])) {
		return end[len(end)-1]
	}
	return 0
}

// negatedAt reports whether word i follows a negation closely.
func (w readWords) negatedAt(i int) bool {
	for _, t := range w.toks[max(0, i-3):i] {
		if negations[t.low] {
			return true
		}
	}
	return false
}

// namesKey: a word of the text is one of a one-letter switch's key words
// that no other switch's help shares.
func (w readWords) namesKey(keys []string, owners map[string]int) bool {
	for i, st := range w.stems {
		if slices.Contains(keys, st) && owners[st] == 1 && !w.negatedAt(i) && !metaSwitches()[w.toks[i].low] {
			return true
		}
	}
	return false
}

// namesSwitch: the text says the switch's name, word for word.
func (w readWords) namesSwitch(name string) bool {
	words := vocab.Words(name)
	if len(words) == 0 || len(strings.Join(words, "")) < 2 || hasAny(words, metaSwitches()) || words[0] == "no" || words[0] == "not" {
		return false
	}
	want := make([]string, len(words))
	for i, x := range words {
		want[i] = bm25.Stem(x)
	}
	for i := 0; i+len(want) <= len(w.stems); i++ {
		if slices.Equal(w.stems[i:i+len(want)], want) && !w.negatedAt(i) && !oneOf(words, w.toks[i+len(want)-1].low) {
			return true
		}
	}
	return false
}

// oneOf reports whether the text's word t says one of what a switch named
// for many ("--values", "--keys") is about: "one line per value" asks for
// no --values.
func oneOf(words []string, t string) bool {
	last := words[len(words)-1]
	return len(last) > 3 && strings.HasSuffix(last, "s") && t == strings.TrimSuffix(last, "s")
}

// restates: the text says at least three of the words of the switch's
// help, at least half of them, one of them said by no other switch's help.
func (w readWords) restates(help []string, owners map[string]int, name string) bool {
	if len(help) < 3 || hasAny(vocab.Words(name), metaSwitches()) {
		return false
	}
	said, own := 0, false
	for _, h := range help {
		for i, st := range w.stems {
			if st == h && !w.negated[i] {
				said++
				own = own || owners[h] == 1
				break
			}
		}
	}
	return said >= 3 && 2*said >= len(help) && own
}

// letterKeys are the key words of each one-letter switch's help (Go's
// "-d display diffs instead of rewriting files" is named by "show me the
// diff"), and how many switches' help says each: a word two share names
// neither, and the tool's own name names none.
func letterKeys(sk *bundle.Skill, params []bundle.Param) (map[string][]string, map[string]int) {
	keys := map[string][]string{}
	owners := map[string]int{}
	for _, w := range bm25.Tokenize(sk.ID + " " + sk.Name) {
		owners[w] = 2
	}
	for _, p := range params {
		if p.Type == "boolean" && len(p.Name) == 1 {
			keys[p.Name] = keyWords(p.Description)
			for _, k := range keys[p.Name] {
				owners[k]++
			}
		}
	}
	return keys, owners
}

// helpWords are the key words of every switch's help, less the words of
// the tool's own name.
func helpWords(sk *bundle.Skill, params []bundle.Param) map[string][]string {
	own := bm25.Tokenize(sk.ID + " " + sk.Name)
	out := map[string][]string{}
	for _, p := range params {
		if p.Type == "boolean" {
			out[p.Name] = slices.DeleteFunc(keyWords(p.Description), func(k string) bool { return slices.Contains(own, k) })
		}
	}
	return out
}

// helpOwners counts the switches whose help says each key word.
func helpOwners(helps map[string][]string) map[string]int {
	n := map[string]int{}
	for _, ks := range helps {
		for _, k := range ks {
			n[k]++
		}
	}
	return n
}

// keyWords are the distinct stemmed words of a switch's help that say what
// it is about, not how it acts.
func keyWords(help string) []string {
	var out []string
	for _, w := range bm25.Tokenize(help) {
		if !genericSwitchWords()[w] && len(w) >= 3 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// genericSwitchWords (stemmed) say how a switch acts, not what it is
// about: "display", "print", "file", "instead", "output".
var genericSwitchWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`display print write output result results file files instead source stdout stdin standard
		input enable disable use set default mode only also just when whether will would rather than from into
		format line lines each every one more less name names value values true false flag option options run
		report show list print`) {
		m[bm25.Stem(w)] = true
	}
	return m
})
