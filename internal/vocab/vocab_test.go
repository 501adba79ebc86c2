package vocab

import (
	"mime"
	"slices"
	"testing"
)

func TestSetsParse(t *testing.T) {
	for _, name := range []string{"file", "side", "out", "text", "count", "query", "selector", "meta", "format"} {
		if len(Set(name)) == 0 {
			t.Errorf("set %q is missing or empty", name)
		}
	}
	if !Has("out", Words("--output-file")...) || Has("out", Words("input_file")...) {
		t.Error("Has/Words disagree with vocab.txt")
	}
}

func TestMediaTypesParse(t *testing.T) {
	for _, w := range MediaWords() {
		for _, mt := range media()[w] {
			if _, _, err := mime.ParseMediaType(mt); err != nil {
				t.Errorf("media.txt: %s: %q is not a media type: %v", w, mt, err)
			}
		}
	}
	got := MediaTypes("A CSV or JSON file; csv again")
	if !slices.Equal(got, []string{"text/csv", "application/json"}) {
		t.Errorf("MediaTypes = %v", got)
	}
	if MediaTypes("the text to slugify") != nil {
		t.Error("plain words named a media type")
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"ignore_file": {"ignore", "file"}, "ignoreFile": {"ignore", "file"}, "--ignore-file": {"ignore", "file"}, "version2": {"version"},
	} {
		if got := Words(in); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestMediaTypesWildcard(t *testing.T) {
	if got := MediaTypes("A PNG image"); !slices.Equal(got, []string{"image/png"}) {
		t.Errorf("MediaTypes = %v, want [image/png]", got)
	}
	if got := MediaTypes("an image"); !slices.Equal(got, []string{"image/*"}) {
		t.Errorf("MediaTypes = %v, want [image/*]", got)
	}
}
