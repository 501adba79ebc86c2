// Package skillmatch is the rule matcher of skill texts: whether a generated
// skill offers the capability a ground-truth skill names, read from their
// words alone (labels, the openings of descriptions, parameters, each word
// weighed by how rare it is among the skills compared, a synonym or a
// derived word from internal/lexicon counting for less than the word
// itself, and a skill that does the reverse of the operation — "encode"
// for "decode", WordNet's antonyms — never matching).
//
// It is free of any suite or card format so that scoring (eval) and the
// fleet checks of the audit (a2a/conformance) share one reading:
//
//	same := skillmatch.Pairs(generated, truth, skillmatch.DefaultThreshold)
//	m := skillmatch.Match(generated, truth, skillmatch.DefaultThreshold)
//	skillmatch.Similarity("convert a PDF to text", "extract the text of a PDF")
package skillmatch
