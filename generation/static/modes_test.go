package static

import (
	"slices"
	"strings"
	"testing"
	"time"
)

const modesHelp = `Usage:
    lockbox [--encrypt] -r KEY [-o OUTPUT] [INPUT]
    lockbox --decrypt [-i FILE] [-o OUTPUT] [INPUT]

Options:
    -e, --encrypt             Encrypt the input to the output. Default if omitted.
    -r, --recipient KEY       Encrypt to the public key KEY.
    -d, --decrypt             Decrypt the input to the output.
    -i, --identity FILE       Use the private key in FILE.
    -o, --output OUTPUT       Write the result to the file at path OUTPUT.

INPUT defaults to standard input, and OUTPUT defaults to standard output.
If OUTPUT exists, it will be overwritten.
`

// TestUsageModes splits a program whose usage forms each open with their
// own switch into one skill per switch, the switch set in the run
// template, and describes each by the switch's help, never by the help's
// prose about its operands.
func TestUsageModes(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"lockbox": "x:#!/bin/sh\ncase \"$1\" in --help) cat <<'EOF'\n" + modesHelp + "EOF\nexit 0;; esac\ncat\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "lockbox", ProbeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var ids []string
	for _, sk := range res.Bundle.Skills {
		ids = append(ids, sk.ID)
		if strings.Contains(sk.Description, "defaults to standard input") || strings.Contains(sk.Description, "overwritten") {
			t.Errorf("%s: description %q repeats the help's prose about its operands", sk.ID, sk.Description)
		}
	}
	if want := []string{"lockbox-encrypt", "lockbox-decrypt"}; !slices.Equal(ids, want) {
		t.Fatalf("skills = %v, want %v", ids, want)
	}
	dec := res.Bundle.Skills[1]
	if !strings.HasPrefix(dec.Description, "Decrypt the input to the output.") {
		t.Errorf("decrypt description = %q, want the switch's help first", dec.Description)
	}
	if !slices.Contains(dec.Run, "--decrypt") || slices.Contains(dec.Run, "--encrypt") || slices.Contains(dec.Run, "{{decrypt}}") {
		t.Errorf("decrypt run = %q, want --decrypt set and no --encrypt", dec.Run)
	}
	props, _ := dec.Params["properties"].(map[string]any)
	if _, ok := props["decrypt"]; ok {
		t.Errorf("decrypt params still offer the switch: %v", props)
	}
	if _, ok := props["identity"]; !ok {
		t.Errorf("decrypt params lost the other options: %v", props)
	}
}

// TestWithoutOperandProse keeps a description's sentences about what a
// program does and drops those whose subject is an operand.
func TestWithoutOperandProse(t *testing.T) {
	for in, want := range map[string]string{
		"INPUT defaults to standard input. \"-\" may be used as INPUT. Print facts about INPUT.": "Print facts about INPUT.",
		"Scan FILE for errors. If OUTPUT exists, it is replaced.":                                "Scan FILE for errors.",
		"JSON output is indented by two spaces.":                                                 "JSON output is indented by two spaces.",
	} {
		if got := withoutOperandProse(in); got != want {
			t.Errorf("withoutOperandProse(%q) = %q, want %q", in, got, want)
		}
	}
}
