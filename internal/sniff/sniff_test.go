package sniff

import "testing"

func TestText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, ext string }{
		{"<!doctype html>\n<html><body>x</body></html>", ".html"},
		{`{"valid": true}`, ".json"},
		{"[1, 2]", ".json"},
		{"{not json", ".txt"},
		{"name,price\nCups,12.75\n\"Chair, office\",199\n", ".csv"},
		{"a;b\n1;2\n", ".csv"},
		{"region\tsales\nnorth\t12\n", ".tsv"},
		{"Q3 2024\n\"1,566\"\n\"1,188\"\n", ".csv"},
		{"one line, with a comma", ".txt"},
		{"lines: 7\nwords: 40\n", ".txt"},
		{"Hello, world.\nHow are you today?\nFine, thanks, and you?\n", ".txt"},
		{"Cold brew, at home.\nIt is smooth\n", ".txt"},
	} {
		if ext, _ := Text(tc.text); ext != tc.ext {
			t.Errorf("Text(%q) = %s, want %s", tc.text, ext, tc.ext)
		}
	}
}
