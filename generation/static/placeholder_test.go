package static

import (
	"slices"
	"testing"
)

// TestPlaceholderSection reads a section named for a usage placeholder as
// the values of that operand.
func TestPlaceholderSection(t *testing.T) {
	t.Parallel()
	c := parseHelp("Format URLs provided on stdin\n\nUsage:\n  unfurl [OPTIONS] [MODE] [FORMATSTRING]\n\nOptions:\n" +
		"  -u, --unique   Only output unique values\n\nModes:\n" +
		"  keys     Keys from the query string (one per line)\n  keypairs Key=value pairs from the query string\n  domains  The hostname (e.g. sub.example.com)\n" +
		"  paths    The request path (e.g. /users)\n  format   Specify a custom format (see below)\n\n" +
		"Format Directives:\n  %%  A literal percent character\n  %d  The domain (e.g. sub.example.com)\n")
	var mode *Arg
	for _, a := range c.Args {
		if a.Name == "MODE" {
			mode = a
		}
	}
	if mode == nil {
		t.Fatalf("args = %+v, want MODE", c.Args)
	}
	if want := []string{"keys", "keypairs", "domains", "paths", "format"}; !slices.Equal(mode.Choices, want) {
		t.Errorf("MODE choices = %q, want %q", mode.Choices, want)
	}
	if mode.Help == "" {
		t.Error("MODE has no help, want the section's rows")
	}
}

// TestInlineHeader reads a command list whose first item shares the
// title's line, as seqtk and samtools print it.
func TestInlineHeader(t *testing.T) {
	t.Parallel()
	c := parseHelp("\nUsage:   seqtk <command> <arguments>\nVersion: 1.5-r133\n\n" +
		"Command: seq       common transformation of FASTA/Q\n" +
		"         size      report the number sequences and bases\n" +
		"         comp      get the nucleotide composition of FASTA/Q\n\n" +
		"         hety      regional heterozygosity\n")
	var names []string
	for _, s := range c.Subs {
		names = append(names, s.Name)
	}
	if want := []string{"seq", "size", "comp", "hety"}; !slices.Equal(names, want) {
		t.Errorf("subcommands = %q, want %q", names, want)
	}
}
