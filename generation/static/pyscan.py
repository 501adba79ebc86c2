"""Read a Python repository with the ast module and print, as JSON, its
entry points (console scripts, __main__ modules, scripts), the argparse and
click command lines they build, their docstrings and the imports that the
interpreter cannot find. Run: python3 pyscan.py REPO_DIR. Never imports the
repository's code."""

import ast
import configparser
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1])
SKIP = {".git", ".agentnet", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build", "dist",
        "site-packages", "docs", "doc", "examples", "example", "tests", "test", "testing", "benchmarks"}
MAX = 2 << 20


def read(rel):
    p = os.path.join(ROOT, rel)
    if os.path.islink(p) or not os.path.isfile(p) or os.path.getsize(p) > MAX:
        return None
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def parse(rel):
    src = read(rel)
    if src is None:
        return None
    try:
        return ast.parse(src, filename=rel)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # a file nested too deep to parse is read as unreadable


def const(node):
    """The value of a literal expression, or None."""
    try:
        return ast.literal_eval(node)
    except Exception:
        pass
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = const(node.left), const(node.right)
        if isinstance(a, str) and isinstance(b, str):
            return a + b
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "..." for v in node.values)
    return None


def name_of(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = name_of(node.value)
        return (base + "." if base else "") + node.attr
    if isinstance(node, ast.Call):
        return name_of(node.func)
    return ""


def kwargs(call):
    return {k.arg: k.value for k in call.keywords if k.arg}


TYPES = {"int": "integer", "long": "integer", "float": "number", "str": "string", "bool": "boolean",
         "Path": "string", "pathlib.Path": "string", "FileType": "string", "argparse.FileType": "string",
         "open": "string"}


def writes(type_node):
    """Whether a file type opens its file for writing: FileType("w"),
    click.File("wb"), click.File(mode="a")."""
    if not isinstance(type_node, ast.Call):
        return False
    mode = const(type_node.args[0]) if type_node.args else const(kwargs(type_node).get("mode"))
    return isinstance(mode, str) and mode[:1] in ("w", "a", "x")


def argument(call, funcdocs):
    """One add_argument call as a dict."""
    names = [const(a) for a in call.args if isinstance(const(a), str)]
    kw = kwargs(call)
    out = {"names": names}
    for key in ("help", "metavar", "dest", "nargs", "action", "required", "default", "choices", "const"):
        if key in kw:
            v = const(kw[key])
            if v is not None or key == "default":
                if key == "metavar" and isinstance(v, tuple):
                    v = " ".join(v)
                if isinstance(v, (set, frozenset)):
                    v = sorted(v)
                if isinstance(v, tuple):
                    v = list(v)
                try:
                    json.dumps(v)
                except (TypeError, ValueError):
                    v = None
                out[key] = v
    if "type" in kw:
        t = name_of(kw["type"]) or const(kw["type"])  # optparse names its types: type="int"
        t = t if isinstance(t, str) else ""
        out["type"] = TYPES.get(t, TYPES.get(t.split(".")[-1], "string"))
        if t.split(".")[-1] in ("Path", "FileType", "open"):
            out["path"] = True
            out["output"] = writes(kw["type"])
    elif out.get("action") == "callback":
        # optparse: a callback without a type takes no value.
        out["action"] = "store_true"
    return out


class ArgparseReader(ast.NodeVisitor):
    """Builds parser trees from ArgumentParser / add_subparsers / add_parser /
    add_argument calls. Variables are tracked per module (parsers built in
    helper functions that receive a subparsers object attach to the last
    subparsers seen)."""

    def __init__(self, funcdocs, parser_classes=()):
        self.funcdocs = funcdocs
        # The module's own subclasses of ArgumentParser or OptionParser.
        self.parser_classes = set(parser_classes)
        self.vars = {}        # variable name -> parser dict
        self.subvars = {}     # variable name -> parser dict owning the subparsers
        self.roots = []
        self.last_sub_owner = None
        self.funcs = []       # the functions being read, innermost last

    def visit_FunctionDef(self, node):
        self.funcs.append(node.name)
        self.generic_visit(node)
        self.funcs.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def new_parser(self, call, name=""):
        kw = kwargs(call)
        p = {"name": name, "args": [], "subs": []}
        for key in ("prog", "description", "epilog", "help", "usage"):
            if key in kw and isinstance(const(kw[key]), str):
                p[key] = const(kw[key])
        if "aliases" in kw:
            p["aliases"] = const(kw["aliases"]) or []
        return p

    def visit_Assign(self, node):
        self.visit(node.value)
        if isinstance(node.value, ast.Call):
            self.bind(node.targets, node.value)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)
            if isinstance(node.value, ast.Call):
                self.bind([node.target], node.value)

    def visit_With(self, node):
        self.generic_visit(node)

    def bind(self, targets, call):
        fn = name_of(call.func)
        res = self.evaluate(call)
        if res is None:
            return
        kind, obj = res
        for t in targets:
            if isinstance(t, ast.Name):
                if kind == "parser":
                    self.vars[t.id] = obj
                elif kind == "subs":
                    self.subvars[t.id] = obj

    def receiver(self, call):
        if isinstance(call.func, ast.Attribute):
            v = call.func.value
            if isinstance(v, ast.Name):
                return v.id
        return None

    def evaluate(self, call):
        """Returns (kind, object) for calls that make parsers, or None."""
        if not isinstance(call, ast.Call):
            return None
        fn = name_of(call.func)
        last = fn.split(".")[-1]
        recv = self.receiver(call)
        if last.endswith("ArgumentParser") or last.endswith("OptionParser") or last in self.parser_classes:
            p = self.new_parser(call)
            p["_func"] = self.funcs[-1] if self.funcs else ""
            self.roots.append(p)
            return ("parser", p)
        if last == "add_subparsers":
            owner = self.vars.get(recv) if recv else None
            if owner is None and isinstance(call.func, ast.Attribute):
                inner = self.evaluate(call.func.value) if isinstance(call.func.value, ast.Call) else None
                if inner and inner[0] == "parser":
                    owner = inner[1]
            if owner is None:
                owner = self.roots[-1] if self.roots else None
            if owner is None:
                return None
            kw = kwargs(call)
            for key in ("title", "description", "metavar", "dest"):
                if key in kw and isinstance(const(kw[key]), str):
                    owner["subs_" + key] = const(kw[key])
            self.last_sub_owner = owner
            return ("subs", owner)
        if last == "add_parser":
            owner = self.subvars.get(recv) if recv else None
            if owner is None:
                owner = self.last_sub_owner
            if owner is None:
                return None
            name = const(call.args[0]) if call.args else const(kwargs(call).get("name"))
            if not isinstance(name, str):
                return None
            p = self.new_parser(call, name)
            owner["subs"].append(p)
            return ("parser", p)
        if last in ("add_argument_group", "add_mutually_exclusive_group"):
            owner = self.vars.get(recv) if recv else None
            if owner is not None:
                return ("parser", owner)
        if last == "OptionGroup" and call.args and isinstance(call.args[0], ast.Name):
            # optparse's OptionGroup(parser, title): its options are the parser's.
            owner = self.vars.get(call.args[0].id)
            if owner is not None:
                return ("parser", owner)
        return None

    def visit_Call(self, node):
        self.generic_visit(node)
        fn = name_of(node.func)
        last = fn.split(".")[-1]
        recv = self.receiver(node)
        if last in ("add_argument", "add_option"):
            target = self.vars.get(recv) if recv else None
            if target is None and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Call):
                inner = self.evaluate(node.func.value)
                if inner and inner[0] == "parser":
                    target = inner[1]
            if target is not None:
                a = argument(node, self.funcdocs)
                if last == "add_option":
                    # optparse's dest is a program's variable, often one
                    # for several options (store_const), not their name.
                    a.pop("dest", None)
                target["args"].append(a)
        elif last == "set_defaults":
            target = self.vars.get(recv) if recv else None
            if target is not None:
                for k in node.keywords:
                    if k.arg in ("func", "handler", "cmd", "command", "run") and isinstance(k.value, (ast.Name, ast.Attribute)):
                        doc = self.funcdocs.get(name_of(k.value).split(".")[-1])
                        if doc:
                            target["doc"] = doc


CLICK_TYPES = {"INT": "integer", "int": "integer", "FLOAT": "number", "float": "number",
               "BOOL": "boolean", "bool": "boolean", "IntRange": "integer", "FloatRange": "number"}


def click_param(call, last):
    """One click.option / click.argument call as a dict: its names, help,
    default, type (a click.Choice's values as choices, a click.Path or
    click.File as a path) and, for
    an argument, whether it may be left out (required=False, a default, or
    nargs=-1 without required=True)."""
    a = {"names": [const(x) for x in call.args if isinstance(const(x), str)]}
    kw = kwargs(call)
    for key in ("help", "default", "required", "is_flag", "multiple", "nargs", "metavar", "show_default"):
        if key in kw:
            v = const(kw[key])
            try:
                json.dumps(v)
                a[key] = v
            except (TypeError, ValueError):
                pass
    if "type" in kw:
        t = name_of(kw["type"])
        tl = t.split(".")[-1]
        a["type"] = CLICK_TYPES.get(tl, "string")
        if tl in ("Path", "File"):
            a["path"] = True
            a["output"] = tl == "File" and writes(kw["type"])
        if tl == "Choice" and isinstance(kw["type"], ast.Call) and kw["type"].args:
            ch = const(kw["type"].args[0])
            if isinstance(ch, (list, tuple)):
                a["choices"] = list(ch)
    a["kind"] = last
    if last == "argument":
        nargs = a.get("nargs")
        a["optional"] = a.get("required") is False or "default" in kw or nargs == -1 and a.get("required") is not True
    return a


def click_call(node):
    """The kind of a click.option / click.argument call, or ""."""
    if isinstance(node, ast.Call):
        last = name_of(node.func).split(".")[-1]
        if last in ("option", "argument") and "." in name_of(node.func):
            return last
    return ""


def shared_click_params(tree):
    """Options shared between commands, by the name a command's decorator
    uses: a variable holding a click.option call, a tuple of them (or a
    sum of such tuples), or a function whose body makes them (a decorator
    factory that applies them in a loop). Each maps to its parameters in
    the order they are written."""
    shared = {}

    def params_of(node):
        out = []
        if click_call(node):
            return [click_param(node, click_call(node))]
        if isinstance(node, (ast.Tuple, ast.List)):
            for el in node.elts:
                out.extend(params_of(el))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            out = params_of(node.left) + params_of(node.right)
        elif isinstance(node, ast.Name) and node.id in shared:
            out = list(shared[node.id])
        return out

    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            ps = params_of(st.value)
            if ps:
                shared[st.targets[0].id] = ps
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and not st.decorator_list:
            ps = []
            for n in ast.walk(st):
                if isinstance(n, (ast.Tuple, ast.List, ast.BinOp)) or click_call(n) and not ps:
                    got = params_of(n)
                    if len(got) > len(ps):
                        ps = got
            if ps:
                shared[st.name] = ps
    return shared


def typer_type(ann, enums):
    """(type, multiple, choices, path) of a typer parameter's annotation."""
    text = unparse(ann)
    m = re.match(r"^(?:typing\.)?Optional\[(.*)\]$", text) or re.match(r"^(.*?)\s*\|\s*None$", text)
    if m:
        text = m.group(1)
    multiple = False
    m = re.match(r"^(?:typing\.)?(?:List|list|Sequence|Tuple|tuple)\[(.*?)(?:,\s*\.\.\.)?\]$", text)
    if m:
        text, multiple = m.group(1), True
    base = text.split(".")[-1]
    typ = {"int": "integer", "float": "number", "bool": "boolean"}.get(base, "string")
    return typ, multiple, [v for _, v in enums.get(base, [])], base in ("Path", "FileText", "FileBinaryRead", "FileTextWrite", "FileBinaryWrite")


def typer_params(node, enums):
    """The parameters of a typer command, from its signature: a parameter
    whose default (or Annotated metadata) is typer.Option / typer.Argument
    is what that says; one with no default is a required argument; one with
    a plain default is an option named after it."""
    a = node.args
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    out = []
    for arg, d in list(zip(pos, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults)):
        ann, info = arg.annotation, None
        if isinstance(ann, ast.Subscript) and name_of(ann.value).split(".")[-1] == "Annotated" and isinstance(ann.slice, ast.Tuple):
            ann, metas = ann.slice.elts[0], ann.slice.elts[1:]
            for meta in metas:
                if isinstance(meta, ast.Call) and name_of(meta.func).split(".")[-1] in ("Option", "Argument"):
                    info = meta
        if info is None and isinstance(d, ast.Call) and name_of(d.func).split(".")[-1] in ("Option", "Argument"):
            info, d = d, (d.args[0] if d.args else kwargs(d).get("default"))
        kind = "argument" if info is None and d is None or info is not None and name_of(info.func).endswith("Argument") else "option"
        typ, multiple, choices, path = typer_type(ann, enums)
        p = {"kind": kind, "names": [arg.arg] if kind == "argument" else []}
        if info is not None:
            kw = kwargs(info)
            p["names"] += [c for c in (const(x) for x in info.args) if isinstance(c, str) and c.startswith("-")]
            if isinstance(const(kw.get("help")), str):
                p["help"] = const(kw["help"])
            if "default" in kw:
                d = kw["default"]
        if kind == "option" and not p["names"]:
            p["names"] = ["--" + arg.arg.replace("_", "-")]
        required = d is None or isinstance(d, ast.Constant) and d.value is Ellipsis
        if isinstance(d, ast.Attribute) and name_of(d.value) in enums:
            d = ast.Constant(dict(enums[name_of(d.value)]).get(d.attr))  # Fit.cover: its value
        if not required:
            v, ok = literal(d)
            if ok and v is not None:
                p["default"] = v
        p["required"] = required
        if kind == "argument":
            p["optional"] = not required
            if multiple:
                p["nargs"] = -1
        elif multiple:
            p["multiple"] = True
        if typ == "boolean" and kind == "option":
            p["is_flag"] = True
        if typ != "string":
            p["type"] = typ
        if choices:
            p["choices"] = choices
        if path:
            p["path"] = True
        out.append(p)
    return out


def module_enums(tree):
    """The members (name, value) of the string Enum classes a module
    defines: typer takes an Enum-typed parameter's values as its choices."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(name_of(b).split(".")[-1] in ("Enum", "StrEnum", "str") for b in node.bases) and \
                any(name_of(b).split(".")[-1].endswith("Enum") for b in node.bases):
            vals = []
            for st in node.body:
                if isinstance(st, ast.Assign) and isinstance(const(st.value), str) and isinstance(st.targets[0], ast.Name):
                    vals.append((st.targets[0].id, const(st.value)))
            if vals:
                out[node.name] = vals
    return out


def click_tree(tree, funcdocs):
    """Commands built with click, or with typer (whose parameters are the
    function's own)."""
    try:
        shared = shared_click_params(tree)
    except RecursionError:  # a sum of thousands of tuples: read no shared options
        shared = {}
    typer_apps = set()
    typer_run = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and name_of(node.value.func).split(".")[-1] == "Typer":
            typer_apps.update(t.id for t in node.targets if isinstance(t, ast.Name))
        if isinstance(node, ast.Call) and name_of(node.func) == "typer.run" and node.args and isinstance(node.args[0], ast.Name):
            typer_run.add(node.args[0].id)
    enums = module_enums(tree) if typer_apps or typer_run else {}
    groups, cmds = {}, []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        info = None
        params = []
        for dec in node.decorator_list:
            dn = name_of(dec.func) if isinstance(dec, ast.Call) else name_of(dec)
            if dn in shared:
                params.extend(shared[dn])
                continue
            if not isinstance(dec, ast.Call):
                if dn.endswith(".command") or dn.endswith(".group") or dn in ("command", "group"):
                    info = {"kind": "group" if dn.endswith("group") else "command", "parent": dn.rsplit(".", 1)[0] if "." in dn else "", "call": None}
                continue
            last = dn.split(".")[-1]
            if last in ("command", "group", "callback"):
                parent = dn.rsplit(".", 1)[0] if "." in dn else ""
                if last == "callback" and parent not in typer_apps:
                    continue
                if parent in ("click", "cloup"):
                    parent = ""
                info = {"kind": "group" if last == "group" else last, "parent": parent, "call": dec}
            elif last in ("option", "argument"):
                params.append(click_param(dec, last))
        if info is None and node.name in typer_run:
            info = {"kind": "command", "parent": "", "call": None}
        if info is None:
            continue
        typer = info["parent"] in typer_apps or node.name in typer_run
        if typer:
            try:
                params = typer_params(node, enums)
            except RecursionError:
                params = []
        name = node.name.replace("_", "-")
        help_text = ""
        if info["call"] is not None:
            if info["call"].args and isinstance(const(info["call"].args[0]), str):
                name = const(info["call"].args[0])
            kw = kwargs(info["call"])
            if "name" in kw and isinstance(const(kw["name"]), str):
                name = const(kw["name"])
            if "help" in kw and isinstance(const(kw["help"]), str):
                help_text = const(kw["help"])
        doc = ast.get_docstring(node) or ""
        c = {"name": name, "func": node.name, "kind": info["kind"], "parent": info["parent"],
             "description": help_text or doc, "params": params, "subs": []}
        if info["kind"] == "callback":
            # A typer app's callback: the app's own options and help.
            c["kind"] = "group"
            groups.setdefault(info["parent"], c)
            continue
        cmds.append(c)
        if info["kind"] == "group":
            groups[node.name] = c
    # A typer app with several commands is a group of them; with one, the
    # app runs that command.
    for app in sorted(typer_apps):
        mine = [c for c in cmds if c["parent"] == app]
        if len(mine) > 1 or app in groups:
            g = groups.get(app) or {"name": "", "func": app, "kind": "group", "parent": "", "description": "", "params": [], "subs": []}
            groups[app] = g
            cmds.insert(0, g)
    roots = []
    for c in cmds:
        parent = groups.get(c["parent"])
        if parent is not None and parent is not c:
            parent["subs"].append(c)
        else:
            roots.append(c)
    return roots


def module_info(rel):
    """What one module holds (module_info_of), or None for a file that
    does not parse or nests too deep for the readers' recursion."""
    try:
        return module_info_of(rel)
    except RecursionError:
        return None


def module_info_of(rel):
    tree = parse(rel)
    if tree is None:
        return None
    funcdocs = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            d = ast.get_docstring(node)
            if d:
                funcdocs[node.name] = d
    r = ArgparseReader(funcdocs, [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and any(
        name_of(b).split(".")[-1] in ("ArgumentParser", "OptionParser") for b in n.bases)])
    r.visit(tree)
    roots = [p for p in r.roots if p["args"] or p["subs"]] or r.roots
    calls = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            called = calls.setdefault(node.name, [])
            for n in ast.walk(node):
                if isinstance(n, ast.Call):
                    fn = name_of(n.func).split(".")[-1]
                    if fn and fn not in called:
                        called.append(fn)
    imports, relimports = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.add(a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                imports.add(node.module.split(".")[0])
            else:
                relimports.append({"level": node.level, "module": node.module or "", "names": [a.name for a in node.names]})
    # The imports a run needs: not those under try/except ImportError (an
    # optional speed-up or extra), nor under a platform, version or
    # TYPE_CHECKING test; and the modules imported by name, to follow.
    required, optional, modules = set(), set(), []

    def optional_guard(node):
        if isinstance(node, ast.Try):
            return any(h.type is None or "ImportError" in unparse(h.type) or "ModuleNotFoundError" in unparse(h.type) for h in node.handlers)
        if isinstance(node, ast.If):
            return bool(re.search(r"TYPE_CHECKING|platform|version_info|os\.name|sys\.version|win32|darwin", unparse(node.test)))
        return False

    def collect(body):
        for st in body:
            if isinstance(st, ast.Import):
                for a in st.names:
                    required.add(a.name.split(".")[0])
                    modules.append((0, a.name))
            elif isinstance(st, ast.ImportFrom):
                if st.level == 0 and st.module:
                    required.add(st.module.split(".")[0])
                modules.append((st.level, st.module or ""))
                for a in st.names:
                    modules.append((st.level, ((st.module or "") + "." + a.name).lstrip(".")))
            elif optional_guard(st):
                if isinstance(st, ast.Try):
                    # An optional extra: not needed, wanted when the
                    # system can provide it.
                    for sub in ast.walk(ast.Module(body=st.body, type_ignores=[])):
                        if isinstance(sub, ast.Import):
                            optional.update(a.name.split(".")[0] for a in sub.names)
                        elif isinstance(sub, ast.ImportFrom) and sub.level == 0 and sub.module:
                            optional.add(sub.module.split(".")[0])
                    collect(st.orelse)
                    collect(st.finalbody)
                continue
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    sub = getattr(st, field, None)
                    if isinstance(sub, list):
                        collect(sub)
    collect(tree.body)
    main_guard = any(
        isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and name_of(n.test.left) == "__name__"
        for n in tree.body)
    return {
        "doc": ast.get_docstring(tree) or "",
        "argparse": roots[0] if roots else None,
        "parsers": roots,
        "calls": calls,
        "click": click_tree(tree, funcdocs),
        "imports": sorted(imports),
        "relimports": relimports,
        "required": sorted(required),
        "optional": sorted(optional - required),
        "modules": modules,
        "main_guard": main_guard,
        "funcdocs": funcdocs,
    }


def walk_py():
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP and not d.startswith(".") and not d.endswith(".egg-info"))
        for f in sorted(filenames):
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(dirpath, f), ROOT).replace(os.sep, "/"))
        if len(out) > 5000:
            break
    return out


def toml_scripts(text):
    """[project.scripts] and [tool.poetry.scripts] of a pyproject.toml."""
    meta = {"scripts": {}, "keywords": [], "description": "", "name": "", "dependencies": []}
    try:
        import tomllib
        data = tomllib.loads(text)
        proj = data.get("project", {})
        poetry = data.get("tool", {}).get("poetry", {})
        meta["scripts"].update(poetry.get("scripts", {}) or {})
        meta["scripts"].update(proj.get("scripts", {}) or {})
        meta["keywords"] = list(proj.get("keywords", []) or poetry.get("keywords", []) or [])
        meta["description"] = proj.get("description", "") or poetry.get("description", "") or ""
        meta["name"] = proj.get("name", "") or poetry.get("name", "") or ""
        meta["dependencies"] = list(proj.get("dependencies", []) or [])
        meta["requires_python"] = proj.get("requires-python", "") or ""
        meta["build_requires"] = [re.split(r"[<>=!~;\[ (]", r, 1)[0].strip() for r in data.get("build-system", {}).get("requires", []) if isinstance(r, str)]
        meta["scripts"] = {k: v for k, v in meta["scripts"].items() if isinstance(v, str)}
        st = data.get("tool", {}).get("setuptools", {}) or {}
        meta["package_dir"] = package_dir(st.get("package-dir"))
        meta["script_files"] = [x for x in (st.get("script-files") or []) if isinstance(x, str)]
        # Version modules a build hook writes (hatch-vcs, setuptools-scm).
        tool = data.get("tool", {})
        hooks = tool.get("hatch", {}).get("build", {}).get("hooks", {})
        scm = tool.get("setuptools_scm", {}) or {}
        files = [hooks.get("vcs", {}).get("version-file"), scm.get("version_file"), scm.get("write_to")]
        meta["version_files"] = sorted({f for f in files if isinstance(f, str) and f.endswith(".py")})
        return meta
    except Exception:
        pass
    section = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("["):
            section = s.strip("[]").strip()
            continue
        m = re.match(r'^["\']?([A-Za-z0-9_.-]+)["\']?\s*=\s*["\']([^"\']+)["\']', s)
        if m and section in ("project.scripts", "tool.poetry.scripts"):
            meta["scripts"][m.group(1)] = m.group(2)
        elif m and section in ("project", "tool.poetry") and m.group(1) in ("description", "name"):
            meta[m.group(1)] = m.group(2)
    return meta


def package_dir(value):
    """The root package directory of a package_dir mapping ({"": "lib"})."""
    if isinstance(value, dict):
        d = value.get("")
        if isinstance(d, str) and d.strip("./"):
            return d.strip().strip("/").removeprefix("./")
    return ""


def setup_scripts():
    scripts = {}
    meta = {}
    text = read("setup.cfg")
    if text:
        cp = configparser.ConfigParser(interpolation=None)
        try:
            cp.read_string(text)
            if cp.has_option("options.entry_points", "console_scripts"):
                for line in cp.get("options.entry_points", "console_scripts").splitlines():
                    if "=" in line:
                        k, v = line.split("=", 1)
                        scripts[k.strip()] = v.strip()
            if cp.has_option("metadata", "description"):
                meta["description"] = cp.get("metadata", "description")
            if cp.has_option("metadata", "name"):
                meta["name"] = cp.get("metadata", "name")
            if cp.has_option("metadata", "keywords"):
                meta["keywords"] = [k.strip() for k in re.split(r"[,\s]+", cp.get("metadata", "keywords")) if k.strip()]
            if cp.has_option("options", "scripts"):
                meta["script_files"] = [l.strip() for l in cp.get("options", "scripts").splitlines() if l.strip()]
            if cp.has_option("options", "package_dir"):
                for line in cp.get("options", "package_dir").splitlines():
                    k, _, v = line.partition("=")
                    if k.strip() == "" and v.strip():
                        meta["package_dir"] = v.strip().strip("/")
        except configparser.Error:
            pass
    tree = parse("setup.py")
    if tree is not None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and name_of(node.func).split(".")[-1] == "setup":
                kw = kwargs(node)
                ep = const(kw["entry_points"]) if "entry_points" in kw else None
                if isinstance(ep, dict):
                    cs = ep.get("console_scripts", [])
                    if isinstance(cs, str):
                        cs = cs.splitlines()
                    for line in cs:
                        if "=" in line:
                            k, v = line.split("=", 1)
                            scripts[k.strip()] = v.strip()
                for key in ("description", "name"):
                    if key in kw and isinstance(const(kw[key]), str):
                        meta[key] = const(kw[key])
                sf = const(kw["scripts"]) if "scripts" in kw else None
                if isinstance(sf, (list, tuple)):
                    meta["script_files"] = [x for x in sf if isinstance(x, str)]
                pd = package_dir(const(kw["package_dir"])) if "package_dir" in kw else ""
                if pd:
                    meta["package_dir"] = pd
                if "keywords" in kw:
                    k = const(kw["keywords"])
                    if isinstance(k, str):
                        k = re.split(r"[,\s]+", k)
                    if isinstance(k, (list, tuple)):
                        meta["keywords"] = [x for x in k if isinstance(x, str) and x]
    return scripts, meta


# ---------------------------------------------------------------- library API

NOT_PUBLIC_MODULES = {"setup", "conftest", "noxfile", "fabfile", "manage", "tasks", "version", "_version",
                      "__main__", "__about__", "compat", "_compat", "cli", "main", "utils", "util", "helpers",
                      "exceptions", "errors", "types", "typing", "constants", "config", "settings", "conf"}


def unparse(node):
    if node is None:
        return ""
    try:
        return ast.unparse(node)
    except Exception:
        return ""


def literal(node):
    """A default value: (json-able value, True) or (source text, False)."""
    try:
        v = ast.literal_eval(node)
        if isinstance(v, tuple):
            v = list(v)
        if isinstance(v, (set, frozenset)):
            v = sorted(v, key=str)
        json.dumps(v)
        return v, True
    except Exception:
        return unparse(node), False


SECTION_RE = re.compile(r"^\s*(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns|Return|Yields|Raises|Examples?|Notes?|See Also|Attributes|References|Warnings?)\s*:?\s*$")


def parse_doc(doc):
    """Summary, parameter descriptions and types, and the returns text of a
    Google, NumPy or Sphinx docstring."""
    out = {"summary": "", "params": {}, "returns": ""}
    if not doc:
        return out
    lines = doc.expandtabs().splitlines()
    summary = []
    for ln in lines:
        if not ln.strip() or SECTION_RE.match(ln) or ln.strip().startswith((":param", ":return", ":rtype", ":type", ">>>")):
            if summary:
                break
            if ln.strip():
                break
            continue
        summary.append(ln.strip())
    out["summary"] = " ".join(summary)
    section, numpy, cur = None, False, None
    for i, ln in enumerate(lines):
        s = ln.strip()
        m = re.match(r":param\s+(?:(\w[\w\[\], .|]*)\s+)?(\w+)\s*:\s*(.*)", s)
        if m:
            cur = out["params"].setdefault(m.group(2), {"desc": "", "type": ""})
            cur["desc"] = m.group(3)
            if m.group(1):
                cur["type"] = m.group(1)
            section = "sphinx"
            continue
        m = re.match(r":type\s+(\w+)\s*:\s*(.*)", s)
        if m:
            out["params"].setdefault(m.group(1), {"desc": "", "type": ""})["type"] = m.group(2)
            continue
        m = re.match(r":returns?:\s*(.*)", s)
        if m:
            out["returns"] = m.group(1)
            section = "returns"
            continue
        sm = SECTION_RE.match(ln)
        if sm:
            section = sm.group(1).lower()
            numpy = i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}
            cur = None
            continue
        if set(s) == {"-"}:
            continue
        if section in ("args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "other parameters"):
            if numpy:
                m = re.match(r"^(\w+)\s*(?::\s*(.*))?$", s)
                if m and len(ln) - len(ln.lstrip()) <= 4 and not ln.startswith("        "):
                    cur = out["params"].setdefault(m.group(1), {"desc": "", "type": ""})
                    cur["type"] = (m.group(2) or "").strip()
                    continue
            else:
                m = re.match(r"^\*{0,2}(\w+)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$", s)
                if m:
                    cur = out["params"].setdefault(m.group(1), {"desc": "", "type": ""})
                    cur["type"] = (m.group(2) or "").strip()
                    cur["desc"] = m.group(3).strip()
                    continue
            if cur is not None and s:
                cur["desc"] = (cur["desc"] + " " + s).strip()
        elif section in ("returns", "return", "yields") and s:
            out["returns"] = (out["returns"] + " " + s).strip()
        elif section == "sphinx" and cur is not None and s and ln.startswith((" ", "\t")):
            cur["desc"] = (cur["desc"] + " " + s).strip()
    return out


STREAM_READS = {"read", "readline", "readlines", "readinto"}
STREAM_WRITES = {"write", "writelines"}


def stream_uses(node):
    """The parameters a function uses as streams: {name: "read"} for those
    it calls .read() (or readline, readlines, readinto) on, {name: "write"}
    for those it calls .write() (or writelines) on."""
    uses = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
            if n.func.attr in STREAM_READS:
                uses.setdefault(n.func.value.id, "read")
            elif n.func.attr in STREAM_WRITES:
                uses.setdefault(n.func.value.id, "write")
    return uses


def kept_stream_uses(node, init):
    """Marks the constructor parameters the class keeps (self.x = param)
    and uses as streams in any of its methods (self.x.read())."""
    names = {p["name"] for p in init["params"]}
    kept = {}
    for st in node.body:
        if isinstance(st, ast.FunctionDef) and st.name == "__init__":
            for n in ast.walk(st):
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in names:
                    for t in n.targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            kept[t.attr] = n.value.id
    if not kept:
        return
    uses = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Attribute):
            inner = n.func.value
            if isinstance(inner.value, ast.Name) and inner.value.id == "self" and inner.attr in kept:
                if n.func.attr in STREAM_READS:
                    uses.setdefault(kept[inner.attr], "read")
                elif n.func.attr in STREAM_WRITES:
                    uses.setdefault(kept[inner.attr], "write")
    for p in init["params"]:
        if p["name"] in uses and "use" not in p:
            p["use"] = uses[p["name"]]


def func_info(node, owner=None):
    decos = [name_of(d) for d in node.decorator_list]
    a = node.args
    params = []
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for i, (arg, d) in enumerate(zip(pos, defaults)):
        params.append({"name": arg.arg, "kind": "posonly" if i < len(a.posonlyargs) else "pos", "annotation": unparse(arg.annotation)})
        if d is not None:
            params[-1]["default"], params[-1]["literal"] = literal(d)
            params[-1]["has_default"] = True
    if a.vararg:
        params.append({"name": a.vararg.arg, "kind": "varargs", "annotation": unparse(a.vararg.annotation)})
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        params.append({"name": arg.arg, "kind": "kwonly", "annotation": unparse(arg.annotation)})
        if d is not None:
            params[-1]["default"], params[-1]["literal"] = literal(d)
            params[-1]["has_default"] = True
    if a.kwarg:
        params.append({"name": a.kwarg.arg, "kind": "varkw", "annotation": unparse(a.kwarg.annotation)})
    if owner is not None and params and "staticmethod" not in decos:
        params = params[1:]  # self or cls
    uses = stream_uses(node)
    for p in params:
        if p["name"] in uses:
            p["use"] = uses[p["name"]]
    doc = ast.get_docstring(node) or ""
    returns_none = node.returns is not None and unparse(node.returns) in ("None", "NoReturn")
    if node.returns is None and not isinstance(node, ast.AsyncFunctionDef):
        # Without a hint: a body with no "return value" and no yield returns None.
        returns_none = not any(isinstance(n, (ast.Return,)) and n.value is not None or isinstance(n, (ast.Yield, ast.YieldFrom))
                               for n in ast.walk(node) if not (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and n is not node))
        if any(isinstance(n, ast.Raise) for n in node.body) and len(node.body) <= 2:
            returns_none = False  # abstract: raise NotImplementedError
    writes = any(isinstance(n, ast.Call) and (name_of(n.func).split(".")[-1] in ("write", "write_text", "write_bytes", "savefig", "save", "dump", "to_csv", "writerow", "writerows")
                                              or name_of(n.func) == "open" and any(isinstance(x, ast.Constant) and isinstance(x.value, str) and x.value[:1] in "wax" for x in n.args[1:2]))
                 for n in ast.walk(node))
    return {
        "name": node.name, "doc": doc, "parsed": parse_doc(doc), "params": params,
        "returns": unparse(node.returns), "returns_none": returns_none, "returns_self": owner is not None and returns_self(node),
        "async": isinstance(node, ast.AsyncFunctionDef),
        "decorators": decos, "generator": any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node)),
        "writes": writes, "line": node.lineno,
    }


def returns_self(node):
    """Whether every value the method returns is self (a loader or a
    builder step that fills the object it is called on)."""
    returns, todo = [], list(node.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return):
            returns.append(n)
        elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))
    return bool(returns) and all(isinstance(n.value, ast.Name) and n.value.id == "self" for n in returns)


def class_info(node, module_defs):
    bases = [unparse(b) for b in node.bases]
    decos = [name_of(d) for d in node.decorator_list]
    doc = ast.get_docstring(node) or ""
    info = {"name": node.name, "doc": doc, "parsed": parse_doc(doc), "bases": bases, "decorators": decos,
            "init": None, "methods": [], "properties": [], "classmethods": [], "fields": [], "line": node.lineno}
    dataclass = any(d.split(".")[-1] in ("dataclass", "define", "attrs", "frozen", "s") for d in decos)
    namedtuple = any(b.split(".")[-1] in ("NamedTuple",) for b in bases)
    new = None
    for st in node.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fi = func_info(st, owner=node.name)
            if st.name == "__init__":
                info["init"] = fi
            elif st.name == "__new__":
                new = fi  # the constructor when the class defines no __init__
            elif "property" in fi["decorators"] or any(d.endswith("cached_property") for d in fi["decorators"]):
                info["properties"].append(fi)
            elif "classmethod" in fi["decorators"]:
                info["classmethods"].append(fi)
            elif st.name == "__call__" or not st.name.startswith("_"):
                if any(d.endswith(".setter") or d.endswith(".deleter") for d in fi["decorators"]):
                    continue
                info["methods"].append(fi)
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and (dataclass or namedtuple):
            f = {"name": st.target.id, "kind": "pos", "annotation": unparse(st.annotation)}
            if st.value is not None:
                if isinstance(st.value, ast.Call) and name_of(st.value.func).split(".")[-1] in ("field", "Field", "attrib", "ib"):
                    kw = kwargs(st.value)
                    if "default" in kw:
                        f["default"], f["literal"] = literal(kw["default"])
                        f["has_default"] = True
                    elif "default_factory" in kw or "factory" in kw:
                        f["default"], f["literal"], f["has_default"] = None, True, True
                    if kw.get("init") is not None and const(kw["init"]) is False:
                        continue
                else:
                    f["default"], f["literal"] = literal(st.value)
                    f["has_default"] = True
            if not st.target.id.startswith("_") and "ClassVar" not in f["annotation"]:
                info["fields"].append(f)
    if info["init"] is None and new is not None:
        info["init"] = dict(new, name="__init__")
    info["iterable"] = any(isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name in ("__iter__", "__next__") for st in node.body)
    if info["init"] is not None:
        kept_stream_uses(node, info["init"])
    if info["init"] is None and info["fields"]:
        info["init"] = {"name": "__init__", "doc": "", "parsed": parse_doc(""), "params": info["fields"], "returns": "", "returns_none": True,
                        "async": False, "decorators": [], "generator": False, "writes": False, "line": node.lineno, "synthesized": True}
    return info


def module_api(rel):
    """Public functions, classes and the __all__ of one module, and the
    names it imports from where."""
    tree = parse(rel)
    if tree is None:
        return None
    out = {"functions": {}, "classes": {}, "all": None, "imports": {}, "order": []}
    aliases, alias_of = {}, {}
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out["functions"][st.name] = func_info(st)
            out["order"].append(st.name)
        elif isinstance(st, ast.ClassDef):
            out["classes"][st.name] = class_info(st, out)
            out["order"].append(st.name)
        elif isinstance(st, (ast.Assign, ast.AugAssign)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            if isinstance(st, ast.Assign) and isinstance(st.value, ast.Name):
                # default = Implementation: another public name the module
                # binds to one of its own definitions.
                root = alias_of.get(st.value.id, st.value.id)
                for t in targets:
                    if isinstance(t, ast.Name) and not t.id.startswith("_"):
                        aliases.setdefault(root, []).append(t.id)
                        alias_of[t.id] = root
            for t in targets:
                if isinstance(t, ast.Name) and t.id == "__all__":
                    v = const(st.value)
                    if isinstance(v, (list, tuple)):
                        out["all"] = (out["all"] or []) + [x for x in v if isinstance(x, str)]
        elif isinstance(st, ast.ImportFrom):
            record_import(out["imports"], st)
        elif isinstance(st, (ast.Try, ast.If)):
            guarded_imports(out["imports"], st)
    count_callers(tree, out["functions"])
    for name, names in aliases.items():
        info = out["functions"].get(name) or out["classes"].get(name)
        if info is not None and names:
            info["aliases"] = sorted(set(names))
    aliases = type_aliases(tree)
    if aliases:
        resolve_aliases(out["functions"], aliases)
        resolve_aliases(out["classes"], aliases)
    return out


def record_import(imports, st, guarded=False):
    """Records where a from-import takes each name. A name imported again
    in another branch (a compiled module, else its pure-Python fallback)
    keeps each source as an alternative."""
    for a in st.names:
        entry = {"level": st.level, "module": st.module or "", "name": a.name}
        if a.name == "*":
            imports.setdefault("*", []).append({"level": st.level, "module": st.module or ""})
            continue
        key = a.asname or a.name
        cur = imports.get(key)
        if cur is None:
            imports[key] = entry
        elif guarded:
            cur.setdefault("alts", []).append(entry)


def guarded_imports(imports, node):
    """The from-imports of a module's try/except and if/else branches
    (try: from ._speedups import f / except ImportError: from ._pure
    import f), never those made for type checkers alone."""
    if isinstance(node, ast.If) and "TYPE_CHECKING" in unparse(node.test):
        return
    bodies = [node.body, node.orelse]
    if isinstance(node, ast.Try):
        bodies += [h.body for h in node.handlers] + [node.finalbody]
    for body in bodies:
        for st in body:
            if isinstance(st, ast.ImportFrom):
                record_import(imports, st, guarded=True)
            elif isinstance(st, (ast.Try, ast.If)):
                guarded_imports(imports, st)


def type_aliases(tree):
    """The module's type aliases (NumberOrString: TypeAlias = float | str,
    Number = Union[int, float], type Path = str), also those under
    `if TYPE_CHECKING:`, as source text by name."""
    out = {}

    def visit(body):
        for st in body:
            if isinstance(st, ast.If):
                visit(st.body)
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None and unparse(st.annotation).split(".")[-1] == "TypeAlias":
                out[st.target.id] = unparse(st.value)
            elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and isinstance(st.value, (ast.Subscript, ast.BinOp)):
                text = unparse(st.value)
                if re.match(r"^(typing\.)?(Union|Optional)\[|^[A-Za-z_.]+( \| [A-Za-z_.]+)+$", text):
                    out[st.targets[0].id] = text
            elif type(st).__name__ == "TypeAlias" and isinstance(getattr(st, "name", None), ast.Name):
                out[st.name.id] = unparse(st.value)

    visit(tree.body)
    return out


def resolve_aliases(node, aliases):
    """Replace type alias names in every "annotation" under node."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("annotation", "returns") and isinstance(v, str) and v:
                node[k] = re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*\b", lambda m: aliases[m.group(0)] if m.group(0) in aliases else m.group(0), v)
            else:
                resolve_aliases(v, aliases)
    elif isinstance(node, list):
        for v in node:
            resolve_aliases(v, aliases)


def count_callers(tree, functions):
    """Record on each module-level function how many of the module's other
    public functions and methods call it by name: a building block of the
    module's own API has several."""
    bodies = []
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and not st.name.startswith("_"):
            bodies.append((st.name, st))
        elif isinstance(st, ast.ClassDef) and not st.name.startswith("_"):
            for m in st.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and (not m.name.startswith("_") or m.name == "__init__"):
                    bodies.append((None, m))
    counts = {}
    for own, node in bodies:
        called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        for name in called:
            if name in functions and name != own:
                counts[name] = counts.get(name, 0) + 1
    for name, info in functions.items():
        info["callers"] = counts.get(name, 0)


def readme_code():
    """The code of the README's examples (fenced blocks, doctest lines)."""
    for name in ("README.md", "README.rst", "README.txt", "README", "readme.md", "Readme.md"):
        text = read(name)
        if text:
            break
    else:
        return ""
    code, fenced = [], False
    for ln in text.splitlines():
        s = ln.strip()
        if s.startswith("```") or s.startswith("~~~"):
            fenced = not fenced
            continue
        if fenced or s.startswith(">>>") or s.startswith("...") or ln.startswith("    "):
            code.append(s.lstrip(">. "))
    return "\n".join(code)


def call_chains(code):
    """The chains of calls the README's examples make on a name, as in
    Query.from_(t).select(a).where(b): [{"root": "Query", "methods":
    ["from_", "select", "where"]}], for chains of two calls or more."""
    stmts, cur, depth = [], [], 0
    for ln in code.splitlines():
        cur.append(ln)
        depth += sum(ln.count(c) for c in "([{") - sum(ln.count(c) for c in ")]}")
        if depth <= 0 and not ln.rstrip().endswith("\\"):
            stmts.append("\n".join(cur))
            cur, depth = [], 0
    chains = []
    for st in stmts:
        try:
            tree = ast.parse(st.strip())
        except (SyntaxError, ValueError):
            continue
        inner = set()
        for n in ast.walk(tree):
            if not isinstance(n, ast.Call) or id(n) in inner:
                continue
            methods, x = [], n
            while isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute):
                inner.add(id(x))
                methods.append(x.func.attr)
                x = x.func.value
            if isinstance(x, ast.Name) and len(methods) >= 2:
                chains.append({"root": x.id, "methods": list(reversed(methods))})
    return chains[:200]


def library_api(files, fileset, src):
    """The public API of the repository's importable packages and modules."""
    prefix = src + "/" if src else ""
    tops = []
    for f in files:
        if src and not f.startswith(prefix):
            continue
        rel = f[len(prefix):]
        parts = rel.split("/")
        if len(parts) == 2 and parts[1] == "__init__.py" and not parts[0].startswith(("_", ".")) and parts[0].isidentifier():
            tops.append((parts[0], f))
        elif len(parts) == 1 and rel.endswith(".py") and rel[:-3].isidentifier() and not rel.startswith(("_", "test")) and rel[:-3] not in NOT_PUBLIC_MODULES:
            tops.append((rel[:-3], f))
    if not tops:
        return None
    cache = {}

    def mod_api(path):
        if path not in cache:
            cache[path] = module_api(path)
        return cache[path]

    def mod_file(dotted):
        base = prefix + dotted.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in fileset:
                return cand
        return None

    def resolve(module, name, depth=0):
        """Where a name seen in module is defined: (module, kind, info)."""
        f = mod_file(module)
        api = mod_api(f) if f else None
        if api is None or depth > 4:
            return None
        if name in api["functions"]:
            return module, "function", api["functions"][name]
        if name in api["classes"]:
            return module, "class", api["classes"][name]
        imp = api["imports"].get(name)
        pkg = module if f.endswith("__init__.py") else module.rpartition(".")[0]
        if isinstance(imp, dict):
            # The first source with Python code: a compiled module has none,
            # its fallback has.
            for cand in [imp] + imp.get("alts", []):
                if cand["level"] == 0:
                    target = cand["module"]
                else:
                    base = pkg.split(".")
                    base = base[:len(base) - (cand["level"] - 1)] if cand["level"] > 1 else base
                    target = ".".join(base + ([cand["module"]] if cand["module"] else []))
                if target.split(".")[0] != module.split(".")[0]:
                    continue
                r = resolve(target, cand["name"], depth + 1)
                if r is None and mod_file(target + "." + cand["name"]):
                    return None  # a submodule, not a callable
                if r is not None:
                    return r
            return None
        for star in api["imports"].get("*", []):
            base = pkg.split(".")
            base = base[:len(base) - (star["level"] - 1)] if star["level"] > 1 else base
            target = ".".join(base + ([star["module"]] if star["module"] else [])) if star["level"] else star["module"]
            if target.split(".")[0] == module.split(".")[0]:
                r = resolve(target, name, depth + 1)
                if r:
                    return r
        return None

    items, seen = [], set()

    def add(public_module, name, how, depth=0):
        r = resolve(public_module, name)
        if r is None:
            # A submodule named in __all__ (package.parser): its own public
            # names are part of the API.
            sub = public_module + "." + name
            g = mod_file(sub)
            if g and depth == 0 and not name.startswith("_") and name not in NOT_PUBLIC_MODULES:
                sa = mod_api(g)
                if sa is not None:
                    for n in (sa["all"] or [n for n in sa["order"] if not n.startswith("_")]):
                        add(sub, n, "module", depth + 1)
            return
        module, kind, info = r
        key = (module, info["name"], kind)
        if key in seen:
            return
        seen.add(key)
        items.append({"public": public_module, "module": module, "name": name, "kind": kind, "info": info, "how": how,
                      "aliases": info.get("aliases", [])})

    for top, f in tops:
        api = mod_api(f)
        if api is None:
            continue
        if api["all"]:
            for n in api["all"]:
                add(top, n, "all")
            continue
        names = [n for n in api["order"] if not n.startswith("_")]
        names += [n for n in api["imports"] if n != "*" and not n.startswith("_")]
        for n in names:
            add(top, n, "top")
        if f.endswith("__init__.py"):
            # Public submodules' own definitions, reachable as top.sub.name.
            for g in files:
                if not g.startswith(prefix + top + "/") or g.endswith("__init__.py"):
                    continue
                sub = g[len(prefix):-3].replace("/", ".")
                if any(p.startswith("_") or p in NOT_PUBLIC_MODULES or p.startswith("test") for p in sub.split(".")[1:]):
                    continue
                sa = mod_api(g)
                if sa is None:
                    continue
                for n in (sa["all"] or [n for n in sa["order"] if not n.startswith("_")]):
                    add(sub, n, "module")
    code = readme_code()
    for it in items:
        it["readme"] = bool(re.search(r"\b" + re.escape(it["name"]) + r"\b", code)) if code else False
    names = sorted(set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", code)))[:5000] if code else []
    return {"packages": [t for t, _ in tops], "items": items, "readme_has_code": bool(code), "readme_names": names,
            "readme_chains": call_chains(code) if code else []}


def third_party_imports(files, local, stdlib):
    out = set()
    for f in files:
        info = module_info(f)
        if not info:
            continue
        for imp in info["imports"]:
            if imp not in stdlib and imp not in local and imp != "__future__":
                out.add(imp)
    return sorted(out)


def import_closure(start, fileset, src):
    """The repository's module files that the files start import, directly
    or through each other (with the packages above them)."""
    prefix = src + "/" if src else ""

    def files_of(dotted):
        base = prefix + dotted.replace(".", "/")
        return [c for c in (base + ".py", base + "/__init__.py") if c in fileset]

    seen, queue = [], [f for f in start if f]
    # Running a module runs the packages above it first (python -m pkg
    # runs pkg/__init__.py before pkg/__main__.py).
    for f in list(queue):
        parts = f[len(prefix):].split("/")[:-1] if f.startswith(prefix) else f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            init = prefix + "/".join(parts[:i]) + "/__init__.py"
            if init in fileset:
                queue.append(init)
    while queue and len(seen) < 2000:
        f = queue.pop(0)
        if f in seen:
            continue
        seen.append(f)
        mi = module_info(f)
        if not mi:
            continue
        pkg = f[len(prefix):] if f.startswith(prefix) else f
        pkg = pkg.rsplit("/", 1)[0].replace("/", ".") if "/" in pkg else ""
        for level, mod in mi["modules"]:
            if level:
                base = pkg.split(".") if pkg else []
                base = base[:len(base) - (level - 1)] if level > 1 else base
                mod = ".".join(base + ([mod] if mod else []))
            parts = mod.split(".")
            for i in range(1, len(parts) + 1):
                queue.extend(files_of(".".join(parts[:i])))
    return seen


def entry_parser(info, func):
    """The parser built in func, or in the nearest function it calls."""
    order, queue = [], [func]
    while queue and len(order) < 200:
        f = queue.pop(0)
        if f in order:
            continue
        order.append(f)
        queue.extend(c for c in info["calls"].get(f, []) if c in info["calls"])
    for f in order:
        for p in info["parsers"]:
            if p.get("_func") == f:
                return p
    return None


def main():
    files = walk_py()
    fileset = set(files)
    meta = {"scripts": {}, "keywords": [], "description": "", "name": ""}
    text = read("pyproject.toml")
    if text:
        meta = toml_scripts(text)
    s2, m2 = setup_scripts()
    for k, v in s2.items():
        meta["scripts"].setdefault(k, v)
    for k, v in m2.items():
        if not meta.get(k):
            meta[k] = v
    # Where packages live: the directory packaging metadata names
    # (package_dir={"": "lib"}), else src/ or the root.
    src = meta.get("package_dir") or ""
    if not src or not any(f.startswith(src + "/") for f in files):
        src = "src" if any(f.startswith("src/") for f in files) and not any("/" not in f and f != "setup.py" and f != "conftest.py" for f in files if f.endswith("__init__.py")) else ""
    local = set()
    for f in files:
        rel = f[len(src) + 1:] if src and f.startswith(src + "/") else f
        local.add(rel.split("/")[0].replace(".py", ""))

    def module_file(mod):
        base = (src + "/" if src else "") + mod.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in fileset:
                return cand
        return None

    entries = []
    for name, target in sorted(meta["scripts"].items()):
        mod, _, func = target.partition(":")
        mod = mod.strip()
        func = func.split("[")[0].strip()
        entries.append({"name": name, "kind": "script", "target": mod + (":" + func if func else ""), "module": mod, "file": module_file(mod)})
    # Scripts the packaging installs as they are (setup(scripts=[...]),
    # script-files): declared entry points too.
    for f in meta.get("script_files") or []:
        f = os.path.normpath(f).replace(os.sep, "/")
        if f.startswith("../") or read(f) is None or parse(f) is None:
            continue
        base = os.path.basename(f)
        name = base[:-3] if base.endswith(".py") else base
        entries.append({"name": name.replace("_", "-"), "kind": "file", "target": f, "module": "", "file": f, "declared": True})
    seen_modules = {e["module"].split(".")[0] for e in entries if e["module"]}
    for f in files:
        rel = f[len(src) + 1:] if src and f.startswith(src + "/") else f
        if rel.endswith("/__main__.py") and rel.count("/") == 1:
            pkg = rel.split("/")[0]
            if pkg not in seen_modules:
                entries.append({"name": pkg.replace("_", "-"), "kind": "module", "target": pkg, "module": pkg + ".__main__", "file": f})
                seen_modules.add(pkg)
    if not entries:
        for f in files:
            if "/" in f and not f.startswith(("bin/", "scripts/")):
                continue
            base = os.path.basename(f)
            if base in ("setup.py", "conftest.py", "noxfile.py", "fabfile.py", "manage.py") or base.startswith(("test_", "_")):
                continue
            info = module_info(f)
            if info and info["main_guard"] and (info["argparse"] or info["click"] or "sys" in info["imports"]):
                entries.append({"name": base[:-3].replace("_", "-"), "kind": "file", "target": f, "module": "", "file": f})

    stdlib = set(getattr(sys, "stdlib_module_names", ())) | set(sys.builtin_module_names)
    missing, needed, extras = {}, set(), set()
    for e in entries:
        info = module_info(e["file"]) if e["file"] else None
        func = e["target"].partition(":")[2].split(".")[0] if e["kind"] == "script" else ""
        if info is not None and func and len(info["parsers"]) > 1:
            # A module may build several parsers: the console script's
            # is the one its function builds or calls a builder of.
            p = entry_parser(info, func)
            if p is not None:
                info = dict(info, argparse=p)
        # Follow the entry module's own imports one hop to find the parser:
        # __main__.py usually does "from .cli import main".
        chain = [e["file"]] if e["file"] else []
        if info is not None and not info["argparse"] and not info["click"]:
            pkgdir = os.path.dirname(e["file"])
            for ri in info["relimports"]:
                cand = os.path.normpath(os.path.join(pkgdir, *([".."] * (ri["level"] - 1)), *ri["module"].split("."))).replace(os.sep, "/") if ri["module"] else pkgdir
                for c in (cand + ".py", cand + "/__init__.py"):
                    if c in fileset:
                        sub = module_info(c)
                        if sub and (sub["argparse"] or sub["click"]):
                            info["argparse"], info["click"] = sub["argparse"], sub["click"]
                            info["doc"] = info["doc"] or sub["doc"]
                            chain.append(c)
                            break
                if info["argparse"] or info["click"]:
                    break
            if not info["argparse"] and not info["click"] and e["module"]:
                top = e["module"].split(".")[0]
                for c in (module_file(top + ".cli"), module_file(top + ".__main__"), module_file(top + ".main")):
                    if c:
                        sub = module_info(c)
                        if sub and (sub["argparse"] or sub["click"]):
                            info["argparse"], info["click"] = sub["argparse"], sub["click"]
                            chain.append(c)
                            break
        e["argparse"] = info["argparse"] if info else None
        e["click"] = info["click"] if info else []
        e["doc"] = info["doc"] if info else ""
        # The imports a run of the entry needs: those of the modules it
        # imports, and they import, from the repository.
        for f in import_closure(chain, fileset, src):
            mi = module_info(f)
            if not mi:
                continue
            extras.update(mi["optional"])
            for imp in mi["required"]:
                needed.add(imp)
                if imp in stdlib or imp in local or imp == "__future__" or imp in missing:
                    continue
                try:
                    found = importlib.util.find_spec(imp) is not None
                except (ImportError, ValueError):
                    found = False
                if not found:
                    missing[imp] = True
    lib_files = [f for f in files if not os.path.basename(f).startswith("test_") and os.path.basename(f) not in ("setup.py", "conftest.py", "noxfile.py")]
    print(json.dumps({
        "api": library_api(files, fileset, src),
        "imports": third_party_imports(lib_files, local, stdlib),
        # Not test modules, nor the version module a build writes.
        "needed": sorted(i for i in needed if i not in stdlib and i not in local and i != "__future__" and not re.match(r"^tests?_|_tests?$|^tests?$", i)
                         and i not in {os.path.basename(v)[:-3] for v in meta.get("version_files", [])}),
        "optional": sorted(i for i in extras - needed if i not in stdlib and i not in local and i != "__future__"),
        "dependencies": meta.get("dependencies", []),
        "requires_python": meta.get("requires_python", ""),
        "build_requires": [r for r in meta.get("build_requires", []) if r],
        "version_files": meta.get("version_files", []),
        "src": src,
        "name": meta.get("name", ""),
        "description": meta.get("description", ""),
        "keywords": meta.get("keywords", []),
        "entries": entries,
        "missing": sorted(missing),
        "python": sys.executable,
    }, sort_keys=True))


main()
