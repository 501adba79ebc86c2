package static

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

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
const probeSource = `import json, sys, importlib.util
found = []
for m in sys.argv[1:]:
    try:
        if importlib.util.find_spec(m) is not None:
            found.append(m)
    except Exception:
        pass
try:
    import venv
    has_venv = True
except Exception:
    has_venv = False
pip = importlib.util.find_spec("pip") is not None
debian = any(p.rstrip("/").endswith("dist-packages") and p.startswith("/usr/lib/python3") for p in sys.path)
print(json.dumps({"exe": sys.executable, "version": list(sys.version_info[:3]), "venv": has_venv, "pip": pip, "debian": debian, "found": found}))
`

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
			results[i] = proc.Run(ctx, proc.Spec{Argv: append([]string{c, "-c", probeSource}, modules...), Env: env, Timeout: 20 * time.Second})
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

// envSource builds the environment in the repository directory. It chooses
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
const envSource = `import json, os, re, subprocess, sys
venv_dir, src, requires, modules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
root = os.getcwd()
PROBE = r"""` + probeSource + `"""


def satisfies(v, spec):
    cur = v[0] * 100 + v[1]
    for op, major, minor in re.findall(r"(>=|>|<=|<|==|~=|!=)\s*([0-9]+)(?:\.([0-9]+))?", spec):
        want = int(major) * 100 + int(minor or 0)
        if op in (">=", "~=") and cur < want or op == ">" and (cur < want or cur == want and not minor):
            return False
        if op == "<" and cur >= want or op == "<=" and cur > want:
            return False
        if op == "==" and (minor and cur != want or not minor and v[0] != int(major)):
            return False
    return True


def relocate_scripts(bindir):
    """Make the console scripts pip wrote start the venv's interpreter through
    their own directory rather than by its absolute path, which is wrong once
    the bundle moves (into its final place, or into an image)."""
    heads = set()
    for d in (os.path.abspath(bindir), os.path.realpath(bindir)):
        heads.add(("#!" + d + "/").encode())
        heads.add(("'''exec' \"" + d + "/").encode())
        heads.add(("'''exec' " + d + "/").encode())
    for name in sorted(os.listdir(bindir)):
        p = os.path.join(bindir, name)
        if os.path.islink(p) or not os.path.isfile(p):
            continue
        with open(p, "rb") as fh:
            data = fh.read()
        lines = data.split(b"\n", 3)
        if len(lines) < 2 or not lines[0].startswith(b"#!"):
            continue
        if any(lines[0].startswith(h) for h in heads):
            interp, rest = lines[0][2:].split()[0], lines[1:]
        elif lines[0].strip() == b"#!/bin/sh" and len(lines) > 3 and any(lines[1].startswith(h) for h in heads) and lines[2].startswith(b"' '''"):
            # pip's own form for an interpreter path too long for a shebang.
            interp, rest = lines[1].split(b" ")[1].strip(b'"'), lines[3:]
        else:
            continue
        exe = os.path.basename(interp.decode())
        head = "#!/bin/sh\n'''exec' \"${0%%/*}/%s\" \"$0\" \"$@\"\n' '''\n" % exe
        with open(p, "wb") as fh:
            fh.write(head.encode() + b"\n".join(rest))


def project_table():
    """The pyproject's [project] table (or poetry's), with tomllib when the
    interpreter has it, else read line by line for its plain keys and its
    entry point tables."""
    if not os.path.exists("pyproject.toml"):
        return None
    text = open("pyproject.toml", encoding="utf-8", errors="replace").read()
    try:
        import tomllib
    except ImportError:
        tomllib = None
    if tomllib is not None:
        try:
            doc = tomllib.loads(text)
        except Exception:
            return None
        proj = doc.get("project")
        if not isinstance(proj, dict):
            poetry = doc.get("tool", {}).get("poetry")
            if not isinstance(poetry, dict):
                return None
            proj = {"name": poetry.get("name"), "version": poetry.get("version"), "description": poetry.get("description"), "scripts": poetry.get("scripts", {})}
        return proj
    proj, table = {}, None
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"^\[\s*([^\]]+?)\s*\]$", line)
        if m:
            key = m.group(1).replace('"', "").replace("'", "")
            if key == "project":
                table = proj
            elif key in ("project.scripts", "project.gui-scripts"):
                table = proj.setdefault(key.split(".", 1)[1], {})
            elif key.startswith("project.entry-points."):
                table = proj.setdefault("entry-points", {}).setdefault(key[len("project.entry-points."):], {})
            else:
                table = None
            continue
        m = re.match(r"""^["']?([A-Za-z0-9_.-]+)["']?\s*=\s*(["'])(.*)\2\s*(#.*)?$""", line)
        if table is not None and m:
            table[m.group(1)] = m.group(3)
        m = re.match(r"^dynamic\s*=\s*\[(.*)\]", line)
        if table is proj and m:
            proj["dynamic"] = re.findall(r"""["']([^"']+)["']""", m.group(1))
    return proj or None


def write_dist_info(purelib, proj):
    """Write the metadata an install would (METADATA, entry_points.txt) for
    a package run from source, so that importlib.metadata finds its name,
    version and entry points. A version the build computes is unknown:
    0+unknown. Returns the directory written, or None."""
    name, version = proj.get("name"), proj.get("version")
    if not isinstance(name, str) or not re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", name):
        return None
    if not isinstance(version, str) or not version or "version" in (proj.get("dynamic") or []):
        version = "0+unknown"
    d = os.path.join(purelib, "%s-%s.dist-info" % (re.sub(r"[-_.]+", "_", name), version.replace("-", "_")))
    os.makedirs(d, exist_ok=True)
    meta = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version)
    if isinstance(proj.get("description"), str) and "\n" not in proj["description"]:
        meta += "Summary: %s\n" % proj["description"]
    groups = {"console_scripts": proj.get("scripts"), "gui_scripts": proj.get("gui-scripts")}
    for group, eps in (proj.get("entry-points") or {}).items():
        groups[group] = eps
    eps = ""
    for group, entries in groups.items():
        if isinstance(entries, dict) and entries:
            eps += "[%s]\n" % group + "".join("%s = %s\n" % (k, v) for k, v in entries.items() if isinstance(v, str)) + "\n"
    files = {"METADATA": meta, "entry_points.txt": eps, "RECORD": "", "INSTALLER": "agentnet\n"}
    for f, content in files.items():
        with open(os.path.join(d, f), "w") as fh:
            fh.write(content)
    return d


def remove_dist_infos(purelib):
    """Remove the metadata write_dist_info wrote (its INSTALLER is agentnet)."""
    import shutil
    for e in os.listdir(purelib):
        p = os.path.join(purelib, e, "INSTALLER")
        if e.endswith(".dist-info") and os.path.isfile(p) and open(p).read().strip() == "agentnet":
            shutil.rmtree(os.path.join(purelib, e))


cands, seen = [], set()
dirs = os.environ.get("PATH", os.pathsep.join(["/usr/local/bin", "/usr/bin", "/bin"])).split(os.pathsep)
names = [os.path.join(d, "python3") for d in dirs] + [os.path.join(d, "python3.%d" % m) for d in dirs for m in range(20, 7, -1)] + ["/usr/bin/python3", "/usr/local/bin/python3"]
procs, real = [], set()
for c in names:
    if c in seen or not os.path.isfile(c) or not os.access(c, os.X_OK):
        continue
    seen.add(c)
    try:
        procs.append(subprocess.Popen([c, "-c", PROBE] + modules, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
    except OSError:
        pass
for p in procs:
    try:
        out, _ = p.communicate(timeout=20)
        info = json.loads(out.strip().splitlines()[-1])
    except Exception:
        p.kill()
        continue
    if info["version"][0] != 3 or os.path.realpath(info["exe"]) in real:
        continue
    real.add(os.path.realpath(info["exe"]))
    cands.append(info)
best, best_score = None, -1
for info in cands:
    if not info["venv"] or not satisfies(info["version"], requires):
        continue
    score = 100 * len(info["found"]) + (10 if info["debian"] else 0) + (5 if info["pip"] else 0)
    if score > best_score:
        best, best_score = info, score
if best is None:
    sys.exit("no python3 interpreter with the venv module%s (Debian: python3-venv)" % (" for requires-python " + requires if requires else ""))
py = os.path.join(venv_dir, "bin", "python")
if os.path.exists(py) and os.path.realpath(py) != os.path.realpath(best["exe"]):
    import shutil
    shutil.rmtree(venv_dir)
subprocess.run([best["exe"], "-m", "venv", "--system-site-packages", "--without-pip", venv_dir], check=True)
purelib = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True).stdout.strip()
# A build that reads its version from git history says so in one of
# these ways; PRETEND_VERSION are the variables by which the versioning
# plugins of Python packaging take a stated version instead
# (setuptools-scm and hatch-vcs, pdm-backend, pbr, poetry-dynamic-versioning).
VERSION_FROM_VCS = r"(?i)(?:unable to detect version|could not (?:determine|detect|find|get) (?:the )?(?:package )?version|version could not be (?:determined|detected)|unable to get version number from git|not a git repository)"
PRETEND_VERSION = {
    "SETUPTOOLS_SCM_PRETEND_VERSION": "0+unknown",
    "PDM_BUILD_SCM_VERSION": "0+unknown",
    "PBR_VERSION": "0.0.0",
    "POETRY_DYNAMIC_VERSIONING_BYPASS": "0+unknown",
}
pth = os.path.join(purelib, "agentnet-source.pth")
remove_dist_infos(purelib)
status = {"python": best["exe"], "version": best["version"], "installed": False, "reason": "", "missing_build": []}
meta = [f for f in ("pyproject.toml", "setup.py", "setup.cfg") if os.path.exists(f)]
has_build = os.path.exists("setup.py") or os.path.exists("setup.cfg")
if os.path.exists("pyproject.toml"):
    text = open("pyproject.toml", encoding="utf-8", errors="replace").read()
    has_build = has_build or "[build-system]" in text or "[project]" in text or "[tool.poetry]" in text
if not meta or not has_build:
    status["reason"] = "no packaging metadata (pyproject.toml with [build-system] or [project], setup.py, setup.cfg): runs from source"
elif not best["pip"]:
    status["reason"] = "pip is not available to the interpreter (Debian: python3-pip): runs from source"
else:
    pip = [py, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index", "--disable-pip-version-check",
           "--no-input", "--no-cache-dir", "--no-warn-script-location", "."]
    r = subprocess.run(pip, capture_output=True, text=True, env=dict(os.environ, PIP_NO_INPUT="1"))
    sys.stderr.write(r.stdout[-6000:] + r.stderr[-6000:])
    if r.returncode != 0 and re.search(VERSION_FROM_VCS, r.stdout + r.stderr):
        # A copy without git metadata: the versioning plugins that read
        # the version from git accept a stated one instead, each by its
        # own variable.
        r2 = subprocess.run(pip, capture_output=True, text=True, env=dict(os.environ, PIP_NO_INPUT="1", **PRETEND_VERSION))
        sys.stderr.write(r2.stdout[-6000:] + r2.stderr[-6000:])
        r = r2
        if r2.returncode == 0:
            status["reason"] = "no git metadata for the version: installed as version 0+unknown"
    if r.returncode == 0:
        status["installed"] = True
        relocate_scripts(os.path.join(venv_dir, "bin"))
    else:
        out = r.stdout + "\n" + r.stderr
        lines = [l.strip() for l in out.splitlines() if l.strip()]
        for m in re.finditer(r"No module named '([A-Za-z0-9_.]+)'", out):
            if m.group(1).split(".")[0] not in status["missing_build"]:
                status["missing_build"].append(m.group(1).split(".")[0])
        m = re.search(r"No module named '([A-Za-z0-9_.]+)'", out)
        scm = re.search(VERSION_FROM_VCS + r"[^\n]*", out)
        nofile = re.search(r"(?:FileNotFoundError|OSError|IOError): \[Errno 2\] No such file or directory: '([^']+)'", out)
        rejected = re.search(r"(Unknown classifier[^\n]*|ValueError: [^\n]*(?:field|metadata|license)[^\n]*|configuration error: .*|invalid pyproject\.toml config: .*|ValueError: invalid pyproject\.toml.*|InvalidRequirement: .*|InvalidVersion: .*|InvalidSpecifier: .*|error in .* setup command: .*|packaging\.\S+: .*)", out)
        if m:
            reason = "the build needs the Python module %s, which is not installed" % m.group(1)
        elif scm:
            reason = "the build needs version metadata from git that the copy lacks (%s)" % scm.group(0).strip()
        elif nofile:
            reason = "the build needs the file %s, which the repository does not contain (a generated file?)" % nofile.group(1)
        elif rejected:
            reason = "the system's build tools reject the packaging metadata: %s" % rejected.group(1).strip()
        else:
            errs = [l for l in lines if re.match(r"(?i)^(error|\w+error|\w+exception)\b", l) and "subprocess-exited-with-error" not in l and "metadata-generation-failed" not in l]
            reason = (errs[-1] if errs else (lines[-1] if lines else "pip failed"))[:400]
        status["reason"] = "pip install failed: " + reason + "; runs from source"
if not status["installed"]:
    with open(pth, "w") as fh:
        # Relative to site-packages, so that the bundle can move.
        fh.write(os.path.relpath(os.path.join(root, src), purelib) + "\n")
    # The package's own code may ask for its metadata (its version, its
    # entry points), which only an install writes.
    proj = project_table()
    d = proj and write_dist_info(purelib, proj)
    if d:
        status["reason"] += "; wrote its metadata (%s) for importlib.metadata" % os.path.basename(d)
elif os.path.exists(pth):
    os.remove(pth)
print("agentnet-env " + json.dumps(status))
`

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
	return map[string][]byte{envScript: []byte("# The environment of a Python repository, generated by agentnet's static generator.\n" + envSource)}
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
