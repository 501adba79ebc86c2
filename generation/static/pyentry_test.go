package static

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// scanPython runs pyscan over a repository of files.
func scanPython(t *testing.T, files map[string]string) *pyScan {
	t.Helper()
	dir := writeRepo(t, files)
	r, err := scan(dir, filepath.Base(dir))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := pythonScan(t.Context(), r, os.Environ())
	if err != nil || sc == nil {
		t.Fatalf("pythonScan() = %v, %v", sc, err)
	}
	return sc
}

func argNames(p *pyParser) []string {
	var out []string
	if p == nil {
		return nil
	}
	for _, a := range p.Args {
		out = append(out, a.Names...)
	}
	return out
}

// TestPythonEntryPoints checks the entry points pyscan finds and the
// parser it reads for each: a script file setup() installs, a module under
// package_dir, and the parser a console script's own function builds.
func TestPythonEntryPoints(t *testing.T) {
	t.Parallel()
	parser := "import argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n    p.add_argument(\"expression\")\n    p.add_argument(\"-x\", \"--extras\", action=\"append\", choices=[\"tables\", \"footnotes\"])\n    p.parse_args()\n\n\nif __name__ == \"__main__\":\n    main()\n"
	for _, tc := range []struct {
		name     string
		files    map[string]string
		entry    string
		wantArgs []string
		declared bool
	}{
		{
			name: "setup scripts",
			files: map[string]string{
				"setup.py":           "from setuptools import setup\n\nsetup(name=\"jq\", packages=[\"jq\"], scripts=[\"bin/jq.py\"])\n",
				"jq/__init__.py":     "def search(expression, data):\n    \"\"\"Search data.\"\"\"\n    return data\n",
				"bin/jq.py":          parser,
				"scripts/release.py": "import sys\n\nif __name__ == \"__main__\":\n    print(sys.argv)\n",
			},
			entry: "jq", wantArgs: []string{"expression", "-x", "--extras"}, declared: true,
		},
		{
			name: "package_dir",
			files: map[string]string{
				"setup.py":    "from setuptools import setup\n\nsetup(name=\"md\", py_modules=[\"md\"], package_dir={\"\": \"lib\"},\n      entry_points={\"console_scripts\": [\"md = md:main\"]})\n",
				"lib/md.py":   parser,
				"test/foo.py": "",
			},
			entry: "md", wantArgs: []string{"expression", "-x", "--extras"},
		},
		{
			name: "pyproject package-dir",
			files: map[string]string{
				"pyproject.toml": "[project]\nname = \"md\"\nversion = \"1\"\n\n[project.scripts]\nmd = \"md:main\"\n\n[tool.setuptools]\npackage-dir = {\"\" = \"python\"}\n",
				"python/md.py":   parser,
			},
			entry: "md", wantArgs: []string{"expression", "-x", "--extras"},
		},
		{
			name: "the entry function's parser",
			files: map[string]string{
				"pyproject.toml":     "[project]\nname = \"sorter\"\nversion = \"1\"\n\n[project.scripts]\nsorter = \"sorter.main:main\"\nsorter-list = \"sorter.main:list_main\"\n",
				"sorter/__init__.py": "",
				"sorter/main.py": "import argparse\n\n\ndef _build_parser():\n    p = argparse.ArgumentParser()\n    p.add_argument(\"--atomic\", action=\"store_true\")\n    p.add_argument(\"files\", nargs=\"*\")\n    return p\n\n\n" +
					"def list_main(argv=None):\n    p = argparse.ArgumentParser()\n    p.add_argument(\"--unique\", action=\"store_true\")\n    p.parse_args(argv)\n\n\n" +
					"def parse_args(argv):\n    return _build_parser().parse_args(argv)\n\n\ndef main(argv=None):\n    parse_args(argv)\n",
			},
			entry: "sorter-list", wantArgs: []string{"--unique"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sc := scanPython(t, tc.files)
			i := slices.IndexFunc(sc.Entries, func(e pyEntry) bool { return e.Name == tc.entry })
			if i < 0 {
				t.Fatalf("pyscan entries = %+v, want %s", sc.Entries, tc.entry)
			}
			e := sc.Entries[i]
			if got := argNames(e.Argparse); !slices.Equal(got, tc.wantArgs) {
				t.Errorf("entry %s arguments = %q, want %q", tc.entry, got, tc.wantArgs)
			}
			if e.Declared != tc.declared {
				t.Errorf("entry %s declared = %v, want %v", tc.entry, e.Declared, tc.declared)
			}
			tools := pythonTools(sc, &PythonEnv{Venv: venvDir})
			for _, tl := range tools {
				if tl.Name == tc.entry && tl.Loose {
					t.Errorf("tool %s is loose, want kept beside a library's API", tl.Name)
				}
			}
		})
	}
}

// TestPythonNeededImports checks which missing modules are reported for a
// console script: those its import closure needs, not an optional speed-up
// (try/except ImportError), a platform-only module, a test module, or a
// module the package's other, unimported files use; and that a private
// module is given no invented Debian package.
func TestPythonNeededImports(t *testing.T) {
	t.Parallel()
	sc := scanPython(t, map[string]string{
		"pyproject.toml":  "[project]\nname = \"fmt\"\nversion = \"1\"\n\n[project.scripts]\nfmt = \"fmt.cli:main\"\n",
		"fmt/__init__.py": "",
		"fmt/cli.py": "import sys\n\nfrom .core import run\n\ntry:\n    import speedup_not_installed_xyz\nexcept ImportError:\n    pass\n" +
			"if sys.platform == \"win32\":\n    import winonly_not_installed_xyz\n\n\ndef main():\n    run()\n",
		"fmt/core.py":     "import needed_not_installed_xyz\n\n\ndef run():\n    pass\n",
		"fmt/fuzz.py":     "import fuzzer_not_installed_xyz\n",
		"fmt/selftest.py": "import test_fmt\n",
	})
	if want := []string{"needed_not_installed_xyz"}; !slices.Equal(sc.Needed, want) {
		t.Errorf("pyscan needed = %q, want %q", sc.Needed, want)
	}
	if got := debianPackage("_fmt_version"); got != "" {
		t.Errorf("debianPackage(_fmt_version) = %q, want none", got)
	}
}
