package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/bundle"
)

// greetRepo is a package whose bin loads two dependencies, one scoped.
var greetRepo = map[string]string{
	"package.json": `{"name": "greeter", "description": "Greet someone.", "bin": {"greeter": "bin/greeter.js"},
		"dependencies": {"greet": "^1.0.0", "@acme/util": "^2.0.0"}}`,
	"bin/greeter.js": "#!/usr/bin/env node\nconst greet = require('greet');\nconst util = require('@acme/util');\n" +
		"console.log(util.shout(greet(process.argv[2] || 'world')));\n",
}

// writeModules writes the modules greet and @acme/util into dir, as a
// system package or npm would.
func writeModules(t *testing.T, dir string, names ...string) {
	t.Helper()
	src := map[string]string{
		"greet":      "module.exports = n => 'hello ' + n;\n",
		"@acme/util": "exports.shout = s => s.toUpperCase();\n",
	}
	for _, n := range names {
		d := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "package.json"), []byte(`{"name": "`+n+`", "main": "index.js"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "index.js"), []byte(src[n]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNodeDependencies reads a package whose dependencies are not in
// node_modules: the system's packages provide them when they can (the
// tool then runs with NODE_PATH and npm is not run), --install-system-deps
// installs Debian's node-X for each, modules already in node_modules need
// nothing, and npm, when it must run, fails fast without a registry.
func TestNodeDependencies(t *testing.T) {
	t.Parallel()
	_, noNode := exec.LookPath("node")
	for _, tc := range []struct {
		name        string
		system      []string // modules the system has
		install     bool     // --install-system-deps, which provides them
		nodeModules bool     // the repository has them in node_modules
		wantApt     []string
		wantNPM     bool
		wantEnv     bool
	}{
		{name: "system provides all", system: []string{"greet", "@acme/util"}, wantEnv: true},
		{name: "installed from Debian", system: []string{"greet"}, install: true, wantApt: []string{"node-acme-util"}, wantEnv: true},
		{name: "in node_modules", nodeModules: true},
		{name: "registry needed", system: []string{"greet"}, wantNPM: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeRepo(t, greetRepo)
			sysDir := filepath.Join(t.TempDir(), "nodejs")
			if err := os.MkdirAll(sysDir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeModules(t, sysDir, tc.system...)
			if tc.nodeModules {
				writeModules(t, filepath.Join(dir, "node_modules"), "greet", "@acme/util")
			}
			var uses []string
			sys := &nodeSystem{dirs: func() []string { return []string{sysDir} }, uses: func(pkgs []string) { uses = append(uses, pkgs...) }}
			var apt []string
			if tc.install {
				sys.install = func(pkgs []string) *AptReport {
					apt = append(apt, pkgs...)
					writeModules(t, sysDir, "@acme/util")
					return &AptReport{Installed: pkgs}
				}
			}
			tool, notes := greeterTool(t, dir, sys)
			if !slices.Equal(apt, tc.wantApt) {
				t.Errorf("apt-get install %q, want %q", apt, tc.wantApt)
			}
			npm := slices.ContainsFunc(tool.Setup, func(c []string) bool { return c[0] == "npm" })
			if npm != tc.wantNPM {
				t.Errorf("setup = %q, want npm install: %v (notes %q)", tool.Setup, tc.wantNPM, notes)
			}
			if npm {
				// Without a registry npm must fail in seconds, not retry for minutes.
				for _, f := range []string{"--prefer-offline", "--fetch-retries=0", "--omit=dev"} {
					if !slices.Contains(tool.Setup[0], f) {
						t.Errorf("setup %q lacks %s", tool.Setup[0], f)
					}
				}
				if !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "node-acme-util") }) {
					t.Errorf("notes = %q, want the Debian package the system lacks", notes)
				}
			}
			wantProg := []string{"node", "{{repo}}/bin/greeter.js"}
			if tc.wantEnv {
				// The bundle's commands name no absolute path and set no
				// environment: a preload in the bundle sets NODE_PATH.
				wantProg = []string{"node", "--require", "{{bundle}}/wrapper/node/modules.cjs", "{{repo}}/bin/greeter.js"}
				if !strings.Contains(string(tool.Files[nodePreload]), sysDir) {
					t.Errorf("preload = %q, want it to name %s", tool.Files[nodePreload], sysDir)
				}
			}
			if !slices.Equal(tool.Prog, wantProg) {
				t.Fatalf("prog = %q, want %q", tool.Prog, wantProg)
			}
			// The system's packages the tool runs with are recorded for the
			// bundle's system_packages.
			if wantUses := []string{"node-acme-util", "node-greet"}; tc.wantEnv != slices.Equal(uses, wantUses) {
				t.Errorf("packages used = %q, want %q: %v", uses, wantUses, tc.wantEnv)
			}
			if tc.wantNPM || noNode != nil {
				return
			}
			runGreeter(t, dir, tool)
		})
	}
}

func TestDebianNodePackage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"argparse": "node-argparse", "@types/node": "node-types-node", "lodash.merge": "node-lodash-merge"} {
		if got := debianNodePackage(in); got != want {
			t.Errorf("debianNodePackage(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNodeBuiltByCompile generates a package whose bin loads the
// package's main, which its compile script builds into dist/ (as
// esprima's does): setup runs npm run compile and a note says so.
func TestNodeBuiltByCompile(t *testing.T) {
	t.Parallel()
	for _, prog := range []string{"node", "npm"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("no %s on this machine", prog)
		}
	}
	dir := writeRepo(t, map[string]string{
		"package.json": `{"name": "shout", "description": "Shout a text in capitals.", "main": "dist/shout.js",
			"bin": {"shout": "./bin/shout.js"}, "scripts": {"test": "node test.js", "compile": "node tools/compile.js", "prepublish": "npm run compile"}}`,
		"dist/.gitignore": "*\n",
		"src/shout.js":    "exports.shout = s => s.toUpperCase() + '!';\n",
		"tools/compile.js": "const fs = require('fs');\nfs.mkdirSync('dist', {recursive: true});\n" +
			"fs.copyFileSync('src/shout.js', 'dist/shout.js');\n",
		"bin/shout.js": "#!/usr/bin/env node\nlet shout;\ntry { shout = require('shout').shout; } catch (e) { shout = require('../').shout; }\n" +
			"const args = process.argv.slice(2);\n" +
			"if (args[0] === '--help') { console.log('Usage: shout TEXT\\n\\nShout TEXT in capitals.'); process.exit(0); }\n" +
			"console.log(shout(args.join(' ')));\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "shout", Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !slices.ContainsFunc(res.Bundle.Setup, func(c bundle.Command) bool { return slices.Equal(c, bundle.Command{"npm", "run", "compile"}) }) {
		t.Errorf("setup = %q, want npm run compile", res.Bundle.Setup)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, "dist/shout.js") && strings.Contains(n, "npm run compile")
	}) {
		t.Errorf("notes = %q, want one naming dist/shout.js and npm run compile", res.Notes)
	}
	if len(res.Bundle.Skills) != 1 || res.Bundle.Skills[0].ID != "shout" {
		t.Fatalf("skills = %+v, want shout (notes %q)", res.Bundle.Skills, res.Notes)
	}
}

// TestNodeEveryToolsReason generates a package none of whose two bins
// runs: the error gives each one's reason.
func TestNodeEveryToolsReason(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on this machine")
	}
	dir := writeRepo(t, map[string]string{
		"package.json":  `{"name": "pair", "bin": {"first": "bin/first.js", "second": "bin/second.js"}}`,
		"bin/first.js":  "require('../dist/first.js');\n",
		"bin/second.js": "require('../dist/second.js');\n",
	})
	_, err := Generate(t.Context(), dir, Options{Name: "pair", Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err == nil {
		t.Fatal("Generate succeeded, want both bins left out")
	}
	for _, name := range []string{"first (package.json)", "second (package.json)"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("Generate error = %q, want %s's reason too", err, name)
		}
	}
}

// TestNodeDebianModule generates a package that needs argparse where
// Debian's node-argparse is installed: the tool runs with NODE_PATH, and
// npm (which would need the registry) is not run.
func TestNodeDebianModule(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on this machine")
	}
	if !isFile("/usr/share/nodejs/argparse/package.json") {
		t.Skip("Debian's node-argparse is not installed")
	}
	dir := writeRepo(t, map[string]string{
		"package.json": `{"name": "echoer", "description": "Echo a word.", "bin": {"echoer": "bin/echoer.js"}, "dependencies": {"argparse": "^2.0.1"}}`,
		"bin/echoer.js": "#!/usr/bin/env node\nconst {ArgumentParser} = require('argparse');\n" +
			"const p = new ArgumentParser({description: 'Echo a word.'});\np.add_argument('word', {help: 'the word'});\n" +
			"console.log(p.parse_args().word);\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "echoer", Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	for _, c := range res.Bundle.Setup {
		if c[0] == "npm" {
			t.Errorf("setup = %q, want no npm", res.Bundle.Setup)
		}
	}
	if len(res.Bundle.Skills) != 1 || !slices.Contains(res.Bundle.Skills[0].Run, "{{bundle}}/wrapper/node/modules.cjs") {
		t.Errorf("skills = %+v, want one run with the NODE_PATH preload (notes %q)", res.Bundle.Skills, res.Notes)
	}
	if _, err := bundle.Parse("agent.yaml", res.YAML); err != nil {
		t.Errorf("the bundle is invalid: %v", err)
	}
}

// TestNodeSystemModulesESM runs a bin that is an ES module importing the
// system's packages: import ignores NODE_PATH, so the preload's resolve
// hook must find them.
func TestNodeSystemModulesESM(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on this machine")
	}
	dir := writeRepo(t, map[string]string{
		"package.json": `{"name": "greeter", "type": "module", "bin": {"greeter": "bin/greeter.js"},
			"dependencies": {"greet": "^1.0.0", "@acme/util": "^2.0.0"}}`,
		"bin/greeter.js": "#!/usr/bin/env node\nimport greet from 'greet';\nimport util from '@acme/util';\n" +
			"console.log(util.shout(greet(process.argv[2] || 'world')));\n",
	})
	sysDir := filepath.Join(t.TempDir(), "nodejs")
	writeModules(t, sysDir, "greet", "@acme/util")
	sys := &nodeSystem{dirs: func() []string { return []string{sysDir} }}
	tool, _ := greeterTool(t, dir, sys)
	runGreeter(t, dir, tool)
}

// greeterTool reads the one tool of the greeter package in dir.
func greeterTool(t *testing.T, dir string, sys *nodeSystem) (*Tool, []string) {
	t.Helper()
	r, err := scan(dir, "greeter")
	if err != nil {
		t.Fatal(err)
	}
	tools, notes := sys.tools(r)
	if len(tools) != 1 {
		t.Fatalf("tools = %d, want 1 (notes %q)", len(tools), notes)
	}
	return tools[0], notes
}

// runGreeter runs the greeter tool with its generated files in place and
// wants its greeting.
func runGreeter(t *testing.T, dir string, tool *Tool) {
	t.Helper()
	bdir := t.TempDir()
	if err := writeFiles(dir, bdir, []*Tool{tool}); err != nil {
		t.Fatal(err)
	}
	argv := append(expandRepo(tool.Prog, dir, bdir), "ada")
	out, err := exec.CommandContext(t.Context(), argv[0], argv[1:]...).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "HELLO ADA" {
		t.Errorf("%q = %q, %v, want HELLO ADA", argv, out, err)
	}
}
