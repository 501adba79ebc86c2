// Package lazyregexp holds package-level regular expressions that are
// compiled the first time they are used rather than while the program
// starts.
//
// Every agentnet command runs the package initialisers of the whole binary,
// and each "agentnet serve" of a fleet runs them again. A package-level
// regexp.MustCompile costs compile time and heap that stays resident for the
// life of the process even when the command never matches anything with it;
// a Regexp from New costs a few words until its first use.
//
//	var wordRE = lazyregexp.New(`[A-Za-z]+`)
//
//	func words(s string) []string { return wordRE.FindAllString(s, -1) }
//
// The methods are those of [regexp.Regexp] that agentnet uses; Regexp
// returns the compiled expression for the rest.
package lazyregexp
