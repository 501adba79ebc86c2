package host

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/bind/*.txtar")

// Golden binding cases: each testdata/bind/*.txtar holds one skill
// (skill.yaml, an entry of a bundle's skills), the files cases may attach
// (files/NAME), the cases ("name | instruction | attached files | text
// given to work on", one a line) and what the rules binder makes of each
// (want): the argv with the evidence of every argument, or the failure.
// Files named real-*.txtar hold skills as the static generator wrote them
// for real repositories. go test -run TestBindGolden -update rewrites want.
func TestBindGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/bind/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	total, real := 0, 0
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ar := parseTxtar(data)
			sk := goldenSkill(t, path, ar.file("skill.yaml"))
			var got strings.Builder
			n := 0
			for _, line := range strings.Split(ar.file("cases"), "\n") {
				if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
					continue
				}
				n++
				got.WriteString(runGoldenCase(t, sk, ar, line))
			}
			total += n
			if strings.HasPrefix(filepath.Base(path), "real-") {
				real += n
			}
			if *update {
				ar.set("want", got.String())
				if err := os.WriteFile(path, ar.format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := ar.file("want"); got.String() != want {
				t.Errorf("%s: binding differs from want (go test -run TestBindGolden -update to accept):\n%s", path, lineDiff(want, got.String()))
			}
		})
	}
	if total < 150 || real*2 < total {
		t.Errorf("%d golden cases, %d of real repositories' skills; want at least 150, half of them real", total, real)
	}
}

// goldenSkill loads the skill of a case file as a bundle would.
func goldenSkill(t testing.TB, path, text string) *bundle.Skill {
	t.Helper()
	var indented strings.Builder
	for i, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if i == 0 {
			indented.WriteString("  - " + l + "\n")
		} else {
			indented.WriteString("    " + l + "\n")
		}
	}
	b, err := bundle.Parse(filepath.Join(t.TempDir(), bundle.FileName), []byte("version: 1\nname: golden\ndescription: golden\nskills:\n"+indented.String()))
	if err != nil {
		t.Fatalf("%s: skill.yaml: %v", path, err)
	}
	return &b.Skills[0]
}

// caseRE splits a case line: the instruction may hold " | " itself;
// attached file names never do.
var caseRE = regexp.MustCompile(`^(.*?) \| (.*) \|(?: ([^|]*?))? \|(?: (.*))?$`)

// runGoldenCase binds one case and says what came of it.
func runGoldenCase(t *testing.T, sk *bundle.Skill, ar *txtar, line string) string {
	m := caseRE.FindStringSubmatch(strings.TrimRight(line, " "))
	if m == nil {
		t.Fatalf("case %q: want name | instruction | files | content", line)
	}
	f := m[1:]
	name, instruction, content := strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), strings.ReplaceAll(strings.TrimSpace(f[3]), `\n`, "\n")
	work := t.TempDir()
	var files []string
	for _, fn := range strings.Fields(f[2]) {
		if err := os.WriteFile(filepath.Join(work, fn), []byte(ar.file("files/"+fn)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, fn)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "## %s\n", name)
	b, err := rulesBinder{}.Bind(context.Background(), &BindCall{Skill: sk, Workdir: work, Instruction: instruction, Content: content, Files: files})
	if err != nil {
		fmt.Fprintf(&out, "fail: %s\n\n", strings.ReplaceAll(err.Error(), work, "$WORK"))
		return out.String()
	}
	if issues := sk.Check(b.Args); issues != nil {
		fmt.Fprintf(&out, "invalid: %v\n", issues)
	} else if argv, err := buildArgv(sk, bundle.Vars{Repo: "/repo", Bundle: "/bundle", Workdir: work}, b.Args); err != nil {
		fmt.Fprintf(&out, "fail: %s\n", strings.ReplaceAll(err.Error(), work, "$WORK"))
	} else {
		j, _ := json.Marshal(argv)
		fmt.Fprintf(&out, "argv: %s\n", strings.ReplaceAll(string(j), work, "$WORK"))
	}
	for _, e := range b.Trace {
		fmt.Fprintf(&out, "  %s\n", strings.ReplaceAll(e.String(), work, "$WORK"))
	}
	out.WriteString("\n")
	return out.String()
}

// txtar is the txtar archive format: a comment, then files, each after a
// "-- name --" line.
type txtar struct {
	comment string
	names   []string
	data    map[string]string
}

func parseTxtar(data []byte) *txtar {
	ar := &txtar{data: map[string]string{}}
	cur := ""
	var buf strings.Builder
	flush := func() {
		if cur == "" {
			ar.comment = buf.String()
		} else {
			ar.names = append(ar.names, cur)
			ar.data[cur] = buf.String()
		}
		buf.Reset()
	}
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if t := strings.TrimRight(l, "\n"); strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			cur = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		buf.WriteString(l)
	}
	flush()
	return ar
}

func (ar *txtar) file(name string) string { return ar.data[name] }

func (ar *txtar) set(name, text string) {
	if _, ok := ar.data[name]; !ok {
		ar.names = append(ar.names, name)
	}
	ar.data[name] = text
}

func (ar *txtar) format() []byte {
	var b bytes.Buffer
	b.WriteString(ar.comment)
	for _, n := range ar.names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, ar.data[n])
		if s := ar.data[n]; s != "" && !strings.HasSuffix(s, "\n") {
			b.WriteString("\n")
		}
	}
	return b.Bytes()
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, b)
		}
	}
	return ""
}
