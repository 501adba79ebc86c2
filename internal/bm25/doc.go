// Package bm25 ranks short documents against a query with Okapi BM25. The
// host uses it to pick a skill for a message; routers and the registry's
// search rank cards with it.
//
//	idx := bm25.New([]string{"count words in text", "convert html to text"})
//	for _, r := range idx.Rank("which words are most frequent") {
//		fmt.Println(r.Doc, r.Score) // 0 1.2...
//	}
package bm25
