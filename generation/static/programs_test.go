package static

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShellLaunchersLeftOut checks that the scripts of bin/ that only
// launch something else are no tools: a launcher that several links run
// under other names, a toolchain manager's script, and a script that
// builds the repository's Go source and runs it. A script beside them
// that does its own work stays.
func TestShellLaunchersLeftOut(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"bin/pkgshim": "x:#!/bin/bash\n# usage: pkgshim ARGS\nexec \"$HOME/.cache/shim/pkgshim\" exec \"$0\" -- \"$@\"\n",
		"bin/hermit":  "x:#!/bin/bash\nexec \"${HERMIT_EXE}\" --level=fatal exec \"$0\" -- \"$@\"\n",
		"bin/fmtx":    "x:#!/bin/bash\nset -euo pipefail\n\ngo build -C cmd/fmtx -o $TMPDIR/fmtx . && exec $TMPDIR/fmtx \"$@\"\n",
		"bin/upper":   "x:#!/bin/sh\n# Upper-case a file.\ntr a-z A-Z < \"$1\"\n",
	})
	for _, link := range []string{"bin/node", "bin/.node-20.pkg"} {
		if err := os.Symlink("pkgshim", filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	tools, notes := shellTools(mustScan(t, dir))
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if want := []string{"upper"}; !slices.Equal(names, want) {
		t.Errorf("shellTools() = %v, want %v (notes %q)", names, want, notes)
	}
	for _, f := range []string{"bin/pkgshim", "bin/hermit", "bin/fmtx"} {
		if !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, f+": left out") }) {
			t.Errorf("shellTools() notes = %q, want one leaving out %s", notes, f)
		}
	}
}

// TestMakeProgramVariableOutput checks a program whose link recipe names
// its output by a variable of the Makefile ($(CC) ... -o $(EXE)).
func TestMakeProgramVariableOutput(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"Makefile": "EXE=quoter\nCFLAGS=-Wall -O2\n\nall:\t$(EXE)\n\n$(EXE):\n\t$(CC) $(CFLAGS) $(EXE).c -o $(EXE)\n\nclean:\n\trm -f $(EXE)\n",
		"quoter.c": "int main(void) { return 0; }\n",
	})
	tools := makePrograms(mustScan(t, dir))
	if len(tools) != 1 || tools[0].Name != "quoter" || !slices.Equal(tools[0].Prog, []string{"./quoter"}) {
		t.Errorf("makePrograms() = %+v, want the one program ./quoter", tools)
	}
}

// TestMakefileVariables checks the variables the Makefile reader keeps,
// as make sets them: a comment after a value is no part of it, an escaped
// \# is, and += appends.
func TestMakefileVariables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, makefile, variable, want string
	}{
		{"comment is the whole value", "EXT = # .exe\n", "EXT", ""},
		{"comment after a value", "CC = cc # gcc or clang\n", "CC", "cc"},
		{"comment without space", "OPT=-O2#-g\n", "OPT", "-O2"},
		{"escaped hash", "SEP = a\\#b # note\n", "SEP", "a#b"},
		{"append after a comment", "FLAGS = -a # one\nFLAGS += -b # two\n", "FLAGS", "-a -b"},
		{"reference to an emptied variable", "EXT = # .exe\nPROG = tool$(EXT)\n", "PROG", "tool$(EXT)"},
		{"whole-line comment", "# X = 1\nX = 2\n", "X", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := parseMakefile(tt.makefile).vars[tt.variable]; got != tt.want {
				t.Errorf("parseMakefile(%q).vars[%q] = %q, want %q", tt.makefile, tt.variable, got, tt.want)
			}
		})
	}
}

// TestMakeProgramCommentedSuffix checks a program named with an extension
// variable whose only value is a comment (imgcheck$(EXT), EXT = # .exe),
// and a default target whose line ends in a comment: the program is
// ./imgcheck, though its name ends like a test target's, because a
// programs variable lists it.
func TestMakeProgramCommentedSuffix(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"Makefile": "CC = cc # or clang\nLD = $(CC)\nEXT = # .exe\nPROGS = imgcheck$(EXT)\n\n.c.o:\n\t$(CC) -c -o $@ $*.c\n\n" +
			"all: $(PROGS) selfcheck # the default\n\nimgcheck$(EXT): imgcheck.o\n\t$(LD) -o $@ imgcheck.c\n\n" +
			"selfcheck: imgcheck.o\n\t$(LD) -o $@ imgcheck.c\n\nclean:\n\trm -f $(PROGS) *.o\n",
		"imgcheck.c": "int main(void) { return 0; }\n",
	})
	tools := makePrograms(mustScan(t, dir))
	if len(tools) != 1 || tools[0].Name != "imgcheck" || !slices.Equal(tools[0].Prog, []string{"./imgcheck"}) {
		t.Errorf("makePrograms() = %+v, want the one program ./imgcheck", tools)
	}
}
