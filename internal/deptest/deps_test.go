package deptest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/agentnet/agentnet"

func TestImportRules(t *testing.T) {
	t.Parallel()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	if len(imports) < 4 {
		t.Fatalf("go list found only %d packages", len(imports))
	}
	rel := func(pkg string) string { return strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/") }
	under := func(pkg string, roots ...string) bool {
		p := rel(pkg)
		for _, r := range roots {
			if p == r || strings.HasPrefix(p, r+"/") {
				return true
			}
		}
		return false
	}
	for pkg, deps := range imports {
		for _, dep := range deps {
			switch {
			case under(dep, "cmd"):
				t.Errorf("%s imports %s: nothing imports cmd", rel(pkg), dep)
			case under(dep, "internal/cli") && !under(pkg, "cmd", "internal/cli"):
				t.Errorf("%s imports %s: nothing but the command imports internal/cli; the logic it wires lives in the packages", rel(pkg), dep)
			case under(pkg, "a2a") && under(dep, "eval", "tasks"):
				t.Errorf("%s imports %s: the A2A layer knows nothing of suites or scoring", rel(pkg), dep)
			case strings.HasPrefix(dep, "github.com/gin-gonic/") && !under(pkg, "registry"):
				t.Errorf("%s imports %s: only the registry uses gin", rel(pkg), dep)
			case rel(pkg) == "deploy" && (strings.HasPrefix(dep, "github.com/docker/") || under(dep, "deploy")):
				t.Errorf("%s imports %s: deploy is the Runtime interface; the runtime packages import it, and only they talk to Docker", rel(pkg), dep)
			case (strings.HasPrefix(dep, "github.com/docker/") || strings.HasPrefix(dep, "github.com/moby/")) && !under(pkg, "deploy"):
				t.Errorf("%s imports %s: only deploy talks to Docker", rel(pkg), dep)
			case under(pkg, "tasks", "cards", "bundle", "eval") && !strings.HasSuffix(pkg, "_test") &&
				(dep == "net/http/httptest" || strings.Contains(dep, "/a2asrv") || strings.HasPrefix(dep, module+"/a2a/") || under(dep, "registry", "deploy", "orchestrator", "generation")):
				t.Errorf("%s imports %s: format and scoring packages stay free of servers and runtimes", rel(pkg), dep)
			case under(pkg, "tasks") && under(dep, "eval"):
				t.Errorf("%s imports %s: eval imports tasks, not the other way", rel(pkg), dep)
			}
		}
	}
}
