package export

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/agentnet/agentnet/deploy/image"
)

func images() []*image.Image {
	mk := func(name, ref string) *image.Image {
		return &image.Image{Agent: name, Ref: ref, Base: "agentnet-base:0", BundleDir: "/agent", Port: 8080,
			Command: []string{"/usr/local/bin/agentnet", "serve", "/agent", "--addr", "0.0.0.0:8080"}}
	}
	return []*image.Image{mk("textkit", "agentnet-agent-textkit:0123"), mk("Web_Page.Tools", "agentnet-agent-web_page.tools:4567")}
}

func TestKubernetesDecodesBack(t *testing.T) {
	data, err := Kubernetes(images(), Options{Registry: "registry.local:5000", Namespace: "agents"})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckKubernetes(data); err != nil {
		t.Fatalf("CheckKubernetes(own output) = %v", err)
	}
	text := string(data)
	for _, want := range []string{"#   registry.local:5000/agentnet-agent-textkit:0123", "name: agentnet-web-page-tools", "kind: ConfigMap", "kind: Service", "namespace: agents"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Decode the Deployment with the API machinery and check what it asks
	// of the cluster.
	dec := serializer.NewCodecFactory(kubeScheme()).UniversalDeserializer()
	deployments := 0
	for _, doc := range strings.Split(text, "\n---\n") {
		obj, _, err := dec.Decode([]byte(doc), nil, nil)
		if err != nil {
			continue // the header
		}
		d, ok := obj.(*appsv1.Deployment)
		if !ok {
			continue
		}
		deployments++
		c := d.Spec.Template.Spec.Containers[0]
		if sc := c.SecurityContext; sc == nil || !*sc.ReadOnlyRootFilesystem || *sc.AllowPrivilegeEscalation || sc.Capabilities.Drop[0] != "ALL" {
			t.Errorf("%s security context = %+v", d.Name, sc)
		}
		if c.Resources.Limits.Memory().String() != "512Mi" || c.Resources.Limits.Cpu().String() != "1" {
			t.Errorf("%s limits = %v", d.Name, c.Resources.Limits)
		}
		if c.ReadinessProbe == nil || c.ReadinessProbe.Exec == nil || !strings.Contains(strings.Join(c.ReadinessProbe.Exec.Command, " "), "fleet probe") {
			t.Errorf("%s readiness probe = %+v", d.Name, c.ReadinessProbe)
		}
	}
	if deployments != 2 {
		t.Errorf("%d Deployments decoded, want 2", deployments)
	}
}

func TestCheckKubernetesRejects(t *testing.T) {
	good, err := Kubernetes(images()[:1], Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(string) string{
		"unknown field": func(s string) string {
			return strings.Replace(s, "  replicas: 1\n", "  replicas: 1\n  replica: 2\n", 1)
		},
		"wrong type": func(s string) string { return strings.Replace(s, "replicas: 1", "replicas: one", 1) },
		"bad name": func(s string) string {
			return strings.Replace(s, "\n  name: agentnet-textkit\n", "\n  name: Agentnet_Textkit\n", 1)
		},
		"bad label": func(s string) string {
			return strings.Replace(s, "agentnet.role: agent", "agentnet.role: not a label value!", 1)
		},
		"unknown kind": func(s string) string { return strings.Replace(s, "kind: Service", "kind: Servce", 1) },
	} {
		bad := edit(string(good))
		if bad == string(good) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if err := CheckKubernetes([]byte(bad)); err == nil {
			t.Errorf("%s: CheckKubernetes accepted it", name)
		}
	}
}

func TestComposeDecodesBack(t *testing.T) {
	data, err := Compose(images(), Options{BasePort: 28080})
	if err != nil {
		t.Fatal(err)
	}
	f, err := CheckCompose(data)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Services["agentnet-web-page-tools"]
	if s == nil || s.Ports[0] != "127.0.0.1:28081:8080" || !s.ReadOnly || s.CapDrop[0] != "ALL" || s.Healthcheck == nil ||
		!strings.Contains(strings.Join(s.Command, " "), "--url http://127.0.0.1:28081/") {
		t.Errorf("service = %+v", s)
	}
	if _, err := CheckCompose(bytes.Replace(data, []byte("read_only: true"), []byte("read_only: true\n    privileged: true"), 1)); err == nil {
		t.Error("CheckCompose accepted a field the export never writes")
	}
	// docker-compose's own reading of the file, when it is installed.
	dc, err := exec.LookPath("docker-compose")
	if err != nil {
		t.Log("docker-compose is not installed: its check is skipped")
		return
	}
	p := filepath.Join(t.TempDir(), "compose.yaml")
	if err := writeFile(p, data); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(dc, "-f", p, "config", "-q").CombinedOutput(); err != nil {
		t.Fatalf("docker-compose config: %v\n%s", err, out)
	}
}

func TestObjectName(t *testing.T) {
	for in, want := range map[string]string{
		"textkit": "agentnet-textkit", "Web_Page.Tools": "agentnet-web-page-tools", "--": "agentnet-agent",
		strings.Repeat("x", 80): "agentnet-" + strings.Repeat("x", 54),
	} {
		if got := ObjectName(in); got != want {
			t.Errorf("ObjectName(%q) = %q, want %q", in, got, want)
		}
	}
}

func writeFile(p string, data []byte) error { return os.WriteFile(p, data, 0o644) }
