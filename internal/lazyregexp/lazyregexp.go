package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. It is safe for
// concurrent use, as regexp.Regexp is.
type Regexp struct {
	compile func() *regexp.Regexp
}

// New returns expr as a Regexp. An invalid expr panics on first use, as
// regexp.MustCompile would at start-up, so every expression must be used by
// a test of the package that declares it.
func New(expr string) *Regexp {
	return &Regexp{compile: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp { return r.compile() }

// The methods below are those of regexp.Regexp.

func (r *Regexp) String() string {
	return r.compile().String()
}

func (r *Regexp) Match(b []byte) bool {
	return r.compile().Match(b)
}

func (r *Regexp) MatchString(s string) bool {
	return r.compile().MatchString(s)
}

func (r *Regexp) FindString(s string) string {
	return r.compile().FindString(s)
}

func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.compile().FindStringSubmatch(s)
}

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.compile().FindStringSubmatchIndex(s)
}

func (r *Regexp) FindAllString(s string, n int) []string {
	return r.compile().FindAllString(s, n)
}

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.compile().FindAllStringIndex(s, n)
}

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.compile().FindAllStringSubmatch(s, n)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.compile().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compile().ReplaceAllString(src, repl)
}
