
# The calls behind each skill follow SPEC: import the module, take the
# function or class, build the object (for a class), then call or read the
# member. Arguments come as --name=value; the result is printed as text
# (a string) or JSON, and bytes are written to a file in the work directory.

import asyncio
import dataclasses
import datetime
import decimal
import enum
import fractions
import importlib
import inspect
import io
import json
import math
import os
import pathlib
import sys
import traceback


class ArgError(Exception):
    """A value the caller gave that the parameter cannot take."""


def convert(p, raw):
    conv = p["conv"]
    if conv in ("str", "outpath"):
        return raw
    if conv == "path":
        return raw
    if conv == "int":
        try:
            return int(raw)
        except ValueError:
            f = float(raw)
            if not f.is_integer():
                raise
            return int(f)
    if conv in ("float", "decimal"):
        return float(raw)
    if conv == "bool":
        return raw.strip().lower() in ("1", "true", "yes", "on")
    if conv == "json":
        try:
            return json.loads(raw)
        except ValueError:
            return [line for line in raw.splitlines() if line.strip()]
    if conv == "textio":
        return open(raw, encoding="utf-8", errors="replace")
    if conv == "binaryio":
        return open(raw, "rb")
    if conv == "stream":
        return open_stream(raw)
    if conv == "outstream":
        return Writer(raw)
    if conv == "bytes":
        with open(raw, "rb") as fh:
            return fh.read()
    if conv == "jsondata":
        return json_data(raw)
    if conv == "date":
        return datetime.date.fromisoformat(raw.strip())
    if conv == "datetime":
        return datetime.datetime.fromisoformat(raw.strip())
    # auto: a JSON value when it reads as one, else the text.
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def json_data(raw):
    """A value given as a JSON document: a file's JSON, or its bytes when
    it holds none; else JSON text, or the text itself."""
    if os.path.isfile(raw):
        with open(raw, "rb") as fh:
            data = fh.read()
        try:
            return json.loads(data.decode("utf-8"))
        except ValueError:
            return data
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def open_stream(path):
    """A file the function reads as a stream: as text when it is UTF-8,
    as bytes otherwise."""
    fh = open(path, "rb")
    try:
        fh.read().decode("utf-8")
    except UnicodeDecodeError:
        fh.seek(0)
        return fh
    fh.close()
    return open(path, encoding="utf-8")


class Writer:
    """A file the function writes as a stream, taking text or bytes."""

    def __init__(self, path):
        self.path = path
        self.fh = open(path, "wb")

    def write(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.fh.write(data)
        return len(data)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        self.fh.flush()

    def close(self):
        self.fh.close()


def arguments(params, given):
    pos, kw = [], {}
    for p in params:
        if p["name"] not in given:
            continue
        try:
            v = convert(p, given[p["name"]])
        except (ValueError, OSError, UnicodeError) as e:
            raise ArgError("--%s: cannot read %s as %s: %s" % (p["name"], short(given[p["name"]]), p["conv"], one_line(e)))
        if isinstance(v, Writer):
            OPEN_WRITERS.append(v)
        if p.get("star"):
            pos.extend(v if isinstance(v, list) else [v])
        elif p.get("pos"):
            pos.append(v)
        else:
            kw[p["py"]] = v
    return pos, kw


OPEN_WRITERS = []


def short(raw, n=60):
    r = repr(raw)
    return r if len(r) <= n else r[:n] + "...'"


def one_line(e):
    """An exception as one line: its type and its message's first line."""
    msg = str(e).strip().splitlines()
    return type(e).__name__ + (": " + msg[0] if msg else "")


def settle(v):
    if inspect.isawaitable(v):
        return asyncio.run(v) if inspect.iscoroutine(v) else asyncio.get_event_loop().run_until_complete(v)
    return v


def jsonable(x, depth=0):
    if depth > 8:
        return str(x)
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else str(x)
    if isinstance(x, (decimal.Decimal, fractions.Fraction)):
        return float(x)
    if isinstance(x, enum.Enum):
        return jsonable(x.value, depth + 1)
    if isinstance(x, (datetime.date, datetime.time)):
        return x.isoformat()
    if isinstance(x, datetime.timedelta):
        return x.total_seconds()
    if isinstance(x, (pathlib.PurePath, complex)):
        return str(x)
    if isinstance(x, (bytes, bytearray)):
        return x.decode("utf-8", errors="replace")
    if isinstance(x, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in x.items()}
    if hasattr(x, "_asdict") and callable(x._asdict):
        return jsonable(x._asdict(), depth + 1)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        out = {f.name: jsonable(getattr(x, f.name), depth + 1) for f in dataclasses.fields(x) if not f.name.startswith("_")}
        out.update(properties(x, depth, skip=out))
        return out
    if isinstance(x, (list, tuple, set, frozenset)) or inspect.isgenerator(x) or hasattr(x, "__next__"):
        items = []
        for i, v in enumerate(x):
            if i >= 10000:
                break
            items.append(jsonable(v, depth + 1))
        return items
    # The conversions such objects conventionally offer: to plain data, or
    # to a time (which prints readably).
    for name in ("to_dict", "as_dict", "todict", "dict", "to_datetime", "to_pydatetime"):
        fn = getattr(x, name, None)
        if callable(fn):
            try:
                return jsonable(fn(), depth + 1)
            except TypeError:
                pass
    slots = [k for cls in type(x).__mro__ for k in ([getattr(cls, "__slots__", ())] if isinstance(getattr(cls, "__slots__", ()), str) else getattr(cls, "__slots__", ()))
             if isinstance(k, str) and not k.startswith("_") and hasattr(x, k)]
    if slots:
        # An object that keeps its values in slots: those values.
        out = {k: jsonable(getattr(x, k), depth + 1) for k in slots}
        out.update(properties(x, depth, skip=out))
        return out
    if hasattr(x, "__dict__") or properties(x, depth):
        out = {k: jsonable(v, depth + 1) for k, v in vars(x).items() if not k.startswith("_")} if hasattr(x, "__dict__") else {}
        out.update(properties(x, depth, skip=out))
        if out:
            return out
    if hasattr(x, "__iter__") and not isinstance(x, str):
        try:
            return [jsonable(v, depth + 1) for v in x]
        except TypeError:
            pass
    return str(x)


def properties(x, depth, skip=()):
    out = {}
    for cls in type(x).__mro__:
        for k, v in vars(cls).items():
            if k.startswith("_") or k in skip or k in out or not isinstance(v, property):
                continue
            try:
                out[k] = jsonable(getattr(x, k), depth + 1)
            except Exception:
                pass
    return out


def emit(result, call, given, skill):
    for w in OPEN_WRITERS:
        w.close()
    if isinstance(result, (bytes, bytearray)) and given.get(call.get("result_file") or ""):
        name = given[call["result_file"]]
        with open(name, "wb") as fh:
            fh.write(result)
        print("wrote " + name)
        return
    if isinstance(result, (bytes, bytearray)):
        ext = ".png" if result[:8] == b"\x89PNG\r\n\x1a\n" else ".pdf" if result[:5] == b"%PDF-" else ".gif" if result[:4] == b"GIF8" else ".jpg" if result[:3] == b"\xff\xd8\xff" else ".bin"
        name = skill + ext
        with open(name, "wb") as fh:
            fh.write(result)
        print("wrote " + name)
        return
    if result is None:
        outs = [given[p["name"]] for p in call.get("params", []) + call.get("ctor_params", []) if p["conv"] in ("outpath", "outstream") and p["name"] in given]
        print("wrote " + ", ".join(outs) if outs else "done")
        return
    if isinstance(result, str):
        sys.stdout.write(result if result.endswith("\n") else result + "\n")
        return
    print(json.dumps(jsonable(result), indent=2, ensure_ascii=False))


CHAIN_OPS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "~": lambda a: ~a, "neg": lambda a: -a,
}
CHAIN_NODES = 2000


class ChainError(Exception):
    pass


def own(mod, obj):
    """Whether obj belongs to the library: a module of its package, or a
    class or function it defines (never os.system through an import)."""
    root = mod.__name__.split(".")[0]
    where = obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None)
    if where is None and not callable(obj):
        return True  # a plain value: an enum member, a constant
    return isinstance(where, str) and (where == root or where.startswith(root + "."))


def public_name(mod, name):
    """A public name of the library, dotted (Order.desc), reached from
    the module: never one that starts with an underscore, never one the
    library only imports."""
    if not isinstance(name, str) or not name or any(not p or p.startswith("_") for p in name.split(".")):
        raise ChainError("not a public name: %r" % (name,))
    obj = mod
    for p in name.split("."):
        if not hasattr(obj, p) and inspect.ismodule(obj):
            try:
                importlib.import_module(obj.__name__ + "." + p)  # a submodule of the package
            except ImportError:
                pass
        if not hasattr(obj, p):
            raise ChainError("%s has no %s" % (getattr(obj, "__name__", obj), p))
        obj = getattr(obj, p)
        if not own(mod, obj):
            raise ChainError("not a name of the library: %s" % name)
    return obj


def chain_value(mod, v, budget, depth=0):
    """A chain argument: a JSON value, or a call, reference or operator."""
    budget[0] -= 1
    if budget[0] < 0 or depth > 32:
        raise ChainError("the calls are too large")
    if isinstance(v, list):
        return [chain_value(mod, x, budget, depth + 1) for x in v]
    if not isinstance(v, dict):
        return v
    if "call" in v:
        fn = public_name(mod, v["call"])
        args = [chain_value(mod, x, budget, depth + 1) for x in v.get("args") or []]
        kw = {str(k): chain_value(mod, x, budget, depth + 1) for k, x in (v.get("kwargs") or {}).items()}
        return apply_calls(mod, fn(*args, **kw), v.get("then") or [], budget, depth + 1)
    if "ref" in v:
        return apply_calls(mod, public_name(mod, v["ref"]), v.get("then") or [], budget, depth + 1)
    if "op" in v:
        op = CHAIN_OPS.get(v["op"])
        if op is None:
            raise ChainError("unknown operator %r" % (v["op"],))
        return op(*[chain_value(mod, x, budget, depth + 1) for x in v.get("args") or []])
    return {str(k): chain_value(mod, x, budget, depth + 1) for k, x in v.items()}


def apply_calls(mod, obj, calls, budget, depth=0):
    """Makes the calls in order, each a public method of the library on
    the result of the one before."""
    if not isinstance(calls, list):
        raise ChainError("want a JSON list of {\"method\": NAME, \"args\": [...]}")
    for i, c in enumerate(calls):
        if not isinstance(c, dict) or not isinstance(c.get("method"), str) or c["method"].startswith("_"):
            raise ChainError("calls[%d]: want {\"method\": NAME, \"args\": [...]} with a public method" % i)
        fn = getattr(obj, c["method"], None)
        if not callable(fn) or not own(mod, fn):
            raise ChainError("calls[%d]: %s has no method %s" % (i, type(obj).__name__, c["method"]))
        args = chain_value(mod, c.get("args") or [], budget, depth + 1)
        kw = chain_value(mod, c.get("kwargs") or {}, budget, depth + 1)
        if not isinstance(args, list) or not isinstance(kw, dict):
            raise ChainError("calls[%d]: args is a list, kwargs an object" % i)
        obj = fn(*args, **kw)
    return obj


def run_chain(mod, call, given):
    """Starts from the class (or the subclass given as start) and makes the
    calls in order, each on the result of the one before."""
    start = given.get("start") or call["target"]
    obj = public_name(mod, start)
    calls = json.loads(given.get("calls") or "[]")
    if not isinstance(calls, list) or not calls:
        raise ChainError("calls: want a JSON list of {\"method\": NAME, \"args\": [...]}")
    obj = apply_calls(mod, obj, calls, [CHAIN_NODES])
    if type(obj).__str__ is not object.__str__ and not isinstance(obj, (list, dict, tuple)):
        return str(obj)
    return obj


def check():
    """Imports every module and resolves every name the skills use."""
    for skill, call in sorted(SPEC.items()):
        target = getattr(importlib.import_module(call["module"]), call["target"])
        if call.get("ctor") and call["ctor"] != "__init__":
            getattr(target, call["ctor"])
        for name in (call.get("fill"), call.get("member")):
            if name:
                getattr(target, name)
    print("ok: %d skills, modules %s" % (len(SPEC), ", ".join(sorted({c["module"] for c in SPEC.values()}))))
    return 0


def main(argv):
    if argv == ["--check"]:
        return check()
    if len(argv) < 1 or argv[0] not in SPEC:
        sys.stderr.write("usage: %s SKILL [--name=value ...]; skills: %s\n" % (os.path.basename(sys.argv[0]), ", ".join(sorted(SPEC))))
        return 2
    skill, call = argv[0], SPEC[argv[0]]
    given = {}
    for a in argv[1:]:
        if not a.startswith("--") or "=" not in a:
            sys.stderr.write("bad argument %r: want --name=value\n" % a)
            return 2
        k, _, v = a[2:].partition("=")
        given[k] = v
    try:
        emit(perform(call, given), call, given, skill)
    except (ArgError, ChainError) as e:
        sys.stderr.write("%s: %s\n" % (skill, e))
        return 2
    except Exception as e:
        # The library refused the call: one line, the traceback only when
        # AGENTNET_TRACEBACK asks for it.
        if os.environ.get("AGENTNET_TRACEBACK"):
            traceback.print_exc()
        sys.stderr.write("%s: %s\n" % (skill, one_line(e)))
        return 1
    return 0


def perform(call, given):
    """Makes the skill's call and returns its settled result."""
    mod = importlib.import_module(call["module"])
    target = getattr(mod, call["target"])
    if call.get("member_kind") == "chain":
        try:
            result = run_chain(mod, call, given)
        except ValueError as e:
            raise ChainError(str(e))
    elif call.get("ctor"):
        pos, kw = arguments(call.get("ctor_params", []), given)
        if call.get("fill"):
            # Made empty, then filled from the inputs by a method that
            # returns the object.
            obj = target()
            obj = settle(getattr(obj, call["fill"])(*pos, **kw)) or obj
        else:
            obj = settle(target(*pos, **kw) if call["ctor"] == "__init__" else getattr(target, call["ctor"])(*pos, **kw))
        kind = call.get("member_kind")
        if kind == "attr":
            result = getattr(obj, call["member"])
        elif kind == "call":
            pos, kw = arguments(call.get("params", []), given)
            result = getattr(obj, call["member"])(*pos, **kw)
        elif any(p["conv"] == "stream" for p in call.get("ctor_params", [])) and hasattr(obj, "__iter__"):
            # A reader of records built from a file: its records; the one
            # record of a file that holds one.
            result = [v for _, v in zip(range(10000), obj)]
            if len(result) == 1:
                result = result[0]
        else:
            result = obj
    else:
        pos, kw = arguments(call.get("params", []), given)
        result = target(*pos, **kw)
    return settle(result)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
