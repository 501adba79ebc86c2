package registry

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// What every store shares about searching: which words of a query count,
// and which of them a search in a large registry matches (the plan).

// queryWords returns the distinct lowercased words of a search text without
// its stop words, and whether the text has nothing else (then words are
// those stop words): "words of a text" must not match every card that says
// "of a".
func queryWords(text string) (words []string, onlyStop bool) {
	all := searchWords(strings.ToLower(text))
	for _, w := range all {
		if !stopWords[w] {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words, onlyStop = all, true
	}
	slices.Sort(words)
	return slices.Compact(words), onlyStop
}

// stopWords are Lucene's English stop words (EnglishAnalyzer's default
// set): function words that say nothing about what an agent does.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by for if in into is it no not of on or
		such that the their then there these they this to was will with`) {
		stopWords[w] = true
	}
}

// searchWords splits text into the letters-and-digits runs the index holds.
func searchWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Common words. Ranking costs a few microseconds for every matching card
// (FTS5's bm25, PostgreSQL's ts_rank alike), so a query of words found in
// thousands of cards would rank them all. In a registry of more than
// exactRankMax cards, a query's words are therefore matched rarest first,
// while the cards they match stay within rankBudget; the more common words
// left are dropped (a word in most cards says little about which one is
// wanted: bm25 gives a word in more than half of them no weight at all).
// When even the rarest word matches more than rankBudget cards, its
// rankBudget most recently registered matches are ranked; but a query made
// only of stop words is not ranked at all: its matches are listed newest
// first, each with score 0. Ranking them would order cards by how often they
// say "the", which is no relevance. Smaller registries always rank every
// match.
const (
	exactRankMax    = 5000
	rankBudget      = 4000
	docFreqTTL      = time.Minute
	docFreqCacheMax = 10000
)

// docFreqs caches how many cards contain each word, and how many cards
// there are; counts are refreshed after docFreqTTL.
type docFreqs struct {
	mu    sync.Mutex
	at    time.Time
	cards int
	df    map[string]int
}

// cardCounter is what the planner asks a store: how many cards there are,
// and how many of them match one word.
type cardCounter interface {
	countCards(ctx context.Context) (int, error)
	countMatches(ctx context.Context, word string) (int, error)
}

// wordPlan is which words a search matches (any of them) and how it ranks
// the matches.
type wordPlan struct {
	words []string
	// candidates is how many of the most recently registered matches are
	// ranked; 0 ranks all.
	candidates int
	// unranked lists the matches newest first with score 0. Such a plan
	// still sets candidates, for a page that continues a ranked one.
	unranked bool
}

// plan returns how to search for words, which are only stop words when
// onlyStop is set, in a store that c counts and whose thresholds are
// exactMax and budget (exactRankMax and rankBudget but in tests).
func (d *docFreqs) plan(ctx context.Context, c cardCounter, exactMax, budget int, words []string, onlyStop bool) (wordPlan, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if time.Since(d.at) > docFreqTTL || len(d.df) > docFreqCacheMax {
		n, err := c.countCards(ctx)
		if err != nil {
			return wordPlan{}, err
		}
		d.cards, d.at, d.df = n, time.Now(), map[string]int{}
	}
	if d.cards <= exactMax {
		return wordPlan{words: words}, nil
	}
	type wdf struct {
		w  string
		df int
	}
	var ws []wdf
	for _, w := range words {
		df, ok := d.df[w]
		if !ok {
			var err error
			if df, err = c.countMatches(ctx, w); err != nil {
				return wordPlan{}, err
			}
			d.df[w] = df
		}
		ws = append(ws, wdf{w, df})
	}
	slices.SortFunc(ws, func(a, b wdf) int { return a.df - b.df })
	if ws[0].df > budget {
		if onlyStop {
			return wordPlan{words: words, candidates: budget, unranked: true}, nil
		}
		return wordPlan{words: []string{ws[0].w}, candidates: budget}, nil
	}
	kept, total := []string{}, 0
	for _, x := range ws {
		if total+x.df > budget {
			break
		}
		kept, total = append(kept, x.w), total+x.df
	}
	return wordPlan{words: kept}, nil
}

// pageOf reads what every store's Find starts from: the page size (the
// default when none is asked), whether the page is ranked (a text query),
// and the position the cursor names, which must come from the same kind
// of query.
func pageOf(q Query) (limit int, ranked bool, c cursor, err error) {
	limit = q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	ranked = strings.TrimSpace(q.Text) != ""
	if q.Cursor != "" {
		if c, err = decodeCursor(q.Cursor); err != nil {
			return 0, false, c, err
		}
		if c.Ranked != ranked {
			return 0, false, c, invalid("query", "cursor belongs to a different query")
		}
	}
	return limit, ranked, c, nil
}
