package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzBind feeds the rules binder arbitrary instructions and text for
// every golden skill: it must never panic, fail only with a failure the
// caller reads, and bind no file outside the work directory.
func FuzzBind(f *testing.F) {
	f.Add("Print the price column of this table.", "", true)
	f.Add(`Find "../../etc/passwd" in these files`, "", true)
	f.Add("Slugify: /abs/path --help", "-rf /", false)
	f.Add("Save it as ../../x.png, top 3, the second table, width=80", "a,b\n1,2", true)
	paths, _ := filepath.Glob("testdata/bind/*.txtar")
	var calls []func(t *testing.T, instruction, content string, attach bool)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		ar := parseTxtar(data)
		var files []string
		for _, n := range ar.names {
			if name, ok := strings.CutPrefix(n, "files/"); ok {
				files = append(files, name)
			}
		}
		sk := goldenSkill(f, path, ar.file("skill.yaml"))
		calls = append(calls, func(t *testing.T, instruction, content string, attach bool) {
			work, err := os.MkdirTemp(t.TempDir(), "w")
			if err != nil {
				t.Fatal(err)
			}
			var given []string
			if attach {
				for _, n := range files {
					if err := os.WriteFile(filepath.Join(work, n), []byte(ar.file("files/"+n)), 0o644); err != nil {
						t.Fatal(err)
					}
					given = append(given, n)
				}
			}
			b, err := rulesBinder{}.Bind(context.Background(), &BindCall{Skill: sk, Workdir: work, Instruction: instruction, Content: content, Files: given})
			if err != nil {
				var fl *failure
				if !errors.As(err, &fl) {
					t.Fatalf("%s: error %v is no failure", path, err)
				}
				return
			}
			for _, p := range sk.ParamList() {
				vals := []any{b.Args[p.Name]}
				if list, ok := b.Args[p.Name].([]any); ok {
					vals = list
				}
				for _, v := range vals {
					s, ok := v.(string)
					if !ok || !p.IsFile() || s == "-" || p.HasDefault && s == p.Default {
						continue
					}
					if rel, err := filepath.Rel(work, s); err != nil || strings.HasPrefix(rel, "..") || !filepath.IsAbs(s) {
						t.Fatalf("%s: %s = %q is outside the work directory", path, p.Name, s)
					}
				}
			}
		})
	}
	f.Fuzz(func(t *testing.T, instruction, content string, attach bool) {
		for _, call := range calls {
			call(t, instruction, content, attach)
		}
	})
}
