package static

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShellScriptWhole checks that a script whose use of its arguments
// comes after a long table is found, that the one named like the
// repository comes first, and that a script left out is noted.
func TestShellScriptWhole(t *testing.T) {
	t.Parallel()
	table := strings.Repeat("    [':smile:']='\\U1F604'\n", 5000) // about 130 KB
	dir := writeRepo(t, map[string]string{
		"a-helper":   "x:#!/bin/sh\n# Print the arguments.\necho \"$@\"\n",
		"emojify":    "x:#!/usr/bin/env bash\n# Substitute emoji aliases.\ndeclare -A emojis=(\n" + table + ")\nprintf '%s\\n' \"$1\"\n",
		"nothing.sh": "x:#!/bin/sh\necho hello\n",
	})
	r := mustScan(t, dir)
	r.name = "emojify"
	tools, notes := shellTools(r)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if want := []string{"emojify", "a-helper"}; !slices.Equal(names, want) {
		t.Errorf("shellTools() = %v, want %v", names, want)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "nothing.sh") {
		t.Errorf("shellTools() notes = %q, want one on nothing.sh", notes)
	}
}

// TestMakePrograms checks that the programs a Makefile's default target
// links become tools built by make, and that build, test and clean
// targets never become skills.
func TestMakePrograms(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"Makefile": "CC\t= gcc\nLD\t= gcc\nOBJS\t= figlet.o utf8.o\nBINS\t= figlet chkfont figlist\n\n.c.o:\n\t$(CC) -c -o $*.o $<\n\n" +
			"all: $(BINS)\n\nfiglet: $(OBJS)\n\t$(LD) -o $@ $(OBJS)\n\nchkfont: chkfont.o\n\t$(LD) -o $@ chkfont.o\n\n" +
			"test/tooltest: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n\nclean:\n\trm -f *.o figlet\n\nvercheck:\n\t./figlet -v\n",
		"figlet.c":  "int main(void) { return 0; }\n",
		"utf8.c":    "int utf8;\n",
		"chkfont.c": "int main(void) { return 0; }\n",
		"figlist":   "x:#!/bin/sh\nls \"$1\"\n",
		"figlet.6":  ".TH FIGLET 6\n.SH NAME\nFIGlet \\- display large characters made up of ordinary screen characters\n.SH SYNOPSIS\n.B figlet\n",
	})
	r := mustScan(t, dir)
	r.name = "figlet"
	var got [][]string
	for _, tool := range makePrograms(r) {
		got = append(got, []string{tool.Name, strings.Join(tool.Setup[0], " "), strings.Join(tool.Check, " "), tool.Doc})
	}
	want := [][]string{
		{"figlet", "make", "./figlet --help", "Display large characters made up of ordinary screen characters."},
		{"chkfont", "make", "./chkfont --help", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("makePrograms() (-want +got):\n%s", diff)
	}

	// fzy: $(CC) is make's own; the program's rule is no skill.
	dir = writeRepo(t, map[string]string{
		"Makefile": "OBJECTS=src/fzy.o\n\nall: fzy\n\nacceptance: fzy\n\tcd test && ruby acceptance_test.rb\n\n" +
			"fzy: $(OBJECTS)\n\t$(CC) $(CFLAGS) -o $@ $(OBJECTS) $(LIBS)\n\nveryclean: clean\n\trm -f config.h\n\ndistclean:\n\trm -f x\n",
		"src/fzy.c": "int main(void) { return 0; }\n",
	})
	tools := makePrograms(mustScan(t, dir))
	if len(tools) != 1 || tools[0].Name != "fzy" {
		t.Errorf("makePrograms(fzy) = %v, want the one program fzy", tools)
	}
	for _, target := range []string{"acceptance", "veryclean", "distclean", "vercheck", "check", "test-unit", "install", "coverage"} {
		if !devTargets.MatchString(target) {
			t.Errorf("devTargets does not match %q", target)
		}
	}
}

// A script's header comment says what it does after its title lines: the
// program's name, its URL, a copyright notice are not its description.
func TestLeadingCommentTitle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"#!/usr/bin/env bash\n#\n# tally\n# https://example.org/tally\n#\n# Counts words in a set of files.\n#\n# More prose.\nset -e\n",
			"Counts words in a set of files.\n\nMore prose."},
		{"// Copyright 2021 The Authors. All rights reserved.\n// SPDX-License-Identifier: MIT\n//\n// Resize shrinks images.\npackage main\n",
			"Resize shrinks images."},
		{"# Resize images to a width.\n# see\n# https://example.org\nx=1\n", "Resize images to a width.\nsee\nhttps://example.org"},
	} {
		if got := leadingComment(tc.src); got != tc.want {
			t.Errorf("leadingComment(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
