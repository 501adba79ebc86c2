package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/agentnet/agentnet/tasks"
)

// RunConfig is everything that decides a run's results. A run directory
// records it in config.json; resuming with a different one is refused.
type RunConfig struct {
	Suite       string `json:"suite"`        // suite name
	SuiteSHA256 string `json:"suite_sha256"` // of the suite file
	Generator   string `json:"generator"`
	BuilderCmd  string `json:"builder_cmd,omitempty"`
	Attempts    int    `json:"attempts"`
	AllAttempts bool   `json:"all_attempts"`
	Runtime     string `json:"runtime"`
	Router      string `json:"router"`
	// Binding is the A2A binding of the run's calls; a run recorded before
	// runs chose one has none and spoke jsonrpc.
	Binding string `json:"binding,omitempty"`
	Judge   string `json:"judge"`
	Model   string `json:"model,omitempty"` // AGENTNET_LLM_MODEL when a model is used
}

// ConfigMismatchError is returned when a run is resumed with a different
// configuration.
type ConfigMismatchError struct {
	Dir    string
	Fields []string // "router: bm25 → llm"
}

func (e *ConfigMismatchError) Error() string {
	return fmt.Sprintf("cannot resume %s: its configuration differs (%s); start a new run instead", e.Dir, strings.Join(e.Fields, "; "))
}

// configFile is the content of config.json: the configuration that decides
// the results, and the run's provenance beside it (never compared on resume).
type configFile struct {
	RunConfig
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Store is a run directory (docs/results.md): config.json, results.json,
// report.html, and per repo and per task their results, attempts, traces and
// artifacts. Each trial's result is written atomically as soon as it
// finishes, so an interrupted run loses only the trials in flight. Every
// file it writes is readable by all (0644). Trials may be saved
// concurrently; Stamp and WriteResults are called by one goroutine.
type Store struct {
	Dir  string
	cfg  RunConfig
	prov *Provenance // recorded in config.json; nil in runs made before it was
}

// Create makes a new run directory at dir, which must not hold a run yet.
func Create(dir string, cfg RunConfig) (*Store, error) {
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err == nil {
		return nil, fmt.Errorf("run directory %s already holds a run (use --resume %s to continue it)", dir, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create run directory: %w", err)
	}
	s := &Store{Dir: dir, cfg: cfg}
	if err := s.writeConfig(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Store) writeConfig() error {
	return writeJSONFile(filepath.Join(s.Dir, "config.json"), configFile{RunConfig: s.cfg, Provenance: s.prov})
}

// Stamp records p as the run's provenance in config.json. In a new run p is
// recorded as given; in a resumed run the first run's provenance is kept
// and p is added to it as one more resumption.
func (s *Store) Stamp(p Provenance) error {
	if s.prov == nil {
		s.prov = &p
	} else {
		s.prov.Resumed = append(s.prov.Resumed, Resumption{At: p.Started, Agentnet: p.Agentnet, Commit: p.Commit, Host: p.Host, SuiteDigest: p.SuiteDigest})
	}
	return s.writeConfig()
}

// Provenance returns the run's recorded provenance, or nil.
func (s *Store) Provenance() *Provenance { return s.prov }

// Resume opens the run at dir for continuing; cfg must equal its recorded
// configuration.
func Resume(dir string, cfg RunConfig) (*Store, error) {
	var old configFile
	if err := readJSONFile(filepath.Join(dir, "config.json"), &old); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("cannot resume %s: no run there (config.json missing)", dir)
		}
		return nil, fmt.Errorf("cannot resume %s: %w", dir, err)
	}
	if diff := configDiff(withBinding(old.RunConfig), withBinding(cfg)); len(diff) > 0 {
		return nil, &ConfigMismatchError{Dir: dir, Fields: diff}
	}
	return &Store{Dir: dir, cfg: cfg, prov: old.Provenance}, nil
}

// withBinding returns c with its binding said: a run recorded before runs
// chose a binding has none and spoke jsonrpc.
func withBinding(c RunConfig) RunConfig {
	if c.Binding == "" {
		c.Binding = "jsonrpc"
	}
	return c
}

func configDiff(a, b RunConfig) []string {
	var out []string
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := 0; i < va.NumField(); i++ {
		x, y := va.Field(i).Interface(), vb.Field(i).Interface()
		if !reflect.DeepEqual(x, y) {
			name, _, _ := strings.Cut(va.Type().Field(i).Tag.Get("json"), ",")
			out = append(out, fmt.Sprintf("%s: %v → %v", name, x, y))
		}
	}
	return out
}

// Config returns the run's configuration.
func (s *Store) Config() RunConfig { return s.cfg }

// RepoDir is the directory of a repo's attempts and bundle.
func (s *Store) RepoDir(id string) string { return filepath.Join(s.Dir, "repos", id) }

// TaskDir is the directory of a task's trace and artifacts.
func (s *Store) TaskDir(id string) string { return filepath.Join(s.Dir, "tasks", id) }

// Rel returns path relative to the run directory (for results).
func (s *Store) Rel(path string) string {
	if rel, err := filepath.Rel(s.Dir, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// SaveRepo records a repo's generation result.
func (s *Store) SaveRepo(r RepoResult) error {
	return writeJSONFile(filepath.Join(s.RepoDir(r.ID), "result.json"), r)
}

// SaveTask records a task's result.
func (s *Store) SaveTask(t TaskResult) error {
	return writeJSONFile(filepath.Join(s.TaskDir(t.ID), "result.json"), t)
}

// Repo returns a recorded repo result.
func (s *Store) Repo(id string) (RepoResult, bool) {
	var r RepoResult
	err := readJSONFile(filepath.Join(s.RepoDir(id), "result.json"), &r)
	return r, err == nil
}

// Task returns a recorded task result. A task that ended in an
// infrastructure error counts as not done, so a resumed run tries it again.
func (s *Store) Task(id string) (TaskResult, bool) {
	var t TaskResult
	if err := readJSONFile(filepath.Join(s.TaskDir(id), "result.json"), &t); err != nil {
		return t, false
	}
	return t, t.Status != StatusInfraError
}

// Results gathers the recorded results in suite order and summarises them;
// repos and tasks with no record are left out.
func (s *Store) Results(suite *tasks.Suite, k int) *Results {
	r := &Results{Version: ResultsVersion, Suite: suite.Name, Repos: []RepoResult{}, Tasks: []TaskResult{}}
	for _, repo := range suite.Repos {
		if rr, ok := s.Repo(repo.ID); ok {
			r.Repos = append(r.Repos, rr)
		}
	}
	for _, c := range suite.Cases {
		var t TaskResult
		if readJSONFile(filepath.Join(s.TaskDir(c.ID), "result.json"), &t) == nil {
			r.Tasks = append(r.Tasks, t)
		}
	}
	Summarize(r, k)
	return r
}

// WriteResults records the run as finished now: it adds the run's
// configuration and provenance (with the finish time) to r, and writes
// config.json, results.json and report.html.
func (s *Store) WriteResults(r *Results) error {
	cfg := s.cfg
	r.Config = &cfg
	if s.prov != nil {
		now := time.Now().UTC().Truncate(time.Second)
		s.prov.Finished = &now
		p := *s.prov
		r.Provenance = &p
		if err := s.writeConfig(); err != nil {
			return err
		}
	}
	if err := writeJSONFile(filepath.Join(s.Dir, "results.json"), r); err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, ".report-*.html")
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("write report: %w", err)
	}
	if err := WriteRunHTML(f, r, s.Dir); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return os.Rename(f.Name(), filepath.Join(s.Dir, "report.html"))
}

// LoadResults reads a finished run's results.json.
func LoadResults(dir string) (*Results, error) {
	var r Results
	if err := readJSONFile(filepath.Join(dir, "results.json"), &r); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s holds no finished run (results.json missing)", dir)
		}
		return nil, err
	}
	if r.Version != ResultsVersion {
		return nil, fmt.Errorf("%s: results version %d, this agentnet reads %d", dir, r.Version, ResultsVersion)
	}
	return &r, nil
}

// TaskIDs lists the task ids with a recorded result, sorted.
func (s *Store) TaskIDs() []string {
	entries, _ := os.ReadDir(filepath.Join(s.Dir, "tasks"))
	var ids []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(s.Dir, "tasks", e.Name(), "result.json")); err == nil {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids
}

// writeJSONFile writes v as indented JSON atomically: a temporary file in
// the same directory, synced, then renamed over path.
func writeJSONFile(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; a run's files are for everyone to read.
	werr := f.Chmod(0o644)
	if werr == nil {
		_, werr = f.Write(append(b, '\n'))
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, werr)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func readJSONFile(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}
