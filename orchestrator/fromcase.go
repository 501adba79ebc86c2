package orchestrator

import (
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"

	"github.com/agentnet/agentnet/tasks"
)

// FromCase turns a suite's single or chain case into a chain (a single case
// is a chain of one step), reading its input files relative to suiteDir.
func FromCase(c *tasks.Case, suiteDir string) (Chain, error) {
	ch := Chain{ID: c.ID, Timeout: c.Timeout.Duration}
	switch c.Type {
	case tasks.Single:
		ch.Steps = []Step{{Repo: c.Repo, Instruction: c.Instruction, Timeout: c.Timeout.Duration}}
	case tasks.Chain:
		for _, st := range c.Steps {
			ch.Steps = append(ch.Steps, Step{Repo: st.Repo, Instruction: st.Instruction, Timeout: st.Timeout.Duration})
		}
	default:
		return ch, fmt.Errorf("case %q is a %s; only single and chain cases run as chains", c.ID, c.Type)
	}
	if c.Input != nil {
		ch.Input.Text, ch.Input.Data = c.Input.Text, c.Input.Data
		for _, f := range c.Input.Files {
			p := f
			if !filepath.IsAbs(p) {
				p = filepath.Join(suiteDir, f)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return ch, fmt.Errorf("case %q: input file: %w", c.ID, err)
			}
			ch.Input.Files = append(ch.Input.Files, File{Name: filepath.Base(p), MediaType: MediaType(p, data), Data: data})
		}
	}
	return ch, nil
}

// MediaType guesses a file's media type from its name, else its content.
func MediaType(name string, data []byte) string {
	if mt := mime.TypeByExtension(filepath.Ext(name)); mt != "" {
		return mt
	}
	return http.DetectContentType(data)
}

// ForChecks is the output as a case's checks read it: the text, and each
// file by its base name.
func (o Output) ForChecks() tasks.Output {
	out := tasks.Output{Text: o.Text}
	for _, f := range o.Files {
		out.Files = append(out.Files, tasks.File{Name: filepath.Base(f.Name), Data: f.Data})
	}
	return out
}
