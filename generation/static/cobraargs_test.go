package static

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const cobraSource = `package main

import (
	"os"

	"github.com/spf13/cobra"
)

var mergeCmd = &cobra.Command{Use: "merge", Short: "Merge files", Args: cobra.MinimumNArgs(2), Run: func(cmd *cobra.Command, args []string) { os.Open(args[0]) }}
var splitCmd = &cobra.Command{Use: "split", Short: "Split a file", Args: cobra.ExactArgs(1)}
var diffCmd = &cobra.Command{Use: "diff", Short: "Compare two files", Args: cobra.ExactArgs(2)}
var listCmd = &cobra.Command{Use: "list", Short: "List things", Args: cobra.NoArgs}
var convCmd = &cobra.Command{Use: "conv <in> <out>", Short: "Convert", Args: cobra.ExactArgs(2)}
var someCmd = &cobra.Command{Use: "some", Short: "Some", Args: cobra.RangeArgs(0, 5)}
`

// A cobra command whose Use shows no operands takes those its Args
// validator counts: files, since the program opens files.
func TestCobraArgs(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", cobraSource, 0)
	if err != nil {
		t.Fatal(err)
	}
	root := goSource([]*ast.File{f})
	got := map[string][]Arg{}
	for _, s := range root.Subs {
		for _, a := range s.Args {
			got[s.Name] = append(got[s.Name], *a)
		}
	}
	want := map[string][]Arg{
		"merge": {{Name: "files", Variadic: true}},
		"split": {{Name: "file"}},
		"diff":  {{Name: "file1"}, {Name: "file2"}},
		"some":  {{Name: "files", Optional: true, Variadic: true}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("operands (-want +got):\n%s", diff)
	}
}
