package lazyregexp

import (
	"regexp"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewDefersCompiling(t *testing.T) {
	t.Parallel()
	re := New(`(unclosed`) // would panic here if compiled eagerly
	defer func() {
		if recover() == nil {
			t.Errorf("MatchString on an invalid expression did not panic")
		}
	}()
	re.MatchString("x")
}

func TestMethodsMatchRegexp(t *testing.T) {
	t.Parallel()
	const expr, s = `(\w+)=(\d+)`, "a=1, bb=22; c=x"
	lz, re := New(expr), regexp.MustCompile(expr)
	got := []any{
		lz.String(), lz.Match([]byte(s)), lz.MatchString(s), lz.FindString(s),
		lz.FindStringSubmatch(s), lz.FindStringSubmatchIndex(s),
		lz.FindAllString(s, -1), lz.FindAllStringIndex(s, -1),
		lz.FindAllStringSubmatch(s, -1), lz.FindAllStringSubmatchIndex(s, 1),
		lz.ReplaceAllString(s, "$2=$1"), lz.Regexp().NumSubexp(),
	}
	want := []any{
		re.String(), re.Match([]byte(s)), re.MatchString(s), re.FindString(s),
		re.FindStringSubmatch(s), re.FindStringSubmatchIndex(s),
		re.FindAllString(s, -1), re.FindAllStringIndex(s, -1),
		re.FindAllStringSubmatch(s, -1), re.FindAllStringSubmatchIndex(s, 1),
		re.ReplaceAllString(s, "$2=$1"), re.NumSubexp(),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lazy results differ from regexp's (-want +got):\n%s", diff)
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	t.Parallel()
	re := New(`^\d+$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !re.MatchString("123") || re.MatchString("12a") {
				t.Errorf("MatchString gave a wrong answer")
			}
		})
	}
	wg.Wait()
}
