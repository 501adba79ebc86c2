package bm25

import (
	"slices"
	"testing"
)

func TestRank(t *testing.T) {
	t.Parallel()
	docs := []string{
		"Word frequency. Count word frequencies in a text and list the most common words. text statistics",
		"HTML to text. Extract the readable text of an HTML page. html",
		"Molar mass. Compute the molar mass of a chemical formula. chemistry",
	}
	idx := New(docs)
	tests := []struct {
		query string
		want  int
	}{
		{"Which words occur most often in this file?", 0},
		{"Extract the readable text of the HTML page", 1},
		{"What is the molar mass of C6H12O6?", 2},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			got := idx.Rank(tc.query)
			if got[0].Doc != tc.want || got[0].Score <= got[1].Score {
				t.Errorf("Rank(%q) = %v, want doc %d strictly first", tc.query, got, tc.want)
			}
		})
	}
}

func TestTokenize(t *testing.T) {
	t.Parallel()
	got := Tokenize("Counting the Words, in files!")
	if want := []string{"count", "word", "file"}; !slices.Equal(got, want) {
		t.Errorf("Tokenize() = %q, want %q", got, want)
	}
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	if got := New(nil).Rank("x"); len(got) != 0 {
		t.Errorf("Rank on empty index = %v, want none", got)
	}
}

func TestQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Count the words.", "Count the words."},
		{"A customer typed it into our form. Is it valid? If not, why not?", "A customer typed it into our form. Is it valid? If not, why not?\n Is it valid?  If not, why not?"},
	} {
		if got := Query(tc.in); got != tc.want {
			t.Errorf("Query(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
