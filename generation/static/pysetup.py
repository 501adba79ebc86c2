import json, os, re, subprocess, sys
venv_dir, src, requires, modules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
root = os.getcwd()
PROBE = None  # the generator puts the text of pyprobe.py here


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
