package export

import (
	"bytes"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/deploy/image"
)

// ComposeFile is the part of the Compose file format (version 2.4, which
// both docker-compose 1.x and the docker compose plugin read) the export
// writes.
type ComposeFile struct {
	Version  string                     `yaml:"version"`
	Services map[string]*ComposeService `yaml:"services"`
	Networks map[string]*ComposeNetwork `yaml:"networks"`
}

// ComposeService is one agent.
type ComposeService struct {
	Image       string            `yaml:"image"`
	Entrypoint  []string          `yaml:"entrypoint"`
	Command     []string          `yaml:"command"`
	WorkingDir  string            `yaml:"working_dir"`
	User        string            `yaml:"user"`
	Environment map[string]string `yaml:"environment"`
	Ports       []string          `yaml:"ports"`
	Networks    []string          `yaml:"networks"`
	ReadOnly    bool              `yaml:"read_only"`
	Tmpfs       []string          `yaml:"tmpfs"`
	CapDrop     []string          `yaml:"cap_drop"`
	SecurityOpt []string          `yaml:"security_opt"`
	Init        bool              `yaml:"init"`
	MemLimit    string            `yaml:"mem_limit"`
	CPUs        float64           `yaml:"cpus"`
	PidsLimit   int               `yaml:"pids_limit"`
	Restart     string            `yaml:"restart"`
	Healthcheck *ComposeHealth    `yaml:"healthcheck"`
	Labels      map[string]string `yaml:"labels"`
}

// ComposeHealth is a service's health check.
type ComposeHealth struct {
	Test        []string `yaml:"test"`
	Interval    string   `yaml:"interval"`
	Timeout     string   `yaml:"timeout"`
	Retries     int      `yaml:"retries"`
	StartPeriod string   `yaml:"start_period"`
}

// ComposeNetwork is the fleet's network: a bridge without masquerading (no
// route out of the machine) or traffic between containers, as the docker
// runtime's.
type ComposeNetwork struct {
	Driver     string            `yaml:"driver"`
	DriverOpts map[string]string `yaml:"driver_opts"`
	Labels     map[string]string `yaml:"labels"`
}

const composeNetwork = "agentnet"

// Compose writes the agents as a Compose file: each agent's port published
// on 127.0.0.1 from Options.BasePort on, its card advertising that URL.
func Compose(imgs []*image.Image, o Options) ([]byte, error) {
	f, err := composeFile(imgs, o)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString(header("Compose file", imgs, o))
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	if _, err := CheckCompose(buf.Bytes()); err != nil {
		return nil, fmt.Errorf("the Compose file does not decode back: %w", err)
	}
	return buf.Bytes(), nil
}

func composeFile(imgs []*image.Image, o Options) (*ComposeFile, error) {
	base := o.BasePort
	if base == 0 {
		base = 18080
	}
	f := &ComposeFile{Version: "2.4", Services: map[string]*ComposeService{}, Networks: map[string]*ComposeNetwork{
		composeNetwork: {Driver: "bridge", DriverOpts: map[string]string{
			"com.docker.network.bridge.enable_icc":           "false",
			"com.docker.network.bridge.enable_ip_masquerade": "false",
		}, Labels: map[string]string{image.LabelManaged: "true", image.LabelRole: "network"}},
	}}
	for i, img := range imgs {
		name := ObjectName(img.Agent)
		if _, dup := f.Services[name]; dup {
			return nil, fmt.Errorf("two agents make the service name %s", name)
		}
		port := base + i
		if port > 65535 {
			return nil, fmt.Errorf("too many agents for ports from %d", base)
		}
		url := fmt.Sprintf("http://127.0.0.1:%d/", port)
		inner := strconv.Itoa(img.Port)
		f.Services[name] = &ComposeService{
			Image:      imageRef(img, o),
			Entrypoint: []string{img.Command[0]},
			Command:    append(append([]string{}, img.Command[1:]...), "--url", url, "--allow-host", "127.0.0.1:"+inner),
			WorkingDir: img.BundleDir,
			User:       fmt.Sprintf("%d:%d", nobody, nobody),
			Environment: map[string]string{"HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
				"PYTHONDONTWRITEBYTECODE": "1"},
			Ports:       []string{fmt.Sprintf("127.0.0.1:%d:%s", port, inner)},
			Networks:    []string{composeNetwork},
			ReadOnly:    true,
			Tmpfs:       []string{"/tmp:rw,nosuid,nodev,size=256m,mode=1777"},
			CapDrop:     []string{"ALL"},
			SecurityOpt: []string{"no-new-privileges:true"},
			Init:        true,
			MemLimit:    "512m",
			CPUs:        1,
			PidsLimit:   256,
			Restart:     "unless-stopped",
			Healthcheck: &ComposeHealth{Test: append([]string{"CMD"}, probeCommand(img.Port)...),
				Interval: "5s", Timeout: "3s", Retries: 3, StartPeriod: "30s"},
			Labels: map[string]string{image.LabelManaged: "true", image.LabelRole: "agent", image.LabelAgent: img.Agent},
		}
	}
	return f, nil
}

// CheckCompose decodes a Compose file written by Compose strictly (no
// field it does not know) and checks that every service names an image
// and uses a declared network.
func CheckCompose(data []byte) (*ComposeFile, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f ComposeFile
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if len(f.Services) == 0 {
		return nil, fmt.Errorf("no services")
	}
	for name, s := range f.Services {
		if s == nil || s.Image == "" {
			return nil, fmt.Errorf("service %s: no image", name)
		}
		for _, n := range s.Networks {
			if f.Networks[n] == nil {
				return nil, fmt.Errorf("service %s: network %s is not declared", name, n)
			}
		}
	}
	return &f, nil
}
