// Package export writes a fleet as manifests for engines agentnet does not
// drive itself: Kubernetes (a ConfigMap, a Deployment and a Service per
// agent, typed with k8s.io/api) and Docker Compose (one service per agent).
// Each agent runs the image the docker and swarm runtimes build
// (docker.PlanImage names it, docker.BuildImage makes it) with the same
// containment: user nobody, a read-only root file system, a tmpfs at /tmp,
// no capabilities, no privilege escalation, one CPU, 512 MiB, and a health
// check that fetches the card ("agentnet fleet probe").
//
//	imgs := []*image.Image{...}
//	out, err := export.Kubernetes(imgs, export.Options{})
//	err = export.CheckKubernetes(out) // decodes every document back, strictly
package export

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/agentnet/agentnet/deploy/image"
)

// Options shape the manifests.
type Options struct {
	// Registry (HOST:PORT) prefixes every image, for a cluster that pulls
	// from it; empty, the images are expected on the nodes already
	// (kind load docker-image, minikube image load).
	Registry string
	// Namespace of the Kubernetes objects (empty: the current one).
	Namespace string
	// BasePort is the first loopback port Compose publishes an agent on
	// (default 18080), one per agent in order.
	BasePort int
}

// Limits of every agent's container, as the docker runtime's.
const (
	cpuLimit    = "1"
	memoryLimit = "512Mi"
	tmpSize     = "256Mi"
	nobody      = 65534
)

// ObjectName is the name of an agent's Kubernetes objects and Compose
// service: "agentnet-" and the agent's name made a DNS label.
func ObjectName(agent string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(agent) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		s = "agent"
	}
	s = "agentnet-" + s
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}

func labels(agent string) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":       ObjectName(agent),
		"app.kubernetes.io/managed-by": "agentnet",
		image.LabelManaged:             "true",
		image.LabelRole:                "agent",
	}
}

func imageRef(img *image.Image, o Options) string {
	if o.Registry == "" {
		return img.Ref
	}
	return strings.TrimSuffix(o.Registry, "/") + "/" + img.Ref
}

// probeCommand is the health check: the card fetched inside the container.
func probeCommand(port int) []string {
	return []string{img0, "fleet", "probe", "http://127.0.0.1:" + strconv.Itoa(port) + "/"}
}

const img0 = "/usr/local/bin/agentnet"

// kubeObjects are the ConfigMap, Deployment and Service of each agent.
func kubeObjects(imgs []*image.Image, o Options) ([]runtime.Object, error) {
	var objs []runtime.Object
	seen := map[string]string{}
	for _, img := range imgs {
		name := ObjectName(img.Agent)
		if prev, dup := seen[name]; dup {
			return nil, fmt.Errorf("agents %q and %q both make the object name %s", prev, img.Agent, name)
		}
		seen[name] = img.Agent
		port := int32(img.Port)
		lab := labels(img.Agent)
		meta := metav1.ObjectMeta{Name: name, Namespace: o.Namespace, Labels: lab,
			Annotations: map[string]string{image.LabelAgent: img.Agent}}
		url := fmt.Sprintf("http://%s:%d/", name, port)
		objs = append(objs, &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: meta,
			// The URL the card advertises: the Service's, inside the
			// cluster. Set it to an Ingress's URL to reach the agent
			// from outside.
			Data: map[string]string{"AGENTNET_URL": url},
		})
		probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: probeCommand(img.Port)}},
			PeriodSeconds: 5, TimeoutSeconds: 3, FailureThreshold: 3}
		args := append(append([]string{}, img.Command[1:]...), "--url", "$(AGENTNET_URL)",
			"--allow-host", "127.0.0.1:"+strconv.Itoa(img.Port), "--allow-host", fmt.Sprintf("%s:%d", name, port))
		objs = append(objs, &appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: meta,
			Spec: appsv1.DeploymentSpec{
				Replicas: ptr(int32(1)),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": name}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: lab},
					Spec: corev1.PodSpec{
						AutomountServiceAccountToken: ptr(false),
						EnableServiceLinks:           ptr(false),
						SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr(int64(nobody)), RunAsGroup: ptr(int64(nobody)),
							RunAsNonRoot: ptr(true), SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
						Containers: []corev1.Container{{
							Name:            "agent",
							Image:           imageRef(img, o),
							ImagePullPolicy: corev1.PullIfNotPresent,
							Command:         []string{img.Command[0]},
							Args:            args,
							WorkingDir:      img.BundleDir,
							Env: []corev1.EnvVar{
								{Name: "AGENTNET_URL", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
									LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: "AGENTNET_URL"}}},
								{Name: "HOME", Value: "/tmp"}, {Name: "TMPDIR", Value: "/tmp"}, {Name: "LANG", Value: "C.UTF-8"},
								{Name: "PYTHONDONTWRITEBYTECODE", Value: "1"},
							},
							Ports: []corev1.ContainerPort{{Name: "a2a", ContainerPort: port, Protocol: corev1.ProtocolTCP}},
							Resources: corev1.ResourceRequirements{
								Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpuLimit), corev1.ResourceMemory: resource.MustParse(memoryLimit)},
								Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
							},
							ReadinessProbe: probe,
							LivenessProbe:  probe,
							SecurityContext: &corev1.SecurityContext{
								ReadOnlyRootFilesystem:   ptr(true),
								AllowPrivilegeEscalation: ptr(false),
								Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
							},
							VolumeMounts: []corev1.VolumeMount{{Name: "tmp", MountPath: "/tmp"}},
						}},
						Volumes: []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{
							Medium: corev1.StorageMediumMemory, SizeLimit: ptr(resource.MustParse(tmpSize))}}}},
					},
				},
			},
		})
		objs = append(objs, &corev1.Service{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
			ObjectMeta: meta,
			Spec: corev1.ServiceSpec{
				Selector: map[string]string{"app.kubernetes.io/name": name},
				Ports:    []corev1.ServicePort{{Name: "a2a", Port: port, TargetPort: intstr.FromString("a2a"), Protocol: corev1.ProtocolTCP}},
			},
		})
	}
	return objs, nil
}

func ptr[T any](v T) *T { return &v }

func kubeScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	_ = corev1.AddToScheme(s)
	_ = appsv1.AddToScheme(s)
	return s
}

// header lists the images the manifests need.
func header(kind string, imgs []*image.Image, o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s made by agentnet fleet export. Images it needs (agentnet fleet export --build makes them):\n", kind)
	for _, img := range imgs {
		fmt.Fprintf(&b, "#   %s\n", imageRef(img, o))
	}
	return b.String()
}

// Kubernetes writes the agents' objects as one multi-document YAML file.
func Kubernetes(imgs []*image.Image, o Options) ([]byte, error) {
	objs, err := kubeObjects(imgs, o)
	if err != nil {
		return nil, err
	}
	s := kubeScheme()
	enc := kjson.NewYAMLSerializer(kjson.DefaultMetaFactory, s, s)
	var buf bytes.Buffer
	buf.WriteString(header("Kubernetes objects", imgs, o))
	for _, obj := range objs {
		buf.WriteString("---\n")
		if err := enc.Encode(obj, &buf); err != nil {
			return nil, err
		}
	}
	if err := checkKubernetes(buf.Bytes(), objs); err != nil {
		return nil, fmt.Errorf("the manifests do not decode back: %w", err)
	}
	return buf.Bytes(), nil
}

// CheckKubernetes decodes every document of a Kubernetes file strictly
// (unknown fields and duplicate ones are errors) and checks the names and
// labels of what it holds.
func CheckKubernetes(data []byte) error { return checkKubernetes(data, nil) }

func checkKubernetes(data []byte, want []runtime.Object) error {
	dec := serializer.NewCodecFactory(kubeScheme(), serializer.EnableStrict).UniversalDeserializer()
	i := 0
	for n, doc := range bytes.Split(data, []byte("\n---\n")) {
		if len(bytes.TrimSpace(stripComments(doc))) == 0 || bytes.Equal(bytes.TrimSpace(doc), []byte("---")) {
			continue
		}
		obj, gvk, err := dec.Decode(bytes.TrimPrefix(doc, []byte("---\n")), nil, nil)
		if err != nil {
			return fmt.Errorf("document %d: %w", n+1, err)
		}
		acc, ok := obj.(metav1.Object)
		if !ok {
			return fmt.Errorf("document %d: %s has no metadata", n+1, gvk)
		}
		if errs := validation.IsDNS1035Label(acc.GetName()); len(errs) > 0 {
			return fmt.Errorf("document %d: %s name %q: %s", n+1, gvk.Kind, acc.GetName(), strings.Join(errs, "; "))
		}
		for k, v := range acc.GetLabels() {
			if errs := append(validation.IsQualifiedName(k), validation.IsValidLabelValue(v)...); len(errs) > 0 {
				return fmt.Errorf("document %d: label %s=%s: %s", n+1, k, v, strings.Join(errs, "; "))
			}
		}
		if want != nil {
			if i >= len(want) || !equality.Semantic.DeepEqual(obj, want[i]) {
				return fmt.Errorf("document %d: %s %s decodes to something else than was written", n+1, gvk.Kind, acc.GetName())
			}
		}
		i++
	}
	if want != nil && i != len(want) {
		return fmt.Errorf("%d objects decoded, %d written", i, len(want))
	}
	return nil
}

func stripComments(doc []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(doc, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(l), []byte("#")) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}
