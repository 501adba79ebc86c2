package skillmatch

import (
	"math"
	"strings"
	"sync"
	"unicode"

	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/lexicon"
)

// DefaultThreshold is the similarity from which a generated skill and a
// ground-truth skill are taken to describe the same capability, when the
// pair also stands out among the repo's pairs (see decide).
//
// It and the constants below were chosen on the tune split of the labeled
// pairs in eval/testdata/match (see eval/match_calib_test.go and
// BENCHMARKS.md).
const DefaultThreshold = 0.25

const (
	// colShare: a ground-truth skill matches only the generated skills
	// within this share of the similarity of its most similar one — many
	// subcommands may offer one capability, but not the ones that merely
	// share its domain's words.
	colShare = 0.6
	// rowShare: likewise, a generated skill matches only the ground-truth
	// skills within this share of its most similar one; lower than colShare
	// because one program often offers several annotated capabilities.
	rowShare = 0.55
	// The weights of the two label readings and the parameter reading
	// against the description's Dice coefficient (pairReading.score): a
	// label hit is strong evidence only when its words are rare in the
	// repo, which the idf weighing says; a parameter offers a part of what
	// its program does.
	nameInWeight  = 0.5
	truthInWeight = 0.5
	paramWeight   = 0.5
	// soleShare: the share of the threshold a repo's only generated skill
	// needs (see decide).
	soleShare = 0.5
	// SynonymWeight is the credit a word earns where the other text holds
	// a synonym of it rather than the word ("extract" and "pull", "picture"
	// and "image"), against 1 for the word itself: a synonym says less, as
	// a word has senses the other's context may not mean.
	SynonymWeight = 0.35
)

// Skill is what the matcher reads of a skill. Of a ground-truth skill it
// reads the id and description only: the annotation names a capability, it
// has no program name or parameters.
type Skill struct {
	ID          string
	Name        string
	Description string
	// Params are the skill's parameters, each "name: description" (or the
	// name alone): one program's parameters often offer several capabilities.
	Params []string
}

// Result is the outcome of matching generated skills against a repo's
// ground truth.
type Result struct {
	Precision float64 // share of generated skills some ground-truth skill supports, 0–1
	Recall    float64 // share of ground-truth skills some generated skill covers, 0–1
	// Supported[i] is the ground-truth id that best supports generated skill i ("" when none).
	Supported []string
	// Covered maps each ground-truth id to the generated skill id that best covers it ("" when none).
	Covered map[string]string
}

// Similarity is the rule matcher's normalised lexical similarity of two
// texts: the Dice coefficient of their sets of normalised content words
// (lower-cased, function words dropped, Snowball stemming — BM25 routing's
// normalisation, less its dropping of request verbs: see tokenize), in 0–1. Match weighs the words by how rare they
// are among the skills compared and credits synonyms; Similarity weighs
// them equally and compares exact words.
func Similarity(a, b string) float64 { return weightedDice(wordSet(a), wordSet(b), nil) }

// weightedDice is 2·w(A∩B)/(w(A)+w(B)), with weight 1 for words missing
// from idf: words compared exactly (see words.dice).
func weightedDice(a, b map[string]bool, idf map[string]float64) float64 {
	return (&words{idf: idf}).dice(a, b)
}

// words weighs and compares the words of one repo's skills: each word by
// its idf (1 when missing), a word of one text that the other lacks but
// holds a synonym of (lexicon.RelatedStems) at syn of its weight.
type words struct {
	idf map[string]float64
	syn float64
	// syns: each word's synonyms among the repo's words, and the words
	// derived from it or it from (lexicon.Derived: "describ" and
	// "descript", the verb and its noun, whose stems differ).
	syns map[string][]string
	// opposite: each word's antonyms among the repo's words
	// (lexicon.Antonyms): "encod" of "decod".
	opposite map[string][]string
}

// newWords returns the weigher of a repo whose skills' words are sets.
func newWords(sets []map[string]bool, syn float64) *words {
	ws := &words{idf: idfOver(sets), syn: syn}
	ws.opposite = ws.among(lexicon.Antonyms)
	if syn == 0 {
		return ws
	}
	ws.syns = ws.among(func(w string) []string {
		return append(lexicon.Synonyms(w), lexicon.Derived(w)...)
	})
	return ws
}

// among returns, for each word of the repo, the words of the repo that
// related lists.
func (ws *words) among(related func(string) []string) map[string][]string {
	out := map[string][]string{}
	for w := range ws.idf {
		for _, v := range related(w) {
			if _, ok := ws.idf[v]; ok {
				out[w] = append(out[w], v)
			}
		}
	}
	return out
}

func (ws *words) weight(t string) float64 {
	if v, ok := ws.idf[t]; ok {
		return v
	}
	return 1
}

// dice is the weighted Dice coefficient of a and b with synonyms credited:
// the credited weights of the words of each found in the other, over the
// weights of both. With exact words alone it is 2·w(A∩B)/(w(A)+w(B)).
func (ws *words) dice(a, b map[string]bool) float64 {
	var found, total float64
	for t := range a {
		total += ws.weight(t)
		found += ws.weight(t) * ws.credit(t, b)
	}
	for t := range b {
		total += ws.weight(t)
		found += ws.weight(t) * ws.credit(t, a)
	}
	if total == 0 {
		return 0
	}
	return found / total
}

// credit is how far set holds w: 1 when it holds w itself, syn when it
// holds a synonym of w, else 0.
func (ws *words) credit(w string, set map[string]bool) float64 {
	if set[w] {
		return 1
	}
	if ws.syn == 0 {
		return 0
	}
	for _, v := range ws.syns[w] {
		if set[v] {
			return ws.syn
		}
	}
	return 0
}

// idfOver returns ln(1 + N/df) for every word of the texts: words that every
// skill of a repo shares ("mass", "formula" in a chemistry tool) say little
// about which skill is which.
func idfOver(sets []map[string]bool) map[string]float64 {
	df := map[string]int{}
	for _, s := range sets {
		for t := range s {
			df[t]++
		}
	}
	idf := make(map[string]float64, len(df))
	for t, n := range df {
		idf[t] = math.Log(1 + float64(len(sets))/float64(n))
	}
	return idf
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range tokenize(s) {
		m[t] = true
	}
	return m
}

// maxViews bounds the sentences of a description read as separate views.
const maxViews = 6

// views returns the word sets a skill is compared by: its label alone
// (id and name), then the label with the first sentence of its
// description, the first two, and so on to the whole. A description says
// what the skill does first and adds details after; the details must not
// cost a skill the match its opening sentences earn, and a detail alone
// never makes one.
func views(label, desc string) []map[string]bool {
	out := []map[string]bool{wordSet(label)}
	sents := sentences(desc)
	if len(sents) > maxViews {
		sents = append(sents[:maxViews-1], strings.Join(sents[maxViews-1:], " "))
	}
	text := label
	for _, s := range sents {
		text += " " + s
		out = append(out, wordSet(text))
	}
	if len(sents) == 0 {
		out = append(out, out[0])
	}
	return out
}

// sentenceEnd is a full stop, question or exclamation mark followed by
// space and a capital letter or digit: "... per cluster. Lines whose ...".
var sentenceEnd = lazyregexp.New(`[.!?]["')\]]?(\s+)[\p{Lu}\d]`)

// sentences splits s at its sentence ends; the stop after a single letter
// ("e.g. 4:3", "J. Smith") is an abbreviation, not an end.
func sentences(s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	var out []string
	from := 0
	for from < len(s) {
		loc := sentenceEnd.FindStringSubmatchIndex(s[from:])
		if loc == nil {
			break
		}
		stop, next := from+loc[2], from+loc[3]
		word := s[:from+loc[0]]
		if i := strings.LastIndexAny(word, " ."); i >= 0 {
			word = word[i+1:]
		}
		if s[from+loc[0]] == '.' && len([]rune(word)) == 1 {
			from = next
			continue
		}
		out = append(out, s[:stop])
		s, from = s[next:], 0
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// Match matches generated skills against ground truth with the rule
// matcher (Pairs) and derives precision and recall from its pairs:
// each generated skill is supported by the ground-truth skill it is most
// similar to among its pairs, each ground-truth skill covered by the most
// similar generated skill among its pairs. With no generated skills
// precision is 0; with no ground truth recall is 0.
func Match(generated, truth []Skill, threshold float64) Result {
	rs := readings(generated, truth, SynonymWeight)
	sims := scores(rs)
	same := decide(rs, threshold)
	m := Result{Supported: make([]string, len(generated)), Covered: map[string]string{}}
	best := make([]float64, len(truth))
	supported, covered := 0, 0
	for i, g := range generated {
		top := -1.0
		for j, t := range truth {
			if !same[i][j] {
				continue
			}
			if sims[i][j] > top {
				top, m.Supported[i] = sims[i][j], t.ID
			}
			if sims[i][j] > best[j] || m.Covered[t.ID] == "" {
				best[j], m.Covered[t.ID] = sims[i][j], g.ID
			}
		}
		if m.Supported[i] != "" {
			supported++
		}
	}
	for _, t := range truth {
		if m.Covered[t.ID] != "" {
			covered++
		} else {
			m.Covered[t.ID] = ""
		}
	}
	if len(generated) > 0 {
		m.Precision = float64(supported) / float64(len(generated))
	}
	if len(truth) > 0 {
		m.Recall = float64(covered) / float64(len(truth))
	}
	return m
}

// Pairs is the rule matcher's decision for every pair of a repo's
// skills: same[i][j] reports whether generated skill i offers the
// capability of ground-truth skill j. The decision reads the whole repo
// (how rare each word is among its skills, which pairs compete), so it is
// made per repo, never per pair alone.
func Pairs(generated, truth []Skill, threshold float64) [][]bool {
	return PairsWeighing(generated, truth, threshold, SynonymWeight)
}

// PairsWeighing is Pairs with synonyms (lexicon.RelatedStems) credited at
// syn of an exact word's weight; 0 compares exact words alone, as the
// matcher did before it read synonyms (the calibration reports both).
func PairsWeighing(generated, truth []Skill, threshold, syn float64) [][]bool {
	return decide(readings(generated, truth, syn), threshold)
}

// readings returns the evidence that each pair's texts are one
// capability (see pairReading), words weighed by how rare they are among
// the repo's skills.
func readings(generated, truth []Skill, syn float64) [][]pairReading {
	gs, ts := make([]readSkill, len(generated)), make([]readSkill, len(truth))
	for i, g := range generated {
		gs[i] = readGenerated(g)
	}
	dropProgramName(gs)
	var all []map[string]bool
	for _, g := range gs {
		all = append(all, g.all)
	}
	for j, t := range truth {
		ts[j] = readTruth(t)
		all = append(all, ts[j].all)
	}
	ws := newWords(all, syn)
	idfCap := math.Log(1 + float64(len(all))/2) // the idf of a word two skills share
	rs := make([][]pairReading, len(generated))
	for i := range generated {
		rs[i] = make([]pairReading, len(truth))
		for j := range truth {
			rs[i][j] = readPair(gs[i], ts[j], ws, idfCap)
		}
	}
	return rs
}

// scores returns every reading's score, in 0–1: how strongly the pair's
// texts say they are one capability.
func scores(rs [][]pairReading) [][]float64 {
	sims := make([][]float64, len(rs))
	for i := range rs {
		sims[i] = make([]float64, len(rs[i]))
		for j := range rs[i] {
			sims[i][j] = rs[i][j].score()
		}
	}
	return sims
}

// readSkill is what the matcher reads of one skill.
type readSkill struct {
	label  map[string]bool   // the words of its id and name: a concise label of the capability
	views  []map[string]bool // see views
	params map[string]bool   // the words of its parameters' names and descriptions
	// paramViews are the words of each parameter's name and description:
	// one program's parameters often offer several capabilities.
	paramViews []map[string]bool
	all        map[string]bool // every word above
	// modes are the one-word names of its described parameters: a
	// program's modes ("encrypt: Encrypt the input to the output").
	modes map[string]bool
	// verb is a ground-truth skill's operation: the first word of its
	// description, which an annotation opens with ("Encrypt a file for...").
	verb string
}

func readGenerated(g Skill) readSkill {
	r := readSkill{label: identWords(g.ID + " " + g.Name), views: views(g.ID+" "+g.Name, g.Description), params: map[string]bool{}}
	for _, p := range g.Params {
		pv := identWords(p)
		for w := range pv {
			r.params[w] = true
		}
		r.paramViews = append(r.paramViews, pv)
		if m, ok := modeOf(p); ok {
			if r.modes == nil {
				r.modes = map[string]bool{}
			}
			r.modes[m] = true
		}
	}
	r.all = union(r.label, r.views[len(r.views)-1], r.params)
	return r
}

// modeOf returns the word a parameter ("name: description") names, when
// its name is one word and it has a description: a mode of its program.
func modeOf(param string) (string, bool) {
	name, desc, _ := strings.Cut(param, ":")
	if nw := tokenize(name); len(nw) == 1 && strings.TrimSpace(desc) != "" {
		return nw[0], true
	}
	return "", false
}

func readTruth(t Skill) readSkill {
	r := readSkill{label: identWords(t.ID), views: views(t.ID, t.Description), params: map[string]bool{}}
	r.all = union(r.label, r.views[len(r.views)-1])
	if ws := tokenize(t.Description); len(ws) > 0 {
		r.verb = ws[0]
	}
	return r
}

// pairReading is the evidence that two skills are one capability, each
// reading in 0–1.
type pairReading struct {
	// dice: the closest views' weighted Dice coefficient (label against
	// label, or the openings of the descriptions).
	dice float64
	// nameIn: the share of the generated skill's label found in the
	// ground-truth skill's text — a subcommand named "blend multiply"
	// offers "blend two images with a mode such as multiply".
	nameIn float64
	// truthIn: the share of the ground-truth skill's label found anywhere
	// in the generated skill, parameters included — one program whose
	// "increment" parameter offers "version-increment".
	truthIn float64
	// param: the closest parameter's weighted Dice coefficient against
	// the ground-truth skill's label or opening.
	param float64
	// reversed: the generated skill does the reverse of the ground-truth
	// skill (see words.reversed).
	reversed bool
	// mode: one of the generated skill's described parameters is named by
	// the ground-truth skill's operation (readSkill.verb).
	mode bool
}

func (p pairReading) score() float64 {
	if p.reversed {
		return 0
	}
	return max(p.dice, nameInWeight*p.nameIn, truthInWeight*p.truthIn, paramWeight*p.param)
}

func readPair(g, t readSkill, ws *words, idfCap float64) pairReading {
	p := pairReading{dice: ws.dice(g.views[0], t.views[0])}
	for _, gv := range g.views[1:] {
		for _, tv := range t.views[1:] {
			p.dice = max(p.dice, ws.dice(gv, tv))
		}
	}
	for _, pv := range g.paramViews {
		for _, tv := range t.views[:2] {
			p.param = max(p.param, ws.dice(pv, tv))
		}
	}
	p.reversed = ws.reversed(g, t)
	p.mode = t.verb != "" && g.modes[t.verb]
	p.nameIn = ws.share(g.label, t.all, idfCap)
	p.truthIn = ws.share(t.label, g.all, idfCap)
	return p
}

// reversed reports whether the generated skill g does the reverse of the
// ground-truth skill t: t's label names an operation ("msgpack-decode")
// whose opposite (lexicon.Antonyms: "encode") g's label or opening
// sentence names, while nothing of g names the operation itself and t's
// opening does not name the opposite. Texts that name an operation and its
// reverse share most of their other words (the format, the data), so the
// evidence of those words must not make "encode" serve a request to
// "decode"; a program whose texts name both directions offers both.
func (ws *words) reversed(g, t readSkill) bool {
	for a := range t.label {
		if g.all[a] {
			continue
		}
		for _, b := range ws.opposite[a] {
			if g.views[1][b] && !t.views[1][b] {
				return true
			}
		}
	}
	return false
}

// share is how much of a is found in b, in 0–1: the idf weights of
// the words of a that b holds, over top (the idf of a word only two skills
// share, the strongest evidence a shared word gives) for each word of a. A
// hit on words every skill of the repo uses ("image", "table") counts
// little. A word counts as found when b holds it, or a word it is a
// prefix of or that is a prefix of it, of at least minPrefix letters:
// "spark" and "sparkline"; failing that, a synonym of it counts at syn.
func (ws *words) share(a, b map[string]bool, top float64) float64 {
	var found, total float64
	for w := range a {
		total += top
		if hasWord(b, w) {
			found += ws.weight(w)
		} else {
			found += ws.weight(w) * ws.credit(w, b)
		}
	}
	if total == 0 {
		return 0
	}
	return min(1, found/total)
}

// minPrefix is the shortest shared beginning that makes two words one.
const minPrefix = 5

func hasWord(set map[string]bool, w string) bool {
	if set[w] {
		return true
	}
	if len(w) < minPrefix {
		return false
	}
	for v := range set {
		if len(v) >= minPrefix && (strings.HasPrefix(v, w) || strings.HasPrefix(w, v)) {
			return true
		}
	}
	return false
}

func union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for w := range s {
			out[w] = true
		}
	}
	return out
}

// identWords reads identifiers as words: "toDatetime" is "to Datetime",
// "html2markdown" is "html 2 markdown" (but "x509" and "mp3" stay whole).
func identWords(s string) map[string]bool {
	s = camelCase.ReplaceAllString(s, "$1 $2")
	s = digitJoin.ReplaceAllString(s, "$1 $2 $3")
	return wordSet(s)
}

var (
	camelCase = lazyregexp.New(`(\p{Ll})(\p{Lu})`)
	digitJoin = lazyregexp.New(`(\pL{2,})(\d+)(\pL{2,})`)
)

// decide turns readings into pairs. A ground-truth skill matches the
// generated skills that reach threshold and are within colShare of its
// most similar one, when the pair is also within rowShare of the generated
// skill's most similar ground-truth skill — or when one of the skill's
// parameters alone says the capability: a parameter is a capability of
// its own, which the program's main one does not outshine. A repo's only
// generated skill needs soleShare of threshold: no other skill competes
// for the capabilities, and the repo's annotated capabilities are what its
// one entry point offers unless the texts say little of them. So does a
// skill with a mode for the capability, whatever its rivals: a described
// parameter named by the operation the ground-truth description opens
// with ("encrypt: Encrypt the input" for "Encrypt a file for recipients'
// keys", "list: Lists the tags" for "List the metadata tags") is an entry
// point of its own for it.
func decide(rs [][]pairReading, threshold float64) [][]bool {
	sims := scores(rs)
	same := make([][]bool, len(sims))
	for i := range sims {
		same[i] = make([]bool, len(sims[i]))
	}
	if len(sims) == 0 {
		return same
	}
	rowTop := make([]float64, len(sims))
	for i := range sims {
		for _, s := range sims[i] {
			rowTop[i] = max(rowTop[i], s)
		}
	}
	th := threshold
	if len(sims) == 1 {
		th *= soleShare
	}
	for j := range sims[0] {
		top := 0.0
		for i := range sims {
			top = max(top, sims[i][j])
		}
		for i := range sims {
			s := sims[i][j]
			same[i][j] = s >= th && s >= colShare*top &&
				(s >= rowShare*rowTop[i] || paramWeight*rs[i][j].param >= threshold) ||
				rs[i][j].mode && s >= soleShare*threshold
		}
	}
	return same
}

// tokenize lower-cases s, splits it on anything but letters and digits,
// drops function words and one-letter tokens and stems the rest, like
// BM25 routing (bm25.Tokenize) — except that the verbs a request opens
// with and routing drops ("list", "show", "find") are kept: in a skill's
// text they name what it does.
func tokenize(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(f) < 2 || functionWord()[f] {
			continue
		}
		out = append(out, bm25.Stem(f))
	}
	return out
}

// functionWord holds the English function words tokenize drops (BM25
// routing's stop words less the request verbs).
var functionWord = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by can do does for from has have how i in into is it
	its me my of on or our please that the their them then there these this those to us was we what when
	which who will with you your all any each some`) {
		m[w] = true
	}
	return m
})

// dropProgramName removes from the generated skills' labels and views the
// words every label shares — the program's name of a command's
// subcommands ("sqlite-utils insert", "sqlite-utils query"): they say
// nothing of which capability a skill offers, yet in a two-word label they
// weigh as much as the subcommand, and a ground-truth text that names the
// tool's domain ("a SQLite database") meets them in every skill. A lone
// skill keeps its name: it is all its label says.
func dropProgramName(gs []readSkill) {
	if len(gs) < 2 {
		return
	}
	common := map[string]bool{}
	for w := range gs[0].label {
		common[w] = true
	}
	for _, g := range gs[1:] {
		for w := range common {
			if !g.label[w] {
				delete(common, w)
			}
		}
	}
	if len(common) == 0 {
		return
	}
	for i := range gs {
		gs[i].label = minus(gs[i].label, common)
		for k := range gs[i].views {
			gs[i].views[k] = minus(gs[i].views[k], common)
		}
	}
}

func minus(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for w := range a {
		if !b[w] {
			out[w] = true
		}
	}
	return out
}
