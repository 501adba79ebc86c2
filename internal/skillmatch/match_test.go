package skillmatch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSentences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"One sentence without a stop", []string{"One sentence without a stop"}},
		{"Scale an image.  Keep the ratio (e.g. 4:3). Width 1.5 times.", []string{"Scale an image.", "Keep the ratio (e.g. 4:3).", "Width 1.5 times."}},
		{`Print "done." Then exit! 2 lines? ok`, []string{`Print "done."`, "Then exit!", "2 lines? ok"}},
		{"Écrit le texte. Élément suivant.", []string{"Écrit le texte.", "Élément suivant."}},
	} {
		if got := sentences(tc.in); !cmp.Equal(got, tc.want) {
			t.Errorf("sentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMatchReadsOpeningFirst checks that details after a skill's
// opening sentence do not cost it the match the opening earns, and that
// the views add no match between unrelated skills.
func TestMatchReadsOpeningFirst(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "log-errors", Description: "Extract the error lines of a server log, with their timestamps and severity."},
		{ID: "request-rate", Description: "Count the requests per minute in an access log and report the busiest minutes."},
	}
	gen := []Skill{
		{ID: "errors", Name: "logtool errors", Description: "Error lines of a server log, with timestamps and severity. " +
			"Reads Apache, nginx and syslog layouts, skips the continuation lines of stack traces and prints each match as an ISO-8601 time, a level and the message, oldest first. " +
			"Compressed rotations are opened transparently, and a summary table per host closes the report."},
		{ID: "rate", Name: "logtool rate", Description: "Requests per minute of an access log, busiest first."},
		{ID: "config", Name: "logtool config", Description: "Show where settings are read from. Lists the configuration directory, the cache location and the colour theme."},
	}
	// The whole description of "errors" is too diluted to match on its own.
	var all []map[string]bool
	for _, g := range gen {
		all = append(all, wordSet(g.ID+" "+g.Name+" "+g.Description))
	}
	for _, tr := range truth {
		all = append(all, wordSet(tr.ID+" "+tr.Description))
	}
	if whole := weightedDice(all[0], all[3], idfOver(all)); whole >= DefaultThreshold {
		t.Fatalf("whole-text similarity of errors and log-errors = %.2f, want it below %.2f for this test to mean anything", whole, DefaultThreshold)
	}
	m := Match(gen, truth, DefaultThreshold)
	if want := []string{"log-errors", "request-rate", ""}; !cmp.Equal(m.Supported, want) {
		t.Errorf("Match supported = %q, want %q", m.Supported, want)
	}
	if want := map[string]string{"log-errors": "errors", "request-rate": "rate"}; !cmp.Equal(m.Covered, want) {
		t.Errorf("Match covered = %v, want %v", m.Covered, want)
	}
	if !near(m.Precision, 2.0/3) || !near(m.Recall, 1) {
		t.Errorf("Match precision %v recall %v, want 2/3 and 1", m.Precision, m.Recall)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestTokenizeKeepsCapabilityVerbs checks that the verbs a routing
// request opens with and BM25 drops ("list", "show", "find") are words of a
// skill's text: "List the tags" and "Show the tags" are two capabilities.
func TestTokenizeKeepsCapabilityVerbs(t *testing.T) {
	t.Parallel()
	if got, want := tokenize("List the tags of a file, then show them"), []string{"list", "tag", "file", "show"}; !cmp.Equal(got, want) {
		t.Errorf("tokenize = %q, want %q", got, want)
	}
	truth := []Skill{
		{ID: "tag-listing", Description: "List the metadata tags of an audio file."},
		{ID: "tag-copying", Description: "Copy the tags of one audio file to another."},
	}
	gen := []Skill{
		{ID: "inspect", Description: "Full tag list for any given file."},
		{ID: "tagcopy", Description: "Copies tags from src to dst."},
	}
	if got, want := Pairs(gen, truth, DefaultThreshold), [][]bool{{true, false}, {false, true}}; !cmp.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
}

// TestParamViewsOfferCapabilities checks that a parameter of a program
// that says a capability ("ungron: turn assignments back into JSON") is
// read as offering it, even when the program's main capability matches
// far better.
func TestParamViewsOfferCapabilities(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "flatten", Description: "Flatten a JSON document into greppable lines."},
		{ID: "unflatten", Description: "Rebuild a document from its path assignments."},
		{ID: "fetch-url", Description: "Download a web page and save it to a file."},
	}
	gen := []Skill{
		{ID: "flatten", Description: "Flatten a JSON document into greppable lines.",
			Params: []string{"reverse: Rebuild the document from the path assignments.", "colour: Colour the output."}},
		{ID: "get", Description: "Download a URL to a file.", Params: []string{"output: The file to write."}},
	}
	same := Pairs(gen, truth, DefaultThreshold)
	if want := [][]bool{{true, true, false}, {false, false, true}}; !cmp.Equal(same, want) {
		t.Errorf("Pairs = %v, want %v", same, want)
	}
}

// TestSoleProgram checks that a repo's only generated skill needs less
// evidence to offer an annotated capability than a skill with rivals.
func TestSoleProgram(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "version-sort", Description: "Sort semantic versions, pre-releases included, in precedence order."},
		{ID: "changelog", Description: "Write the changelog of a version from its commit messages."},
	}
	sole := []Skill{{ID: "semv", Description: "Standalone semantic version comparison program.",
		Params: []string{"bump: Bump a version by the given level: major, minor or patch.", "loose: Read versions loosely."}}}
	if got, want := Pairs(sole, truth, DefaultThreshold), [][]bool{{true, false}}; !cmp.Equal(got, want) {
		t.Errorf("Pairs(sole program) = %v, want %v", got, want)
	}
	rivals := append(sole, Skill{ID: "release-notes", Description: "Write release notes for the version in precedence of its tags."})
	if got := Pairs(rivals, truth, DefaultThreshold); got[0][0] {
		t.Errorf("Pairs(with a rival)[semv][version-sort] = true, want false: %v", got)
	}
}

// TestProgramNameSaysNothing checks that the program name every
// subcommand's label carries ("dbtool insert", "dbtool vacuum") does not
// count as evidence when a ground-truth text names the tool's domain.
func TestProgramNameSaysNothing(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "load-records", Description: "Load CSV records into a table of a dbtool database file."},
		{ID: "compact-file", Description: "Shrink a database file by rebuilding it without its free pages."},
	}
	gen := []Skill{
		{ID: "insert", Name: "dbtool insert", Description: "Insert CSV records into a table."},
		{ID: "vacuum", Name: "dbtool vacuum", Description: "Run VACUUM to shrink the file."},
		{ID: "rename-table", Name: "dbtool rename-table", Description: "Rename a table."},
		{ID: "dump", Name: "dbtool dump", Description: "Output the schema and contents of the database."},
	}
	want := [][]bool{{true, false}, {false, true}, {false, false}, {false, false}}
	if got := Pairs(gen, truth, DefaultThreshold); !cmp.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
}

// TestPairsCreditSynonyms: a generated skill that says its capability in
// other words than the annotation ("pull the pictures out" for "extract
// the images") matches through the lexicon's synonyms, and only through
// them — compared by exact words, the pair has nothing in common.
func TestPairsCreditSynonyms(t *testing.T) {
	t.Parallel()
	gen := []Skill{
		{ID: "pull", Name: "docpics pull", Description: "Pull every picture out of a document."},
		{ID: "pages", Name: "docpics pages", Description: "Count the pages of a document."},
	}
	truth := []Skill{
		{ID: "extract-images", Description: "Extract the embedded images."},
		{ID: "page-count", Description: "How many pages a PDF has."},
	}
	want := [][]bool{{true, false}, {false, true}}
	if got := Pairs(gen, truth, DefaultThreshold); !cmp.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
	exact := PairsWeighing(gen, truth, DefaultThreshold, 0)
	if exact[0][0] {
		t.Errorf("PairsWeighing without synonyms matched pull × extract-images: the test no longer needs the lexicon")
	}
}

// TestPairsCreditDerivations: a generated skill that names its capability
// by the verb where the annotation uses its noun ("analyze" and
// "analysis", whose stems differ) matches through the lexicon's
// derivations, and only through them.
func TestPairsCreditDerivations(t *testing.T) {
	t.Parallel()
	gen := []Skill{
		{ID: "analyze", Name: "wavkit analyze", Description: "Analyze the frequencies of a recording."},
		{ID: "trim", Name: "wavkit trim", Description: "Trim the silence at both ends of a recording."},
		{ID: "describe", Name: "wavkit describe", Description: "Describe the file header."},
	}
	truth := []Skill{
		{ID: "spectral-analysis", Description: "Frequency analysis of an audio clip."},
		{ID: "silence-trim", Description: "Cut the silence from the ends of a clip."},
		{ID: "header-description", Description: "A description of the header: rate, channels, length."},
	}
	want := [][]bool{{true, false, false}, {false, true, false}, {false, false, true}}
	if got := Pairs(gen, truth, DefaultThreshold); !cmp.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
	if exact := PairsWeighing(gen, truth, DefaultThreshold, 0); exact[0][0] {
		t.Errorf("PairsWeighing without the lexicon matched analyze × spectral-analysis: the test no longer needs derivations")
	}
}

// TestPairsKeepDirection: a skill that does the reverse of an annotated
// capability ("encode" for "decode") does not offer it, though the two
// texts share the format and the data they name; a program whose texts
// name both directions offers both.
func TestPairsKeepDirection(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "base58-decode", Description: "Decode Base58 text back into the raw bytes."},
		{ID: "base58-checksum", Description: "Compute the checksum of a Base58 string."},
	}
	gen := []Skill{
		{ID: "encode", Name: "b58 encode", Description: "Encode raw bytes as Base58 text."},
		{ID: "check", Name: "b58 check", Description: "Checksum of a Base58 string."},
	}
	rs := readings(gen, truth, SynonymWeight)
	if !rs[0][0].reversed || rs[0][0].dice < DefaultThreshold {
		t.Fatalf("encode × base58-decode: reversed %v, dice %.2f: want reversed, and a dice that alone would match (at least %.2f)",
			rs[0][0].reversed, rs[0][0].dice, DefaultThreshold)
	}
	if got, want := Pairs(gen, truth, DefaultThreshold), [][]bool{{false, false}, {false, true}}; !cmp.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
	both := []Skill{{ID: "b58", Description: "Encode raw bytes as Base58 text.", Params: []string{"decode: Decode the input instead."}}}
	if got := Pairs(both, truth[:1], DefaultThreshold); !got[0][0] {
		t.Errorf("Pairs(a program that encodes and decodes) = %v, want it to offer base58-decode", got)
	}
}

// TestModeParameterOffersOperation: a program whose described parameter is
// named by the operation an annotated capability opens with ("--list:
// print the tags") offers that capability on the evidence a lone program
// needs — the parameter is an entry point of its own — while a parameter
// named otherwise, or the name without a description, does not.
func TestModeParameterOffersOperation(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "song-metadata", Description: "List the metadata tags of a song file: title, artist, album, year."},
		{ID: "tag-copying", Description: "Copy every tag of one song file to another."},
		{ID: "header-check", Description: "Check that a song file's header is well formed."},
	}
	gen := []Skill{
		{ID: "tagedit", Description: "A replacement for an older tag editor of song files.", Params: []string{
			"list: Print the tags, one a line.", "comment: Set the comment.", "file"}},
		{ID: "tagcopy", Description: "Copies tags from one song file to another."},
		{ID: "taginfo", Description: "Full tag listing of any given song file."},
	}
	rs := readings(gen, truth, SynonymWeight)
	if s := rs[0][0].score(); s >= DefaultThreshold || s < soleShare*DefaultThreshold {
		t.Fatalf("tagedit × song-metadata scores %.3f: want it between %.3f and %.3f for this test to mean anything", s, soleShare*DefaultThreshold, DefaultThreshold)
	}
	want := [][]bool{{true, false, false}, {false, true, false}, {true, false, false}}
	if got := Pairs(gen, truth, DefaultThreshold); !cmp.Equal(got, want) {
		t.Errorf("Pairs = %v, want %v", got, want)
	}
	gen[0].Params = []string{"list", "comment: Set the comment.", "file"}
	if got := Pairs(gen, truth, DefaultThreshold); got[0][0] {
		t.Errorf("Pairs(a list parameter without a description)[tagedit][song-metadata] = true, want false")
	}
	gen[0].Params = []string{"show: Print the tags, one a line.", "comment: Set the comment.", "file"}
	if got := Pairs(gen, truth, DefaultThreshold); got[0][0] {
		t.Errorf("Pairs(a parameter named otherwise)[tagedit][song-metadata] = true, want false")
	}
}
