package generation_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/generation/static"
)

// libraryCall is one skill call on a generated library bundle: the skill,
// its data-part arguments, files to attach, and what the answer must hold.
type libraryCall struct {
	skill string
	data  map[string]any
	files map[string]string // name → content
	text  string
	want  []string
}

// TestLibraryBundles generates bundles from library repositories without
// any entry point — a Python package with a class-based API, one with
// functions, a Go module without main — and runs their skills through the
// host over A2A, as a client would.
func TestLibraryBundles(t *testing.T) {
	for _, tc := range []struct {
		repo   string
		skills []string // must be among the generated skills
		absent []string // must not be (helpers, callables, variants)
		calls  []libraryCall
	}{
		{
			repo:   "polyfit",
			skills: []string{"polynomial-evaluate", "polynomial-roots", "polynomial-degree"},
			absent: []string{"polynomial-error"},
			calls: []libraryCall{
				{skill: "polynomial-roots", data: map[string]any{"text": "x^2 - 4"}, want: []string{"-2.0", "2.0"}},
				{skill: "polynomial-evaluate", data: map[string]any{"text": "3x^2 + 2x - 1", "x": 2}, want: []string{"15.0"}},
				{skill: "polynomial-degree", text: "x^3 - x", want: []string{"3"}},
			},
		},
		{
			repo:   "textutil",
			skills: []string{"slugify", "word-count", "wrap"},
			absent: []string{"slugify-many", "apply", "normalise"},
			calls: []libraryCall{
				{skill: "slugify", text: "Crème Brûlée, Rock & Roll!", want: []string{"creme-brulee-rock-roll"}},
				{skill: "word-count", data: map[string]any{"top": 1}, files: map[string]string{"notes.txt": "the cat and the dog and the bird"},
					want: []string{`"the": 3`}},
			},
		},
		{
			repo:   "geokit",
			skills: []string{"haversine", "parse-dms", "point-geohash"},
			calls: []libraryCall{
				{skill: "point-geohash", data: map[string]any{"lat": 57.64911, "lon": 10.40744, "precision": 11}, want: []string{"u4pruydqqvj"}},
				{skill: "parse-dms", text: "48°51′29″N", want: []string{"48.858056"}},
				{skill: "haversine", data: map[string]any{"lat1": 48.8566, "lon1": 2.3522, "lat2": 51.5074, "lon2": -0.1278}, want: []string{"343."}},
			},
		},
	} {
		t.Run(tc.repo, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("testdata", "libs", tc.repo)
			before := treeOf(t, src)
			out := filepath.Join(t.TempDir(), tc.repo)
			rep, err := generation.Run(t.Context(), generation.Config{Repo: src, Out: out, Env: os.Environ()})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() {
				a := rep.Attempts[len(rep.Attempts)-1]
				t.Fatalf("Run(%s) failed at %s: %s", tc.repo, a.Stage, a.Reason)
			}
			if after := treeOf(t, src); !slices.Equal(before, after) {
				t.Errorf("generation wrote into the source repository: %v", after)
			}
			b, err := bundle.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			// The wrapper lives beside agent.yaml, never in the repo.
			if entries, err := os.ReadDir(filepath.Join(out, "wrapper")); err != nil || len(entries) == 0 {
				t.Errorf("no wrapper in the bundle directory: %v", err)
			}
			if _, err := os.Stat(filepath.Join(b.RepoDir(), ".agentnet", "wrapper")); err == nil {
				t.Errorf("a wrapper was written into the repo copy %s", b.RepoDir())
			}
			for _, s := range b.Skills {
				if !strings.Contains(strings.Join(s.Run, " "), "{{bundle}}/wrapper/") {
					t.Errorf("skill %s runs %q, want the wrapper through {{bundle}}", s.ID, s.Run)
				}
			}
			var ids []string
			for _, s := range b.Skills {
				ids = append(ids, s.ID)
			}
			for _, id := range tc.skills {
				if !slices.Contains(ids, id) {
					t.Errorf("skills = %v, want %s among them", ids, id)
				}
			}
			for _, id := range tc.absent {
				if slices.Contains(ids, id) {
					t.Errorf("skills = %v, want no %s", ids, id)
				}
			}
			client := serveBundle(t, b)
			for _, c := range tc.calls {
				got := callSkill(t, client, c)
				for _, w := range c.want {
					if !strings.Contains(got, w) {
						t.Errorf("skill %s: output %q, want it to contain %q", c.skill, got, w)
					}
				}
			}
		})
	}
}

// TestPythonEnvironmentRecorded checks the environment a Python library
// gets: an interpreter that sees the system's packages, chosen among those
// on the machine and recorded in the bundle, and the repository installed
// into a venv with pip, offline.
func TestPythonEnvironmentRecorded(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "textutil")
	rep, err := generation.Run(t.Context(), generation.Config{Repo: filepath.Join("testdata", "libs", "textutil"), Out: out, Env: os.Environ()})
	if err != nil || !rep.OK() {
		t.Fatalf("Run: %v %+v", err, rep)
	}
	data, err := os.ReadFile(filepath.Join(out, generation.EnvironmentFile))
	if err != nil {
		t.Fatal(err)
	}
	var env static.PythonEnv
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	if env.Python == nil || env.Python.Exe == "" || !env.Python.Venv {
		t.Fatalf("environment.json python = %+v, want an interpreter with venv", env.Python)
	}
	if !env.Installed {
		t.Errorf("environment.json installed = false (%s), want the repository installed with pip", env.Reason)
	}
	if fi, err := os.Stat(filepath.Join(out, "repo", ".agentnet", "venv", "pyvenv.cfg")); err != nil || fi.IsDir() {
		t.Errorf("no venv in the bundle: %v", err)
	}
	cfg, _ := os.ReadFile(filepath.Join(out, "repo", ".agentnet", "venv", "pyvenv.cfg"))
	if !strings.Contains(string(cfg), "include-system-site-packages = true") {
		t.Errorf("pyvenv.cfg = %q, want system site packages", cfg)
	}
}

func treeOf(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func serveBundle(t *testing.T, b *bundle.Bundle) *a2aclient.Client {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	h, err := host.New(b, "http://"+srv.Listener.Addr().String()+"/", host.WithEnv(os.Environ()))
	if err != nil {
		t.Fatalf("host.New: %v", err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() { h.Close(); srv.Close() })
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), srv.URL)
	if err != nil {
		t.Fatalf("Resolve(%s): %v", srv.URL, err)
	}
	client, err := a2aclient.NewFromCard(t.Context(), card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Destroy() })
	return client
}

// callSkill sends one message naming the skill and returns the text of
// the task's artifacts, failing the test when the task fails.
func callSkill(t *testing.T, client *a2aclient.Client, c libraryCall) string {
	t.Helper()
	var parts []*a2a.Part
	if c.text != "" {
		parts = append(parts, a2a.NewTextPart(c.text))
	}
	if c.data != nil {
		parts = append(parts, a2a.NewDataPart(c.data))
	}
	for name, content := range c.files {
		p := a2a.NewRawPart([]byte(content))
		p.Filename, p.MediaType = name, "text/plain"
		parts = append(parts, p)
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.Metadata = map[string]any{"skill": c.skill}
	res, err := client.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatalf("SendMessage(%s): %v", c.skill, err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage(%s) = %T, want *a2a.Task", c.skill, res)
	}
	var out strings.Builder
	for _, a := range task.Artifacts {
		for _, p := range a.Parts {
			out.WriteString(p.Text())
		}
	}
	if task.Status.State != a2a.TaskStateCompleted {
		msg := ""
		if task.Status.Message != nil {
			for _, p := range task.Status.Message.Parts {
				msg += p.Text()
			}
		}
		t.Fatalf("skill %s: task state %s: %s", c.skill, task.Status.State, msg)
	}
	return out.String()
}
