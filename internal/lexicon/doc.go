// Package lexicon says which English words are synonyms: words that share
// a WordNet 3.0 synset (nouns, verbs and adjectives) among the common
// senses of one of them — "extract" and "pull", "picture" and "image",
// "convert" and "transform". Words are compared by their Snowball stems,
// as bm25.Stem gives them, so "extracts" and "pulling" are related too.
// It also says which words WordNet derives one from the other ("describe"
// and "description": Derived) and which it gives as opposites ("encode"
// and "decode": Antonyms).
//
// The tables are embedded (wordnet.txt.gz, derived.txt.gz and
// antonyms.txt.gz, WordNet's license beside them in LICENSE-WordNet) and
// each read on first use; they are built from Debian's wordnet-base
// package by go generate (internal/mklexicon).
//
//	lexicon.Related("extract", "pull")                  // true
//	lexicon.RelatedStems(bm25.Stem("images"), "pictur") // true
//	lexicon.Synonyms("extract")                         // [pull ...]
//	lexicon.Derived("describ")                          // [descript ...]
//	lexicon.Antonyms("encod")                           // [decod]
package lexicon
