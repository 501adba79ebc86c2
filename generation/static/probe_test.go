package static

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestProbeHelpFallbacks checks programs that reject --help without a
// usage: one whose -h prints it gets -h as its check; one that prints it
// only when run bare (to stderr, exiting 1) gets a presence check, and its
// help is still read; one that prints no usage at all is left out.
func TestProbeHelpFallbacks(t *testing.T) {
	t.Parallel()
	const reject = "case \"$1\" in --help) echo \"[main] unrecognized command '$1'. Abort!\" >&2; exit 1;; esac\n"
	const usage = "Usage:   sq <command> <arguments>\n\nCommand: seq    common transformation\n         size   report the number of sequences\n"
	tests := []struct {
		name, script string
		wantCheck    []string
		wantErr      string
	}{
		{
			name:      "dash-h",
			script:    reject + "case \"$1\" in -h) printf '" + usage + "'; exit 0;; esac\ncat\n",
			wantCheck: []string{"./sq", "-h"},
		},
		{
			name:      "bare",
			script:    reject + "case \"$1\" in -h) echo \"[main] unrecognized command '$1'. Abort!\" >&2; exit 1;; esac\nif [ $# -eq 0 ]; then printf '" + usage + "' >&2; exit 1; fi\n",
			wantCheck: []string{"test", "-x", "./sq"},
		},
		{
			name:    "none",
			script:  reject + "echo \"[main] unrecognized command '$1'. Abort!\" >&2\nexit 1\n",
			wantErr: "--help failed without a usage: [main] unrecognized command '--help'. Abort!",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeRepo(t, map[string]string{"sq": "x:#!/bin/sh\n" + tc.script})
			tool := &Tool{Name: "sq", Kind: "native", Prog: []string{"./sq"}, Check: []string{"./sq", "--help"}, Root: &Command{}}
			err := probe(t.Context(), dir, dir, tool, os.Environ(), 5*time.Second, io.Discard)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("probe() = %v, want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("probe() = %v, want nil", err)
			}
			if diff := cmp.Diff(tc.wantCheck, tool.Check); diff != "" {
				t.Errorf("probe() check (-want +got):\n%s", diff)
			}
			if !strings.Contains(tool.Root.Help, "common transformation") {
				t.Errorf("probe() help = %q, want the usage", tool.Root.Help)
			}
		})
	}
}

// TestLooksLikeHelpSynopsis checks that a bare synopsis (the program's name
// and its bracketed options) is a help text, and an error is not.
func TestLooksLikeHelpSynopsis(t *testing.T) {
	t.Parallel()
	tests := []struct {
		out  string
		want bool
	}{
		{"csvheader [-d field_delimiter] [-t] [-q] [-r] [filename]\n", true},
		{"./tool [--verbose] FILE\n", true},
		{"[main] unrecognized command '--help'. Abort!\n", false},
		{"cannot open file [x]: no such file\n", false},
	}
	for _, tc := range tests {
		if got := looksLikeHelp(tc.out); got != tc.want {
			t.Errorf("looksLikeHelp(%q) = %v, want %v", tc.out, got, tc.want)
		}
	}
}
