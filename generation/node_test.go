package generation_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation"
)

// TestNodeBuiltPackage generates a Node package that ships without its
// built entry module (as TypeScript and bundled packages do): the bundle's
// setup runs the build script, the gate passes, and the skill answers over
// A2A. The build script needs only Node, so no package registry is used.
func TestNodeBuiltPackage(t *testing.T) {
	t.Parallel()
	for _, prog := range []string{"node", "npm"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("no %s on this machine", prog)
		}
	}
	src := t.TempDir()
	for name, content := range map[string]string{
		"package.json": `{"name": "shout", "description": "Shout a text in capitals.", "main": "./lib/index.js",
			"bin": {"shout": "bin/shout.js"}, "scripts": {"build": "node build.js"}}`,
		"build.js": "const fs = require('fs');\nfs.mkdirSync('lib', {recursive: true});\n" +
			"fs.writeFileSync('lib/index.js', 'exports.shout = s => s.toUpperCase() + \"!\";\\n');\n",
		"bin/shout.js": "#!/usr/bin/env node\nconst {shout} = require('../lib/index.js');\nconst args = process.argv.slice(2);\n" +
			"if (args[0] === '--help') { console.log('Usage: shout [TEXT...]\\n\\nShout TEXT in capitals.'); process.exit(0); }\n" +
			"console.log(shout(args.join(' ')));\n",
	} {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "shout")
	rep, err := generation.Run(t.Context(), generation.Config{Repo: src, Out: out, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		a := rep.Attempts[len(rep.Attempts)-1]
		t.Fatalf("Run failed at %s: %s", a.Stage, a.Reason)
	}
	if _, err := os.Stat(filepath.Join(src, "lib")); err == nil {
		t.Errorf("the build wrote into the source repository")
	}
	b, err := bundle.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	client := serveBundle(t, b)
	got := callSkill(t, client, libraryCall{skill: "shout", text: "hello there"})
	if !strings.Contains(got, "HELLO THERE!") {
		t.Errorf("shout output %q, want HELLO THERE!", got)
	}
}
