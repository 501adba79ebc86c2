import json, sys, importlib.util
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
