import os, sys
out, name, kind, target, src = sys.argv[1:6]
body = {
 "script": "mod, _, attr = T.partition(':')\nimport importlib\nobj = importlib.import_module(mod)\nfor part in attr.split('.'):\n    obj = getattr(obj, part)\nsys.exit(obj())\n",
 "module": "import runpy\nrunpy.run_module(T, run_name='__main__', alter_sys=True)\n",
 "file": "import runpy\nsys.path.insert(0, os.path.dirname(os.path.join(root, T)))\nrunpy.run_path(os.path.join(root, T), run_name='__main__')\n",
}[kind]
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as fh:
    fh.write("#!%s\n# agentnet launcher for %s\nimport os, sys\nroot = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))\nsys.path.insert(0, os.path.join(root, %r))\nsys.argv[0] = %r\nT = %r\n" % (sys.executable, name, src, name, target) + body)
os.chmod(out, 0o755)
