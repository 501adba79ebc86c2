// Package lexicon says which English words are synonyms: words that share
// a WordNet 3.0 synset (nouns, verbs and adjectives) among the common
// senses of one of them — "extract" and "pull", "picture" and "image",
// "convert" and "transform". Words are compared by their Snowball stems,
// as bm25.Stem gives them, so "extracts" and "pulling" are related too.
//
// The table is embedded (wordnet.txt.gz, WordNet's license beside it in
// LICENSE-WordNet) and read on first use; it is built from Debian's
// wordnet-base package by go generate (internal/mklexicon).
//
//	lexicon.Related("extract", "pull")                  // true
//	lexicon.RelatedStems(bm25.Stem("images"), "pictur") // true
//	lexicon.Synonyms("extract")                         // [pull ...]
package lexicon
