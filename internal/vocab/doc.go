// Package vocab is the one vocabulary by which agentnet reads parameter
// names and descriptions: which words say a parameter takes a file, writes
// one, holds the text to work on, a count, a query, a selector, and which
// words name a kind of file and its media types. The words are data
// (vocab.txt, media.txt, embedded); the bundle package derives parameter
// roles from them, the static generator writes those roles into bundles,
// and the host's rules binder reads the same sets.
//
//	if vocab.Has("out", vocab.Words("output_file")...) { ... }
//	vocab.MediaTypes("A CSV file to read") // ["text/csv"]
package vocab
