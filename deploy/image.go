package deploy

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/agentnet/agentnet/bundle"
)

// Image is an agent's image as the docker and swarm runtimes build it, and
// how its container serves the bundle.
type Image struct {
	Agent     string `json:"agent"`      // the agent's name
	Ref       string `json:"image"`      // agentnet-agent-NAME:KEY
	Base      string `json:"base"`       // the base image it is built on
	BundleDir string `json:"bundle_dir"` // the bundle's directory in the image
	Port      int    `json:"port"`       // the port the host listens on in the container
	// Command is the container's command up to (not including) --url:
	// agentnet serve BUNDLE --addr 0.0.0.0:PORT.
	Command []string `json:"command"`
}

// PlanImage computes the agent's image without building it (no Docker
// needed): the references are keys of the contents, so they are those
// BuildImage and the runtimes make of the same files.
func PlanImage(cfg Config, spec Spec) (*Image, error) {
	d := newDockerWith(cfg, nil)
	d.plan = true
	return d.image(context.Background(), spec)
}

// BuildImage builds the agent's image (and its base) in the Docker engine
// of cfg.Env, unless images of the same contents are there.
func BuildImage(ctx context.Context, cfg Config, spec Spec) (*Image, error) {
	rt, err := newDocker(cfg)
	if err != nil {
		return nil, err
	}
	d := rt.(*docker)
	if _, err := d.api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("build %s: %w", spec.Name, err)
	}
	return d.image(ctx, spec)
}

func (d *docker) image(ctx context.Context, spec Spec) (*Image, error) {
	if d.cfg.Self == "" {
		return nil, fmt.Errorf("image of %s: no agentnet executable to put in it", spec.Name)
	}
	dir, err := filepath.Abs(spec.Bundle)
	if err != nil {
		return nil, err
	}
	b, err := bundle.Load(dir)
	if err != nil {
		return nil, err
	}
	base, err := d.baseImage(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("image of %s: %w", spec.Name, err)
	}
	ref, inImage, err := d.agentImage(ctx, spec.Name, b, base)
	if err != nil {
		return nil, fmt.Errorf("image of %s: %w", spec.Name, err)
	}
	return &Image{Agent: spec.Name, Ref: ref, Base: base, BundleDir: inImage, Port: 8080,
		Command: []string{agentnetInImage, "serve", inImage, "--addr", "0.0.0.0:" + dockerPort}}, nil
}
