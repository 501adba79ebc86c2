package static

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/proc"
)

// Python is an interpreter found on the machine, as it reports itself.
type Python struct {
	Path    string   `json:"path"`    // how it was found (a PATH entry or a fixed path)
	Exe     string   `json:"exe"`     // sys.executable: the real binary
	Version []int    `json:"version"` // major, minor, micro
	Venv    bool     `json:"venv"`    // the venv module works
	Pip     bool     `json:"pip"`     // pip is importable (a venv with system site packages inherits it)
	Debian  bool     `json:"debian"`  // sees Debian's dist-packages: apt-get installs for this one
	Found   []string `json:"found"`   // the repository's third-party imports it can import
}

// VersionString returns "3.11.2".
func (p *Python) VersionString() string {
	var parts []string
	for _, v := range p.Version {
		parts = append(parts, strconv.Itoa(v))
	}
	return strings.Join(parts, ".")
}

// PythonEnv is the environment synthesised for a Python repository: the
// interpreter chosen, the virtual environment (with the system's site
// packages) the repository is installed into, and what is missing.
type PythonEnv struct {
	Python     *Python   `json:"python"`
	Candidates []*Python `json:"candidates,omitempty"`
	// Venv is the virtual environment's directory, relative to the repo.
	Venv string `json:"venv"`
	// Installed is set when pip installed the repository into the venv;
	// otherwise it runs from source (Reason says why).
	Installed bool   `json:"installed"`
	Reason    string `json:"reason,omitempty"`
	// Missing are the imports the interpreter cannot find, with their
	// Debian packages; Debian lists the system packages the environment
	// needs (installed or not), for an image built for the agent.
	Missing []Missing `json:"missing,omitempty"`
	Debian  []string  `json:"debian,omitempty"`
	// Apt reports what --install-system-deps did.
	Apt *AptReport `json:"apt,omitempty"`

	requires string   // requires-python
	imports  []string // the repository's third-party imports
	src      string   // the package's source directory, relative to the repo ("" for the root)
}

// VenvPython is the venv's interpreter, relative to the repo.
func (e *PythonEnv) VenvPython() string { return e.Venv + "/bin/python" }

// probeSource reports an interpreter and which of the modules given as
// arguments it can import (without importing them).
//
//go:embed pyprobe.py
var probeSource string

// pythonCandidates lists the interpreters to consider: python3 and
// python3.N on the environment's PATH, then the system's fixed places.
func pythonCandidates(env []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			seen[p] = true
			out = append(out, p)
		}
	}
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	dirs := filepath.SplitList(path)
	for _, d := range dirs {
		add(filepath.Join(d, "python3"))
	}
	for _, d := range dirs {
		for minor := 20; minor >= 8; minor-- {
			add(filepath.Join(d, fmt.Sprintf("python3.%d", minor)))
		}
	}
	add("/usr/bin/python3")
	add("/usr/local/bin/python3")
	return out
}

// probePythons asks each candidate interpreter about itself and the
// modules; interpreters that fail to answer are left out. Two paths to the
// same binary count once.
func probePythons(ctx context.Context, env []string, modules []string) []*Python {
	cands := pythonCandidates(env)
	results := make([]*proc.Result, len(cands))
	var wg sync.WaitGroup
	for i, c := range cands {
		wg.Go(func() {
			results[i] = proc.Run(ctx, proc.Spec{Argv: append([]string{c, "-c", probeSource}, modules...), Env: env, Timeout: probeLimit(loadAverage(), runtime.NumCPU())})
		})
	}
	wg.Wait()
	var out []*Python
	seen := map[string]bool{}
	for i, c := range cands {
		res := results[i]
		if res.Err != nil {
			continue
		}
		var p Python
		if json.Unmarshal(lastLine(res.Stdout), &p) != nil || len(p.Version) < 2 || p.Version[0] != 3 {
			continue
		}
		p.Path = c
		key := p.Exe
		if real, err := filepath.EvalSymlinks(p.Exe); err == nil {
			key = real
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, &p)
	}
	return out
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// choosePython picks the interpreter that can import most of the
// repository's third-party modules and satisfies its requires-python; on a
// tie, one that sees Debian's packages (so that apt-get can supply what is
// missing), then one with venv and pip, then PATH order.
func choosePython(cands []*Python, requires string, preferDebian bool) *Python {
	var best *Python
	bestScore := -1
	for _, p := range cands {
		if !p.Venv || !satisfies(p.Version, requires) {
			continue
		}
		score := 100 * len(p.Found)
		if preferDebian && p.Debian {
			score += 100000
		}
		if p.Debian {
			score += 10
		}
		if p.Pip {
			score += 5
		}
		if score > bestScore {
			best, bestScore = p, score
		}
	}
	if best == nil && len(cands) > 0 {
		best = cands[0]
	}
	return best
}

var specifierRE = lazyregexp.New(`(>=|>|<=|<|==|~=|!=)\s*([0-9]+)(?:\.([0-9]+))?`)

// satisfies checks a version against a requires-python specifier's
// major.minor bounds ("">=3.9, <4"); anything it cannot read is satisfied.
func satisfies(v []int, spec string) bool {
	if len(v) < 2 {
		return true
	}
	cur := v[0]*100 + v[1]
	for _, m := range specifierRE.FindAllStringSubmatch(spec, -1) {
		major, _ := strconv.Atoi(m[2])
		minor, _ := strconv.Atoi(m[3])
		want := major*100 + minor
		switch m[1] {
		case ">=", "~=":
			if cur < want {
				return false
			}
		case ">":
			if cur < want || cur == want && m[3] == "" {
				return false
			}
		case "<":
			if cur >= want {
				return false
			}
		case "<=":
			if cur > want {
				return false
			}
		case "==":
			if m[3] != "" && cur != want || m[3] == "" && v[0] != major {
				return false
			}
		}
	}
	return true
}

// setupSource (pysetup.py) builds the environment in the repository directory. It chooses
// the interpreter as choosePython does — the one that can import most of
// the modules named, within REQUIRES (requires-python), preferring one that
// sees Debian's packages, then one with pip — among python3 and python3.N
// on PATH and the system's fixed places, so that the bundle names no
// machine path and chooses again wherever it is set up. Then a venv with
// the system's site packages at VENV, and the repository installed into it
// without network or build isolation; when installing fails (or there is no
// packaging metadata) the source directory SRC is put on the venv's path
// instead. Its last line is "agentnet-env JSON": the interpreter, what
// happened and, on failure, the reason in the build's own words.
// Arguments: VENV SRC REQUIRES MODULE...
//
//go:embed pysetup.py
var setupSource string

// envSource is pysetup.py with pyprobe.py in it.
var envSource = sync.OnceValue(func() string {
	return strings.Replace(setupSource, probeMarker, `PROBE = r"""`+probeSource+`"""`, 1)
})

// probeMarker is the line of pysetup.py that the probe's text replaces.
const probeMarker = "PROBE = None  # the generator puts the text of pyprobe.py here"

// envStatus is envSource's last line.
type envStatus struct {
	Python       string   `json:"python"`
	Version      []int    `json:"version"`
	Installed    bool     `json:"installed"`
	Reason       string   `json:"reason"`
	MissingBuild []string `json:"missing_build"`
}

func parseEnvStatus(out []byte) (*envStatus, bool) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var st *envStatus
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "agentnet-env "); ok {
			var s envStatus
			if json.Unmarshal([]byte(v), &s) == nil {
				st = &s
			}
		}
	}
	return st, st != nil
}

// envScript is where the environment's setup script is written, relative
// to the bundle's copy of the repository.
const envScript = ".agentnet/python-env.py"

// envSetup is the setup command that builds the environment. Any python3
// on PATH can start it: the script chooses the interpreter itself.
func (e *PythonEnv) envSetup(src string) []string {
	return append([]string{"python3", envScript, e.Venv, orDot(src), e.requires}, e.imports...)
}

// SetupCommand writes the script that builds this environment into the
// copy of the repository at dir (under .agentnet/) and returns the setup
// command that runs it there: the static generator's own environment
// synthesis, for the other generators' bundles to start with. It chooses
// the interpreter, makes the venv with the system's site packages and
// installs the repository into it without network.
func (e *PythonEnv) SetupCommand(dir string) ([]string, error) {
	if err := writeFiles(dir, dir, []*Tool{{Files: envFiles()}}); err != nil {
		return nil, err
	}
	return e.envSetup(e.src), nil
}

// envFiles are the files the environment's setup needs.
func envFiles() map[string][]byte {
	return map[string][]byte{envScript: []byte("# The environment of a Python repository, generated by agentnet's static generator.\n" + envSource())}
}

// buildEnv runs the environment's setup in dir at generation time and
// records the outcome (installed, or why not).
func (e *PythonEnv) build(ctx context.Context, dir, src string, env []string, limit setupLimit, logw io.Writer) error {
	if err := writeFiles(dir, dir, []*Tool{{Files: envFiles()}}); err != nil {
		return err
	}
	argv := expandRepo(e.envSetup(src), dir, dir)
	fmt.Fprintf(logw, "$ %s\n", shortCommand(argv))
	res := proc.Run(ctx, proc.Spec{Argv: argv, Dir: dir, Env: env, Timeout: limit.d, Tee: logw})
	if res.Err != nil {
		return fmt.Errorf("create the Python environment with %s: %w", e.Python.Exe, slowError(res, res.Err, limit.why))
	}
	st, ok := parseEnvStatus(res.Stdout)
	if !ok {
		return fmt.Errorf("create the Python environment with %s: no status reported", e.Python.Exe)
	}
	e.Installed, e.Reason = st.Installed, st.Reason
	if st.Python != e.Python.Exe {
		// The setup chose another interpreter than the analysis did (it
		// sees the packages apt-get just installed, say): record it.
		for _, c := range e.Candidates {
			if c.Exe == st.Python {
				e.Python = c
			}
		}
		fmt.Fprintf(logw, "# setup chose %s\n", st.Python)
	}
	for _, m := range st.MissingBuild {
		if !slices.ContainsFunc(e.Missing, func(x Missing) bool { return x.Module == m }) {
			e.Missing = append(e.Missing, Missing{Module: m, Debian: debianPackage(m)})
		}
	}
	return nil
}

// Environment scans the Python repository at dir and chooses its
// interpreter; with opts.InstallSystemDeps it first installs the Debian
// packages of the modules the repository imports and no interpreter has.
// It builds nothing in dir. It returns nil for a repository without Python.
// Generators other than the static one use it to get the same environment.
func Environment(ctx context.Context, dir string, opts Options) (*PythonEnv, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	r, err := scan(abs, filepath.Base(abs))
	if err != nil {
		return nil, fmt.Errorf("analyse %s: %w", dir, err)
	}
	sc, err := pythonScan(ctx, r, opts.Env)
	if err != nil || sc == nil {
		return nil, err
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	return pythonEnvironment(ctx, sc, opts, logw)
}
